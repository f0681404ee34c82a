/**
 * Undo the way tickets arrive (issue 30), end to end against the default
 * sandbox and its Laravel flavour: `members undo RUN_ID` reverses every
 * change of a run — a transfer (its delete included), an extension —
 * checking each one's state first; `members undo --last --student STUDENT`
 * finds the most recent change to that student, shows it, and reverses it.
 * Every test has a sandbox (and so a history) of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run } from './harness.js';
import { DESK_FLAVOR_NAMES, datesOf, deskSandbox, withAccess } from './desk-flavors.js';

interface Sub { product_id: string; active: number; status: string; accession_date: string; expiration_date: string | null; student?: { id: string; email: string } }
interface Student { id: string; email: string; subscriptions: Sub[] }
interface Listed { id: string; title: string }
interface Line { id: string; command: string; action: string; result: string; run_id?: string; undoes?: string }
interface Undone { id: string; action: string; result: string; message: string }

const SEED = ['--students', '80', '--seed', '23'];
/** The default sandbox the seeded records are read from: no test changes it (each changes a sandbox of its own). */
const reference = deskSandbox('default', SEED);
/** The seeded students and products, the same in every flavour's sandbox when a test starts. */
let students: Student[];
let products: Listed[];

beforeAll(async () => {
  students = await allPages<Student>(reference, '/api/v1/students?with=subscriptions');
  products = await allPages<Listed>(reference, '/api/v1/products');
});


describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const members = (args: string[]) => run(args, { env: { ...sandbox.env, TZ: 'UTC' } });
  const productsOf = async (key: string) => {
    const result = await members(['students', 'products', key, '-o', 'json']);
    return result.code === 0 ? JSON.parse(result.stdout) as Sub[] : undefined;
  };
  const lines = async () => JSON.parse((await members(['history', '-o', 'json'])).stdout) as Line[];
  const runOf = async (command: string) => (await lines()).find((line) => line.action === 'bulk' && line.command === command)!;

  it('undo RUN_ID of a transfer with --delete-source: FROM is created again and gets its products back with their dates, TO loses them', async () => {
    // Only `active` ones: a subscription whose status a grant would reset stays with FROM (and refuses --delete-source).
    const from = students.find((s) => withAccess(s.subscriptions).length >= 2 && withAccess(s.subscriptions).length === s.subscriptions.length
      && s.subscriptions.every((sub) => sub.status === 'active'))!;
    const created = await members(['students', 'create', '--first-name', 'Nova', '--last-name', 'Conta', '--email', `to.${flavor}@example.com`, '-o', 'json']);
    const to = JSON.parse(created.stdout) as { id: string };
    const moved = await members(['students', 'transfer', from.email, to.id, '--delete-source', '--yes']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(await productsOf(from.email)).toBeUndefined();
    const transfer = await runOf('students transfer');

    const undone = await members(['undo', transfer.id, '--yes', '--reason', 'wrong student', '-o', 'json']);
    expect(undone.code, undone.stderr).toBe(0);
    const results = JSON.parse(undone.stdout) as Array<Undone & { product_id: string | null; product_title: string | null }>;
    for (const row of results.filter((r) => r.product_id)) {
      const title = products.find((p) => p.id === row.product_id)!.title;
      expect(row.product_title).toBe(title);
      expect(row.message).toContain(`product "${title}" (${row.product_id})`);
    }
    // Newest first: the delete, the revokes, then the grants.
    expect(results.map((r) => [r.action, r.result])).toEqual([['delete', 'undone'], ...withAccess(from.subscriptions).map(() => ['revoke', 'undone']), ...withAccess(from.subscriptions).map(() => ['grant', 'undone'])]);
    expect(undone.stderr).toMatch(new RegExp(`✓ Undid run ${transfer.id} \\(students transfer\\): ${1 + 2 * withAccess(from.subscriptions).length} undone, 0 skipped, 0 changed since \\(conflict\\), 0 failed; recorded as run \\S+`));
    expect(datesOf((await productsOf(from.email))!)).toEqual(datesOf(withAccess(from.subscriptions)));
    expect(await productsOf(to.id)).toEqual([]);
    const undoRun = (await lines()).find((line) => line.action === 'bulk' && line.command === 'undo')!;
    expect(undoRun).toMatchObject({ undoes: transfer.id, result: 'completed' });
    const again = await members(['undo', transfer.id, '--yes']);
    expect(again.code).toBe(2);
  });

  it('undo RUN_ID of an extension: every expiration back, checking each first (a row changed since is a conflict, exit 7)', async () => {
    // The subscriptions through the CLI: dates as plain days whatever the flavour.
    const subscriptions = JSON.parse((await members(['subscriptions', 'list', '--access', 'active', '--status', 'active', '-o', 'json'])).stdout) as Sub[];
    const product = products.find((p) => subscriptions.filter((s) => s.product_id === p.id && s.expiration_date).length >= 3)!;
    const holders = subscriptions.filter((s) => s.product_id === product.id && s.expiration_date);
    const extended = await members(['subscriptions', 'extend', '--product', product.id, '--days', '20', '--yes']);
    expect(extended.code, extended.stderr).toBe(0);
    const extension = await runOf('subscriptions extend');
    // Someone changes one of them by hand since.
    const touched = holders[0]!;
    expect((await members(['students', 'grant', touched.student!.id, product.id, '--renew', '--expiration', '2031-01-31'])).code).toBe(0);

    const undone = await members(['undo', extension.id, '--yes', '-o', 'json']);
    expect(undone.code).toBe(7);
    const results = JSON.parse(undone.stdout) as Array<Undone & { product_id: string | null; product_title: string | null }>;
    for (const row of results.filter((r) => r.product_id)) {
      const title = products.find((p) => p.id === row.product_id)!.title;
      expect(row.product_title).toBe(title);
      expect(row.message).toContain(`product "${title}" (${row.product_id})`);
    }
    expect(results.filter((r) => r.result === 'conflict')).toHaveLength(1);
    expect(results.find((r) => r.result === 'conflict')?.message).toContain('changed since it was granted');
    expect(results.filter((r) => r.result === 'undone')).toHaveLength(holders.length - 1);
    expect(undone.stderr).toContain(`run ${extension.id} is partly undone: ${holders.length - 1} undone, 0 skipped, 1 changed since (conflict), 0 failed`);
    for (const holder of holders.slice(1)) {
      const now = (await productsOf(holder.student!.id))!.find((s) => s.product_id === product.id);
      expect(now).toMatchObject({ active: 1, accession_date: holder.accession_date, expiration_date: holder.expiration_date });
    }
    expect((await productsOf(touched.student!.id))!.find((s) => s.product_id === product.id)).toMatchObject({ expiration_date: '2031-01-31' });
  });

  it('undo --last --student: the most recent change to that student, by any key, shown and confirmed; again: the one before', async () => {
    const maria = students.findLast((s) => s.subscriptions.length >= 1 && withAccess(s.subscriptions).length === s.subscriptions.length)!;
    const other = students.findLast((s) => s.id !== maria.id && withAccess(s.subscriptions).length >= 1)!;
    const product = products.find((p) => !maria.subscriptions.some((s) => s.product_id === p.id))!;
    expect((await members(['students', 'grant', maria.email, product.id, '--expiration', '2030-06-30'])).code).toBe(0);
    expect((await members(['students', 'revoke', maria.id, withAccess(maria.subscriptions)[0]!.product_id, '--yes'])).code).toBe(0);
    // A later change to someone else is not hers.
    expect((await members(['students', 'revoke', other.email, withAccess(other.subscriptions)[0]!.product_id, '--yes'])).code).toBe(0);

    const refused = await members(['undo', '--last', '--student', maria.email]);
    expect(refused.code).toBe(2);
    const first = await members(['undo', '--last', '--student', maria.email, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const revoked = products.find((p) => p.id === withAccess(maria.subscriptions)[0]!.product_id)!;
    // Products by title with their ids, as the rest of the tool names them (not by UUID alone).
    const named = (p: Listed) => `product "${p.title}" (${p.id})`;
    expect(first.stderr).toContain(`The last change to ${maria.email}: `);
    expect(first.stderr).toContain(`students revoke ${maria.id}, ${named(revoked)} revoked`);
    expect(first.stderr).toContain(`: granted ${named(revoked)} to ${maria.id} again`);
    expect((await productsOf(maria.id))!.map((s) => s.product_id)).toContain(withAccess(maria.subscriptions)[0]!.product_id);
    const second = await members(['undo', '--last', '--student', maria.id, '--yes']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`students grant ${maria.email}, ${named(product)} granted`);
    expect(second.stderr).toContain(`: revoked ${named(product)} from ${maria.email}`);
    expect((await productsOf(maria.id))!.map((s) => s.product_id)).not.toContain(product.id);
    // Other's revoke is still there to undo, the last change of all.
    const last = await members(['undo', '--last', '--yes']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toContain(`students revoke ${other.email}`);
  });

  it('undo --last after a transfer undoes the whole transfer (a run is one entry, as history shows it), not an older change', async () => {
    const movable = students.filter((s) => withAccess(s.subscriptions).length >= 1 && s.subscriptions.every((sub) => sub.status === 'active'));
    const from = movable[Math.floor(movable.length / 2)]!;
    const older = movable[Math.floor(movable.length / 2) + 1]!;
    const granted = products.find((p) => !older.subscriptions.some((sub) => sub.product_id === p.id))!;
    expect((await members(['students', 'grant', older.email, granted.id])).code).toBe(0);
    const created = await members(['students', 'create', '--first-name', 'Outra', '--last-name', 'Conta', '--email', `to.last.${flavor}@example.com`, '-o', 'json']);
    const to = JSON.parse(created.stdout) as { id: string };
    const moved = await members(['students', 'transfer', from.email, to.id, '--yes']);
    expect(moved.code, moved.stderr).toBe(0);
    const transfer = (await lines())[0]!;
    expect(transfer).toMatchObject({ action: 'bulk', command: 'students transfer' });

    const undone = await members(['undo', '--last', '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toContain(`The last change is run ${transfer.id}: `);
    expect(undone.stderr).toContain(`✓ Undid run ${transfer.id} (students transfer): ${2 * withAccess(from.subscriptions).length} undone`);
    expect((await productsOf(to.id))!).toEqual([]);
    expect((await productsOf(from.id))!.map((sub) => sub.product_id).sort()).toEqual(withAccess(from.subscriptions).map((sub) => sub.product_id).sort());
    // The older grant is still there: the next --last is the one to undo it.
    expect((await productsOf(older.id))!.map((sub) => sub.product_id)).toContain(granted.id);
    const next = await members(['undo', '--last', '--yes']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`students grant ${older.email}, product "${granted.title}" (${granted.id}) granted`);
  });
});
