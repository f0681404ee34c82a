/**
 * A bulk run killed before it recorded itself, then the same command again
 * (issue 37, one run; contract §9): through the built binary against the
 * sandbox in both flavours, `students grant --file` SIGKILLed mid-run and
 * re-run grants every row once, under ONE run id — the killed attempt's
 * and the re-run's changes — recorded once, so one `members undo RUN`
 * revokes every grant, each once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { run, sandboxGet } from './harness.js';
import { describeBulkFlavors, resetCounts, stats, writeCsv, type BulkResult, type Student } from './bulk-helpers.js';
import type { AuditRecord } from '../../src/audit/log.js';

const POST_GRANT = 'POST /api/v1/students/{id}/products';
const DELETE_GRANT = 'DELETE /api/v1/students/{id}/products/{product_id}';

describeBulkFlavors('students grant --file killed, then again', ['--students', '80', '--seed', '91', '--latency', '20ms'], (bulk) => {
  const held = async (studentId: string, productId: string) =>
    (await sandboxGet(bulk.sandbox, `/api/v1/students/${studentId}/products/${productId}`)).status === 200;
  const logOf = (dir: string): AuditRecord[] => {
    const file = join(dir, 'audit.jsonl');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord) : [];
  };

  it('every row granted once, the two attempts one run recorded once, one undo RUN revokes each grant once', async () => {
    const product = bulk.catalog[0] as { id: string };
    const chosen = bulk.students.filter((student: Student) => !(student.subscriptions ?? []).some((sub) => sub.product_id === product.id)).slice(0, 16);
    expect(chosen).toHaveLength(16);
    const file = writeCsv(bulk.dir, 'grants.csv', ['student,product_id', ...chosen.map((student) => `${student.email},${product.id}`)]);
    const configDir = join(bulk.dir, 'config');
    const env = { ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: configDir };
    const argv = ['students', 'grant', '--file', file, '--yes', '-o', 'json', '--concurrency', '1', '--reason', 'turma 9'];
    const killedGrants = await bulk.killAfter({ argv, env, route: POST_GRANT, count: 4 });
    expect(killedGrants).toBeLessThan(16);

    const summary = join(bulk.dir, 'summary.json');
    const rerun = await run([...argv, '--summary', summary], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const results = JSON.parse(rerun.stdout) as BulkResult[];
    // --summary: this command's rows, and the run's over both attempts (its record's counts).
    const counted = JSON.parse(readFileSync(summary, 'utf8')) as { counts: Record<string, number>; run_counts: Record<string, number> };
    expect(counted.counts.skipped).toBe(results.filter((row) => row.result === 'skipped').length);
    expect(counted.run_counts).toMatchObject({ granted: 16, skipped: 0, failed: 0 });
    expect(results.filter((row) => row.result === 'skipped').length).toBeGreaterThanOrEqual(4);
    expect(await Promise.all(chosen.map((student) => held(student.id, product.id)))).toEqual(chosen.map(() => true));
    expect((await stats(bulk.sandbox))[POST_GRANT]).toBe(16);

    // One run across the kill: every grant carries its id; its own record, written once, counts all 16 as granted.
    const grants = logOf(configDir).filter((record) => record.action === 'grant');
    expect(grants).toHaveLength(16);
    const runIds = [...new Set(grants.map((record) => record.run_id))];
    expect(runIds).toHaveLength(1);
    const runId = runIds[0] as string;
    expect(logOf(configDir).filter((record) => record.action === 'bulk').map((record) => [record.id, record.result, record.counts]))
      .toEqual([[runId, 'completed', expect.objectContaining({ granted: 16, skipped: 0, failed: 0 })]]);
    expect(rerun.stderr).toContain(`run ${runId} of the same command on the same file was cut short: continued now under its id`);
    const history = await run(['history', '-o', 'json'], { env });
    expect((JSON.parse(history.stdout) as AuditRecord[]).map((record) => [record.id, record.action, record.result])).toEqual([[runId, 'bulk', 'completed']]);

    // One undo of that run: every grant revoked, each once; the run is undone, a second undo changes nothing.
    await resetCounts(bulk.sandbox);
    const undo = await run(['undo', runId, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await Promise.all(chosen.map((student) => held(student.id, product.id)))).toEqual(chosen.map(() => false));
    expect((await stats(bulk.sandbox))[DELETE_GRANT]).toBe(16);
    const undone = logOf(configDir).filter((record) => record.action === 'undo').map((record) => record.undoes);
    expect(undone.sort()).toEqual(grants.map((record) => record.id).sort());
    expect((await run(['undo', runId, '--yes'], { env })).code).toBe(2);

    // The file done, its next run is a new run.
    await resetCounts(bulk.sandbox);
    const again = await run(argv, { env });
    expect(again.code, again.stderr).toBe(0);
    const runs = logOf(configDir).filter((record) => record.action === 'bulk' && record.command === 'students grant --file').map((record) => record.id);
    expect(runs).toHaveLength(2);
    expect(runs[1]).not.toBe(runId);
  }, 90_000);
});
