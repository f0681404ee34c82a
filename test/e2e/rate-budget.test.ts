/**
 * Two bulk runs at once on one token under a rate limit (issue 36, item 6):
 * they share the platform's budget through the record's home — the local
 * record (two processes of one machine, one config directory), or the team's
 * PostgreSQL (two machines: two config directories on one private cluster,
 * test/helpers/postgres.ts) — and together draw at most 1 % 429s, counted by
 * the sandbox itself.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ndjson, requestCounts, resetCounts, spawnMembers, useBulkSandbox, writeCsv, type BulkResult, type Product } from './bulk-helpers.js';
import { run, tempDir } from './harness.js';
import { hasPostgres, startPostgres, type Postgres } from '../helpers/postgres.js';

/** The bench's size (scripts/bench.mjs --only budget): a run's first burst is a few 429s, under 1 % of this many requests. */
const ROWS = 150;
const b = useBulkSandbox(['--students', '400', '--seed', '5', '--rate-limit', '20/s', '--latency', '20ms']);

/** A file granting the product at `index` to ROWS students who do not hold it yet (each run its own product: no lease in common). */
function grants(index: number): { file: string; product: Product } {
  const product = b.catalog[index] as Product;
  const free = b.students.filter((student) => !(student.subscriptions ?? []).some((sub) => sub.product_id === product.id)).slice(0, ROWS);
  return { product, file: writeCsv(b.dir, `budget-${index}.csv`, ['student,product_id', ...free.map((student) => `${student.id},${product.id}`)]) };
}

async function twoRunsAtOnce(envs: [Record<string, string>, Record<string, string>], products: [number, number]) {
  await resetCounts(b.sandbox);
  const runs = products.map((index, which) => spawnMembers(
    ['students', 'grant', '--file', grants(index).file, '--yes', '--concurrency', '8', '-o', 'ndjson', '--strategy', 'rows'], envs[which] as Record<string, string>,
  ));
  const exits = await Promise.all(runs.map((run) => run.exited));
  const results = runs.flatMap((run) => ndjson<BulkResult>(run.output().stdout));
  const counts = await requestCounts(b.sandbox);
  return { exits, results, counts, stderr: runs.map((run) => run.output().stderr).join('\n') };
}

/** Both runs granted every row, exited 0, and the sandbox answered at most 1 % of their requests 429. */
function expectShared({ exits, results, counts, stderr }: Awaited<ReturnType<typeof twoRunsAtOnce>>): void {
  expect(exits.map((exit) => exit.code), stderr).toEqual([0, 0]);
  expect(results.filter((row) => row.result === 'granted')).toHaveLength(2 * ROWS);
  expect(counts.statuses['429'] ?? 0, stderr).toBeLessThanOrEqual(counts.total * 0.01);
}

describe('two bulk runs at once on one token under a rate limit', () => {
  it('share the budget through the local record: ≤ 1 % of their requests answered 429', async () => {
    const env = { ...b.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-budget-') };
    expectShared(await twoRunsAtOnce([env, env], [0, 1]));
  }, 120_000);

  describe.runIf(hasPostgres())('on the team record', () => {
    let pg: Postgres | undefined;
    afterAll(async () => pg?.stop());

    it('share the budget through PostgreSQL from two machines: ≤ 1 % of their requests answered 429', async () => {
      pg = await startPostgres();
      const machine = (name: string) => ({ ...b.sandbox.env, MEMBERS_CONFIG_DIR: tempDir(`members-budget-${name}-`), MEMBERS_RECORD_URL: (pg as Postgres).url });
      const envs: [Record<string, string>, Record<string, string>] = [machine('a'), machine('b')];
      // The tables exist before the runs start (the first command of a team creates them).
      const status = await run(['record', 'status', '-o', 'json'], { env: envs[0] });
      expect(status.code, status.stderr).toBe(0);
      // Products 2 and 3: the local case above granted 0 and 1.
      expectShared(await twoRunsAtOnce(envs, [2, 3]));
      // The timeline the runs paced on is the team's: one row, for their one token.
      expect((await (pg as Postgres).sql('SELECT count(*) FROM members_rate_budgets')).trim()).toBe('1');
    }, 120_000);
  });
});
