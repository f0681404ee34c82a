/**
 * `members each`'s file forms resumed on a team record (issue 37, one run;
 * issue 36, the record): with MEMBERS_RECORD_URL the rows done live in
 * PostgreSQL, not in the local files, and a re-run after a SIGKILL reads
 * them there — every row added once, the two attempts one run, undone once.
 * Each test has a database and a sandbox of its own: it reads only its runs.
 */
import { describe, expect, it } from 'vitest';
import { run, sandboxGet, tempDir } from './harness.js';
import { holdNext, resetCounts, settled, spawnMembers, stats, useBulkSandbox, waitFor, writeCsv } from './bulk-helpers.js';
import { hasPostgres } from '../helpers/postgres.js';
import { usePostgresPerTest } from '../helpers/test-postgres.js';
import type { AuditRecord } from '../../src/audit/log.js';

const PUT_SCORES = 'PUT /api/v1/students/{id}/scores';

describe.runIf(hasPostgres())('each -- scores add and grant --file on a team record (PostgreSQL): a SIGKILL, a re-run, one run', () => {
  const bulk = useBulkSandbox(['--students', '40', '--seed', '371', '--latency', '20ms'], { each: true });
  const pg = usePostgresPerTest();

  const scoreOf = async (id: string) => (await sandboxGet<{ data: { score: number } }>(bulk.sandbox, `/api/v1/students/${id}/scores`)).body.data.score;
  const scores = (ids: string[]) => Promise.all(ids.map(scoreOf));
  const records = async (): Promise<AuditRecord[]> => (await pg.sql('SELECT record FROM members_changes ORDER BY seq')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);

  it('the re-run leaves out the rows the team record shows done, continues the run, and one undo restores every score', async () => {
    const chosen = bulk.students.slice(0, 12);
    const ids = chosen.map((student) => student.id);
    const before = await scores(ids);
    const file = writeCsv(bulk.dir, 'points.csv', ['Nome;E-mail;Pontos', ...chosen.map((student, index) => `N${index};${student.email};${index + 1}`)]);
    const env = { ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-each-pg-'), MEMBERS_RECORD_URL: pg.url, TZ: 'UTC' };
    const argv = ['each', file, '--yes', '-o', 'json', '--concurrency', '1', '--', 'scores', 'add', '{E-mail}', '{Pontos}', '--reason', 'contest'];
    // The first command on the record makes its tables.
    expect((await run(['record', 'status'], { env })).code).toBe(0);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    // Three rows done (a canary), then the run again, killed while the server has applied the fourth and holds its answer:
    // one change in flight, none other on its way, whatever the machine's speed.
    expect((await run([...argv.slice(0, 5), '--first', '3', ...argv.slice(5)], { env })).code).toBe(0);
    const hold = await holdNext(bulk.sandbox, { method: 'PUT', route: '/api/v1/students/{id}/scores', afterChange: true });
    const child = spawnMembers(argv, env);
    await hold.held();
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    await hold.release();
    await settled(bulk.sandbox);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(4);

    const rerun = await run(argv, { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await scores(ids)).toEqual(before.map((score, index) => score + index + 1));
    const results = JSON.parse(rerun.stdout) as Array<{ result: string }>;
    expect(results.filter((row) => row.result === 'skipped').length).toBe(4);

    const changes = (await records()).filter((record) => record.action === 'scores.set');
    expect(changes).toHaveLength(12);
    const runIds = [...new Set(changes.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    const runId = runIds[0] as string;
    expect((await records()).filter((record) => record.action === 'bulk').map((record) => [record.id, record.counts])).toEqual([[runId, { done: 12, skipped: 0, failed: 0 }]]);

    await resetCounts(bulk.sandbox);
    const undo = await run(['undo', runId, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await scores(ids)).toEqual(before);
    expect((await stats(bulk.sandbox))[PUT_SCORES]).toBe(12);
    const undone = (await records()).filter((record) => record.action === 'undo').map((record) => record.undoes);
    expect(undone.sort()).toEqual(changes.map((record) => record.id).sort());
  }, 90_000);

  it('students grant --file killed on a team record: the re-run continues the run it finds there, one undo revokes each grant', async () => {
    const product = bulk.catalog[0] as { id: string };
    const chosen = bulk.students.filter((student) => !(student.subscriptions ?? []).some((sub) => sub.product_id === product.id)).slice(0, 12);
    expect(chosen).toHaveLength(12);
    const held = async () => Promise.all(chosen.map(async (student) => (await sandboxGet(bulk.sandbox, `/api/v1/students/${student.id}/products/${product.id}`)).status === 200));
    const file = writeCsv(bulk.dir, 'grants.csv', ['student,product_id', ...chosen.map((student) => `${student.email},${product.id}`)]);
    const env = { ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-bulk-pg-'), MEMBERS_RECORD_URL: pg.url };
    const argv = ['students', 'grant', '--file', file, '--yes', '-o', 'json', '--concurrency', '1'];
    expect((await run(['record', 'status'], { env })).code).toBe(0);
    const grants = async () => (await records()).filter((record) => record.action === 'grant');
    const child = spawnMembers(argv, env);
    await waitFor(async () => (await grants()).length >= 3);
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    await settled(bulk.sandbox);
    expect((await grants()).length).toBeLessThan(12);

    const rerun = await run(argv, { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await held()).toEqual(chosen.map(() => true));
    const changes = await grants();
    expect(changes).toHaveLength(12);
    const runIds = [...new Set(changes.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    const runId = runIds[0] as string;
    expect(rerun.stderr).toContain(`run ${runId} of the same command on the same file was cut short: continued now under its id`);
    const runRecords = (await records()).filter((record) => record.action === 'bulk' && record.command === 'students grant --file');
    expect(runRecords.map((record) => [record.id, record.counts])).toEqual([[runId, expect.objectContaining({ granted: 12, skipped: 0, failed: 0 })]]);

    const undo = await run(['undo', runId, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await held()).toEqual(chosen.map(() => false));
    const undone = (await records()).filter((record) => record.action === 'undo').map((record) => record.undoes);
    expect(undone.filter((id) => changes.some((change) => change.id === id)).sort()).toEqual(changes.map((record) => record.id).sort());
  }, 90_000);
});
