/**
 * One run of a command on a file for the whole team: two machines (two config
 * directories, profiles of other names, one platform) on one team record
 * (a private PostgreSQL cluster, test/helpers/postgres.ts). A run of
 * `each … scores add` killed on machine A is continued by the same command on
 * machine B — the same run, every score added once, one undo for all — and
 * two runs of one file at once, on one machine or two, are one run: the
 * second exits 10 naming the first, nothing sent. Each test has a sandbox
 * and a database of its own.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, sandboxGet, tempDir } from './harness.js';
import { holdNext, resetCounts, settled, spawnMembers, stats, useBulkSandbox, waitFor, writeCsv, type BulkSandbox } from './bulk-helpers.js';
import { hasPostgres } from '../helpers/postgres.js';
import { usePostgresPerTest } from '../helpers/test-postgres.js';
import type { AuditRecord } from '../../src/audit/log.js';
import { ExitCode } from '../../src/lib/errors.js';

const PUT_SCORES = 'PUT /api/v1/students/{id}/scores';
const bulk = useBulkSandbox(['--students', '40', '--seed', '373', '--latency', '20ms'], { each: true });

const scoreOf = async (id: string) => (await sandboxGet<{ data: { score: number } }>(bulk.sandbox, `/api/v1/students/${id}/scores`)).body.data.score;
const scores = (ids: string[]) => Promise.all(ids.map(scoreOf));

/** Twelve students from `from` on, and a file giving each 1..12 points. */
function pointsFile(b: BulkSandbox, from: number, name: string) {
  const chosen = b.students.slice(from, from + 12);
  const file = writeCsv(b.dir, name, ['Nome;E-mail;Pontos', ...chosen.map((student, index) => `N${index};${student.email};${index + 1}`)]);
  return { ids: chosen.map((student) => student.id), file };
}

const scoresAdd = (file: string) => ['each', file, '--yes', '-o', 'json', '--concurrency', '1', '--', 'scores', 'add', '{E-mail}', '{Pontos}', '--reason', 'contest'];

/**
 * Machine A's run is held on its first change (its lease taken); machine B runs the same command on the same file:
 * exit 10 naming A's run, nothing sent. A then finishes: every score added once.
 */
async function twoAtOnce(machines: { a: Record<string, string>; b: Record<string, string> }, from: number, name: string) {
  const { ids, file } = pointsFile(bulk, from, name);
  const before = await scores(ids);
  await settled(bulk.sandbox);
  await resetCounts(bulk.sandbox);
  const hold = await holdNext(bulk.sandbox, { method: 'PUT', route: '/api/v1/students/{id}/scores' });
  const first = spawnMembers(scoresAdd(file), machines.a);
  await hold.held();
  const second = await run(scoresAdd(file), { env: machines.b });
  await hold.release();
  const firstExit = await first.exited;
  expect(firstExit.code, first.output().stderr).toBe(0);
  expect(second.code, second.stderr).toBe(ExitCode.leaseHeld);
  expect(second.stderr).toContain('another run holds the lease on the run of the same command on the same file');
  expect(second.stderr).toContain(`(members each scores add, pid ${first.child.pid})`);
  expect(second.stderr).toContain('nothing was sent');
  expect(second.stdout).toBe('');
  expect(await scores(ids)).toEqual(before.map((score, index) => score + index + 1));
  expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);
}

describe('two runs of each on one file at once, on one machine (the local record)', () => {
  it('the second exits 10 naming the first, nothing sent; the first adds every score once', async () => {
    const env = { ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-each-twice-') };
    await twoAtOnce({ a: env, b: env }, 24, 'local-twice.csv');
  }, 90_000);
});

describe.runIf(hasPostgres())('each on a team record, from two machines', () => {
  const pg = usePostgresPerTest();

  const records = async (): Promise<AuditRecord[]> => (await pg.sql('SELECT record FROM members_changes ORDER BY seq')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);
  /** A machine of the team: its own config directory, its own name for the platform's profile. */
  const machine = (name: string) => ({ ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: tempDir(`members-team-${name}-`), MEMBERS_PROFILE: name, MEMBERS_RECORD_URL: pg.url, TZ: 'UTC' });

  it('a run killed on machine A is continued on machine B: the same run, every score added once, one undo restores them all', async () => {
    const { ids, file } = pointsFile(bulk, 0, 'team-points.csv');
    const before = await scores(ids);
    const [a, b] = [machine('desk'), machine('cron')];
    expect((await run(['record', 'status'], { env: a })).code).toBe(0);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    // On A: killed while the server has applied the first change and holds its answer: one change in flight.
    const hold = await holdNext(bulk.sandbox, { method: 'PUT', route: '/api/v1/students/{id}/scores', afterChange: true });
    const killed = spawnMembers(scoresAdd(file), a);
    await hold.held();
    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    await hold.release();
    await settled(bulk.sandbox);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(1);
    expect((await pg.sql('SELECT count(*) FROM members_run_keys')).trim()).toBe('1');

    // On B, the same command on the same bytes (another path, another profile name): A's run goes on.
    const copy = join(bulk.dir, 'team-points-copy.csv');
    copyFileSync(file, copy);
    const rerun = await run(scoresAdd(copy), { env: b });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await scores(ids)).toEqual(before.map((score, index) => score + index + 1));
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);
    const results = JSON.parse(rerun.stdout) as Array<{ result: string; message: string }>;
    expect(results.filter((row) => row.result === 'skipped')).toHaveLength(1);

    const changes = (await records()).filter((record) => record.action === 'scores.set');
    expect(changes).toHaveLength(12);
    const runIds = [...new Set(changes.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    const runId = runIds[0] as string;
    expect(rerun.stderr).toContain(`run ${runId}, continued now`);
    expect((await records()).filter((record) => record.action === 'bulk').map((record) => [record.id, record.counts])).toEqual([[runId, { done: 12, skipped: 0, failed: 0 }]]);
    // Every row done: the key keeps no run to continue, only the run that did the file.
    expect(await pg.sql('SELECT runs, finished FROM members_run_keys')).toBe(`{}|${runId}\n`);
    expect((await pg.sql('SELECT count(*) FROM members_leases')).trim()).toBe('0');

    await resetCounts(bulk.sandbox);
    const undo = await run(['undo', runId, '--yes'], { env: a });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await scores(ids)).toEqual(before);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);
  }, 120_000);

  it('two runs of one file at once from two machines: the second exits 10 naming the first, nothing sent', async () => {
    await twoAtOnce({ a: machine('desk'), b: machine('cron') }, 12, 'team-twice.csv');
  }, 90_000);

  it('a run that waits (--wait) for another run of the file which does every row has nothing left to do: nothing sent, exit 0', async () => {
    const { ids, file } = pointsFile(bulk, 0, 'team-wait.csv');
    const before = await scores(ids);
    const [a, b] = [machine('desk'), machine('cron')];
    expect((await run(['record', 'status'], { env: a })).code).toBe(0);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    const hold = await holdNext(bulk.sandbox, { method: 'PUT', route: '/api/v1/students/{id}/scores' });
    const first = spawnMembers(scoresAdd(file), a);
    await hold.held();
    const second = spawnMembers([...scoresAdd(file).slice(0, 2), '--wait', '60s', ...scoresAdd(file).slice(2)], b);
    await waitFor(async () => second.output().stderr.includes('Waiting up to 60 s for the lease of'));
    await hold.release();
    expect((await first.exited).code, first.output().stderr).toBe(0);
    expect((await second.exited).code, second.output().stderr).toBe(0);
    const runId = (await pg.sql("SELECT finished FROM members_run_keys")).trim();
    expect(second.output().stderr).toContain(`run ${runId} of the same command on the same file did every row while this one waited for it: nothing left to do, nothing was sent`);
    expect(await scores(ids)).toEqual(before.map((score, index) => score + index + 1));
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);

    // Run again once that is over, the same command on the same file is a new run over every row (the points again).
    const again = await run(scoresAdd(file), { env: b });
    expect(again.code, again.stderr).toBe(0);
    expect(await scores(ids)).toEqual(before.map((score, index) => score + 2 * (index + 1)));
  }, 90_000);
});
