/**
 * `members students transfer FROM TO` (issue 30) end to end, against the
 * default sandbox and its Laravel flavour: the plan first, every product
 * FROM holds with access granted to TO with the same accession and
 * expiration dates and then revoked from FROM, what cannot move said and left
 * with FROM, --delete-source, one audit run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allPages, run, tempDir } from './harness.js';
import { holdNext, spawnMembers } from './bulk-helpers.js';
import { DESK_FLAVOR_NAMES, datesOf, deskSandbox, withAccess } from './desk-flavors.js';

interface Sub { id: string | number; product_id: string; active: number; status: string; accession_date: string; expiration_date: string | null }
interface Student { id: string; email: string; subscriptions: Sub[] }
interface Line { id: string; command: string; action: string; result: string; run_id?: string; student_id?: string; product_id?: string }

const SEED = ['--students', '60', '--seed', '17'];
/** The default sandbox the seeded records are read from: no test changes it (each changes a sandbox of its own). */
const reference = deskSandbox('default', SEED);
/** The seeded students, the same in every flavour's sandbox when a test starts. */
let students: Student[];

beforeAll(async () => {
  students = await allPages<Student>(reference, '/api/v1/students?with=subscriptions');
});

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const members = (args: string[]) => run(args, { env: { ...sandbox.env, TZ: 'UTC' } });
  const products = async (email: string) => JSON.parse((await members(['students', 'products', email, '-o', 'json'])).stdout) as Sub[];
  const lines = async () => JSON.parse((await members(['history', '-o', 'json'])).stdout) as Line[];
  /** Every subscription with access is `active`: none whose status a grant would reset. */
  const plain = (s: Student) => withAccess(s.subscriptions).every((sub) => sub.status === 'active');
  /** A student with two products or more with access, and one more without. */
  let from: Student;
  const newStudent = async (email: string) => {
    const created = await members(['students', 'create', '--first-name', 'Nova', '--last-name', 'Conta', '--email', email, '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    return JSON.parse(created.stdout) as { id: string };
  };

  beforeAll(() => {
    from = students.find((s) => withAccess(s.subscriptions).length >= 2 && plain(s) && s.subscriptions.some((sub) => sub.active === 0))!;
    expect(from).toBeDefined();
  });

  it('--dry-run: the plan, with what moves and what stays; the warning about progress and score; nothing sent', async () => {
    await newStudent(`dry.${flavor}@example.com`);
    const { code, stdout, stderr } = await members(['students', 'transfer', from.email, `dry.${flavor}@example.com`, '--dry-run', '-o', 'json']);
    expect(code, stderr).toBe(0);
    const plan = JSON.parse(stdout) as Array<{ action: string; product_id: string; accession_date: string | null; expiration_date: string | null; note: string | null }>;
    expect(plan.filter((row) => row.action === 'move').map(({ product_id, accession_date, expiration_date }) => ({ product_id, accession_date, expiration_date })))
      .toEqual(expect.arrayContaining(datesOf(withAccess(from.subscriptions))));
    expect(plan.filter((row) => row.action === 'stays').map((row) => row.product_id)).toEqual(from.subscriptions.filter((s) => s.active === 0).map((s) => s.product_id));
    expect(plan.find((row) => row.action === 'stays')?.note).toContain('the API cannot grant a subscription without access');
    expect(stderr).toContain('progress and score stay with');
    expect(await products(`dry.${flavor}@example.com`)).toEqual([]);
    expect((await lines()).filter((line) => line.command === 'students transfer')).toEqual([]);
  });

  it('moves every product with access with its dates, then revokes it from FROM, as one audit run', async () => {
    const to = await newStudent(`moved.${flavor}@example.com`);
    const { code, stderr } = await members(['students', 'transfer', from.email, `moved.${flavor}@example.com`, '--yes', '--reason', 'ticket 4411']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/✓ Transferred \d+ products from .* to Nova Conta <moved\..*@example\.com>; recorded as run (\S+)/);
    const moved = await products(`moved.${flavor}@example.com`);
    expect(datesOf(moved)).toEqual(datesOf(withAccess(from.subscriptions)));
    expect(moved.every((sub) => sub.active === 1 && sub.status === 'active')).toBe(true);
    const left = await products(from.email);
    expect(left.map((sub) => sub.product_id)).toEqual(from.subscriptions.filter((s) => s.active === 0).map((s) => s.product_id));
    const transfer = (await lines()).filter((line) => line.command === 'students transfer');
    const runRecord = transfer.find((line) => line.action === 'bulk')!;
    expect(runRecord).toMatchObject({ result: 'completed' });
    // The run is one entry; its changes are under --run.
    expect(transfer.filter((line) => line.run_id === runRecord.id)).toEqual([]);
    const changes = JSON.parse((await members(['history', '--run', runRecord.id, '-o', 'json'])).stdout) as Line[];
    expect(changes.map((line) => `${line.action} ${line.student_id}`).sort())
      .toEqual([...withAccess(from.subscriptions).map(() => `grant ${to.id}`), ...withAccess(from.subscriptions).map(() => `revoke ${from.id}`)].sort());
  });

  it('--delete-source: refused while FROM holds a product TO has too (exit 5, nothing sent); else FROM is deleted last', async () => {
    const other = students.find((s) => s.id !== from.id && withAccess(s.subscriptions).length >= 1 && plain(s))!;
    const holder = await newStudent(`holder.${flavor}@example.com`);
    const product = withAccess(other.subscriptions)[0]!.product_id;
    expect((await members(['students', 'grant', holder.id, product])).code).toBe(0);
    const refused = await members(['students', 'transfer', other.email, holder.id, '--delete-source', '--yes']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('--delete-source would delete FROM with');
    expect(datesOf(await products(other.email))).toEqual(datesOf(other.subscriptions));
    const fresh = await newStudent(`fresh.${flavor}@example.com`);
    const done = await members(['students', 'transfer', other.email, fresh.id, '--delete-source', '--yes', '-o', 'json']);
    expect(done.code, done.stderr).toBe(0);
    const steps = JSON.parse(done.stdout) as Array<{ step: string; result: string }>;
    expect(steps.at(-1)).toMatchObject({ step: 'delete', result: 'deleted' });
    expect((await members(['students', 'get', other.id])).code).toBe(4);
    expect(datesOf(await products(`fresh.${flavor}@example.com`))).toEqual(datesOf(withAccess(other.subscriptions)));
  });

  it('a canceled subscription with access is not reset to active: it stays with FROM, listed, unless --include-status-changes', async () => {
    const keeper = students.findLast((s) => s.id !== from.id && s.subscriptions.some((sub) => sub.active === 1 && sub.status === 'canceled')
      && withAccess(s.subscriptions).some((sub) => sub.status === 'active'))!;
    const canceled = keeper.subscriptions.find((sub) => sub.active === 1 && sub.status === 'canceled')!;
    const to = `kept.${flavor}@example.com`;
    await newStudent(to);
    const dry = await members(['students', 'transfer', keeper.email, to, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as Array<{ action: string; product_id: string; status: string | null; note: string | null }>;
    expect(plan.find((row) => row.product_id === canceled.product_id)).toMatchObject({ action: 'stays', status: 'canceled' });
    expect(plan.find((row) => row.product_id === canceled.product_id)?.note).toContain('pass --include-status-changes to move it');
    const resets = withAccess(keeper.subscriptions).filter((sub) => sub.status !== 'active').length;
    expect(dry.stderr).toMatch(new RegExp(`${resets} subscriptions? with access stays? with FROM: the grant would reset (its|their) status \\(.*canceled.* → active; --include-status-changes to move`));

    const deleting = await members(['students', 'transfer', keeper.email, to, '--delete-source', '--yes']);
    expect(deleting.code).toBe(5);
    expect(deleting.stderr).toContain('pass --include-status-changes to move');

    const moved = await members(['students', 'transfer', keeper.email, to, '--yes']);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await products(to)).map((sub) => sub.product_id)).not.toContain(canceled.product_id);
    expect((await products(keeper.email)).find((sub) => sub.product_id === canceled.product_id)).toMatchObject({ active: 1, status: 'canceled' });

    const all = await members(['students', 'transfer', keeper.email, to, '--include-status-changes', '--yes']);
    expect(all.code, all.stderr).toBe(0);
    expect((await products(to)).find((sub) => sub.product_id === canceled.product_id)).toMatchObject({ active: 1, status: 'active', expiration_date: canceled.expiration_date });
  });
  it('a product of FROM renewed by the desk while the transfer runs is stale: not revoked, both keep it, FROM not deleted, exit 7', async () => {
    const to = `raced.${flavor}@example.com`;
    await newStudent(to);
    // The transfer's first grant to TO waits, unsent, until the desk is done.
    const grant = await holdNext(sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    const transfer = spawnMembers(['students', 'transfer', from.email, to, '--delete-source', '--yes', '-o', 'json'], { ...sandbox.env, TZ: 'UTC' });
    await grant.held();
    const renewed = withAccess(from.subscriptions)[0]!;
    const desk = await members(['students', 'grant', from.email, renewed.product_id, '--renew', '--expiration', '2031-12-31', '--yes']);
    expect(desk.code, desk.stderr).toBe(0);
    await grant.release();
    const { code } = await transfer.exited;
    const { stdout, stderr } = transfer.output();

    expect(code, stderr).toBe(7);
    const steps = JSON.parse(stdout) as Array<{ step: string; product_id: string | null; result: string; message: string }>;
    expect(steps.filter((step) => step.step === 'revoke').map((step) => `${step.product_id} ${step.result}`).sort())
      .toEqual(withAccess(from.subscriptions).map((sub) => `${sub.product_id} ${sub === renewed ? 'stale' : 'revoked'}`).sort());
    expect(steps.find((step) => step.result === 'stale')?.message).toContain('changed since the transfer read it (now access on, status active, expiration 2031-12-31); not revoked');
    expect(steps.at(-1)).toMatchObject({ step: 'delete', result: 'failed' });
    expect((await products(from.email)).find((sub) => sub.product_id === renewed.product_id)).toMatchObject({ active: 1, expiration_date: '2031-12-31' });
    expect((await products(to)).map((sub) => sub.product_id)).toContain(renewed.product_id);
  });

  it('holds a lease on the products it moves: a bulk run on one of them meanwhile exits 10 and sends nothing', async () => {
    const to = `leased.${flavor}@example.com`;
    await newStudent(to);
    const product = withAccess(from.subscriptions)[0]!.product_id;
    const other = students.find((s) => s.id !== from.id && !s.subscriptions.some((sub) => sub.product_id === product))!;
    const file = join(tempDir('members-transfer-'), 'grant.csv');
    writeFileSync(file, `student,product_id\n${other.email},${product}\n`);
    // The transfer's first grant waits, unsent, while the bulk run tries: the transfer certainly holds its lease then.
    const grant = await holdNext(sandbox, { method: 'POST', route: '/api/v1/students/{id}/products' });
    const transfer = spawnMembers(['students', 'transfer', from.email, to, '--yes', '-o', 'json'], { ...sandbox.env, TZ: 'UTC' });
    await grant.held();
    const bulk = await members(['students', 'grant', '--file', file, '--yes']);
    await grant.release();
    expect(bulk.code, bulk.stderr).toBe(10);
    expect(bulk.stderr).toMatch(/another run holds the lease on products? .*\(members students transfer, pid \d+\).*nothing was sent/);
    expect((await products(other.email)).some((sub) => sub.product_id === product)).toBe(false);
    const { code } = await transfer.exited;
    expect(code, transfer.output().stderr).toBe(0);
    // Released at the end: the same bulk run now goes through.
    expect((await members(['students', 'grant', '--file', file, '--yes'])).code).toBe(0);
  });
});
