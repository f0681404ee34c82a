/**
 * `members undo RUN_ID` is a run too (issue 36): it takes a lease on the
 * products of the run it undoes, as that run did — a bulk file on one of them
 * holding its lease makes it exit 10 naming the holder, nothing sent, or wait
 * (`--wait`) until it is released — and each revoke or restore reads the
 * subscription again right before it is sent: one the desk changed after the
 * undo checked it is `stale`, not sent (exit 7), and the records of the
 * others hold what was really removed. Against the default sandbox and its
 * Laravel flavour; each test interleaves with the undo on a held request,
 * never on the clock.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run, tempDir } from './harness.js';
import { holdNext, spawnMembers, stats, waitFor } from './bulk-helpers.js';
import { DESK_FLAVOR_NAMES, deskSandbox, withAccess } from './desk-flavors.js';

interface Sub { product_id: string; active: number; status: string; accession_date: string; expiration_date: string | null; student?: { id: string; email: string } }
interface Student { id: string; email: string; subscriptions: Sub[] }
interface Line { id: string; command: string; action: string; result: string; run_id?: string; undoes?: string; student_id?: string; product_id?: string; before?: Sub; after?: Sub }
interface Undone { id: string; action: string; student: string; product_id: string | null; result: string; message: string }

const SEED = ['--students', '60', '--seed', '41'];
const REVOKES = 'DELETE /api/v1/students/{id}/products/{product_id}';
const reference = deskSandbox('default', SEED);
let students: Student[];

beforeAll(async () => {
  students = await allPages<Student>(reference, '/api/v1/students?with=subscriptions');
});

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const env = () => ({ ...sandbox.env, TZ: 'UTC' });
  const members = (args: string[]) => run(args, { env: env() });
  const productsOf = async (key: string) => JSON.parse((await members(['students', 'products', key, '-o', 'json'])).stdout) as Sub[];
  const lines = async (...args: string[]) => JSON.parse((await members(['history', ...args, '-o', 'json'])).stdout) as Line[];
  const grantFile = (name: string, rows: readonly Student[], product: string) => {
    const file = join(tempDir('members-undo-lease-'), name);
    writeFileSync(file, ['student,product_id', ...rows.map((row) => `${row.email},${product}`)].join('\n'));
    return file;
  };

  it('undo RUN exits 10 naming the run that holds a lease on its product, nothing sent; with --wait it goes on once that run ends', async () => {
    const product = withAccess(students.find((s) => withAccess(s.subscriptions).length > 0)!.subscriptions)[0]!.product_id;
    const without = students.filter((s) => !s.subscriptions.some((sub) => sub.product_id === product));
    const granted = without.slice(0, 2);
    const bulk = await members(['students', 'grant', '--file', grantFile('granted.csv', granted, product), '--yes']);
    expect(bulk.code, bulk.stderr).toBe(0);
    const grantRun = (await lines()).find((line) => line.action === 'bulk')!;
    // Another bulk run on the same product, its grant held by the server: its lease is certainly held meanwhile.
    const holder = grantFile('holder.csv', without.slice(2, 3), product);
    let grant = await holdNext(sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    let other = spawnMembers(['students', 'grant', '--file', holder, '--yes'], env());
    await grant.held();
    const revokes = (await stats(sandbox))[REVOKES] ?? 0;

    const refused = await members(['undo', grantRun.id, '--yes']);
    expect(refused.code, refused.stderr).toBe(10);
    expect(refused.stderr).toMatch(/another run holds the lease on product .*\(members students grant --file, pid \d+\).*nothing was sent/);
    expect((await stats(sandbox))[REVOKES] ?? 0).toBe(revokes);
    await grant.release();
    expect((await other.exited).code, other.output().stderr).toBe(0);
    for (const student of granted) expect((await productsOf(student.email)).map((sub) => sub.product_id)).toContain(product);

    // Once more, now waiting: the undo goes on when the other run releases its lease, and not before.
    grant = await holdNext(sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    other = spawnMembers(['students', 'grant', '--file', grantFile('holder2.csv', without.slice(3, 4), product), '--yes'], env());
    await grant.held();
    const undo = spawnMembers(['undo', grantRun.id, '--yes', '--wait', '10m', '-o', 'json'], env());
    await waitFor(async () => /Waiting up to 600 s for the lease of .* \(members students grant --file, lease l[0-9a-f]{8}\)/.test(undo.output().stderr));
    expect((await stats(sandbox))[REVOKES] ?? 0).toBe(revokes);
    await grant.release();
    expect((await other.exited).code, other.output().stderr).toBe(0);
    const { code } = await undo.exited;
    expect(code, undo.output().stderr).toBe(0);
    expect((JSON.parse(undo.output().stdout) as Undone[]).map((row) => row.result)).toEqual(['undone', 'undone']);
    for (const student of granted) expect((await productsOf(student.email)).map((sub) => sub.product_id)).not.toContain(product);
  });

  it('a restore the desk changed after undo RUN checked it is stale: not sent, exit 7; the others record what they really removed', async () => {
    const holders = (product: string) => students.filter((s) => s.subscriptions.some((sub) => sub.product_id === product && sub.active === 1 && sub.status === 'active' && sub.expiration_date));
    const product = [...new Set(students.flatMap((s) => s.subscriptions.map((sub) => sub.product_id)))].find((id) => holders(id).length >= 3)!;
    const extended = await members(['subscriptions', 'extend', '--product', product, '--days', '20', '--yes', '-o', 'json']);
    expect(extended.code, extended.stderr).toBe(0);
    const extension = (await lines()).find((line) => line.action === 'bulk' && line.command === 'subscriptions extend')!;
    // In the order undo takes them: the log's, newest first (history orders changes of the same millisecond its own way).
    const changes = readFileSync(join(sandbox.env.MEMBERS_CONFIG_DIR as string, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean)
      .map((text) => JSON.parse(text) as Line).filter((line) => line.run_id === extension.id && line.action !== 'bulk').reverse();
    expect(changes.length).toBeGreaterThanOrEqual(3);
    // The undo checks this one first; its answer is held once the server read it, while the desk renews it.
    const raced = changes[0]!;
    const check = await holdNext(sandbox, { method: 'GET', route: '/api/v1/students/{id}/products/{product_id}', afterChange: true });
    const undo = spawnMembers(['undo', extension.id, '--yes', '-o', 'json'], env());
    await check.held();
    const desk = await members(['students', 'grant', raced.student_id!, product, '--renew', '--expiration', '2031-01-31', '--yes']);
    expect(desk.code, desk.stderr).toBe(0);
    await check.release();
    const { code } = await undo.exited;
    const { stdout, stderr } = undo.output();

    expect(code, stderr).toBe(7);
    const rows = JSON.parse(stdout) as Undone[];
    expect(rows.map((row) => [row.id, row.result])).toEqual(changes.map((change) => [change.id, change === raced ? 'stale' : 'undone']));
    expect(rows[0]!.message).toContain('changed while this undo ran (now access on, status active, expiration 2031-01-31); nothing was sent');
    expect(stderr).toContain(`${changes.length - 1} undone, 0 skipped, 0 changed since (conflict), 1 changed while this undo ran (stale), 0 failed`);
    expect((await productsOf(raced.student_id!)).find((sub) => sub.product_id === product)).toMatchObject({ active: 1, expiration_date: expect.stringMatching(/^2031-01-3/) });
    // Nothing recorded for the stale one; each other undo's `before` is the extended subscription it removed.
    const undoRun = (await lines()).find((line) => line.action === 'bulk' && line.undoes === extension.id)!;
    const undone = (await lines('--run', undoRun.id)).filter((line) => line.action === 'undo');
    expect(undone.map((line) => line.undoes).sort()).toEqual(changes.slice(1).map((change) => change.id).sort());
    for (const line of undone) {
      const change = changes.find((candidate) => candidate.id === line.undoes)!;
      expect(line).toMatchObject({ result: 'renewed', before: { expiration_date: change.after!.expiration_date } });
      expect(line.before?.expiration_date).not.toBe(change.before?.expiration_date);
    }
  });
});
