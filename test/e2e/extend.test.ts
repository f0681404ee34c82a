/**
 * `members subscriptions extend` (issue 30) end to end, against the default
 * sandbox and its Laravel flavour (dates as Tokyo midnights, integer
 * subscription ids): the plan shows each row `old → new`, a status the grant
 * would reset is left out and listed (kept on the server) unless
 * --include-status-changes, a new expiration still past is flagged, the
 * accession date is kept, everything goes to one audit run, and undo puts the
 * old expiration back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run } from './harness.js';
import { holdNext, spawnMembers } from './bulk-helpers.js';
import { DESK_FLAVOR_NAMES, deskSandbox } from './desk-flavors.js';

interface Sub { id: string; product_id: string; active: number; status: string; accession_date: string; expiration_date: string | null; student: { id: string; email: string } }
interface Listed { id: string; title: string }
interface PlanRow { action: string; student_id: string; email: string; status: string; expiration_date: string; new_expiration_date: string; note: string | null }
interface Line { id: string; command: string; action: string; result: string; run_id?: string; student_id?: string; before?: Sub; after?: Sub }

const SEED = ['--students', '80', '--seed', '5'];
/** The default sandbox the seeded records are read from: no test changes it (each changes a sandbox of its own). */
const reference = deskSandbox('default', SEED);
/** The seeded subscriptions (plain dates: the default sandbox's), the same in every flavour's sandbox when a test starts. */
let seeded: Sub[];
let product: Listed;
const today = new Date().toISOString().slice(0, 10);

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  seeded = await allPages<Sub>(reference, '/api/v1/subscriptions');
  const products = await allPages<Listed>(reference, '/api/v1/products');
  // A product with several active holders and at least two whose status a grant would reset.
  product = products.find((p) => {
    const holders = seeded.filter((s) => s.product_id === p.id && s.active === 1 && s.expiration_date);
    return holders.filter((s) => s.status === 'active').length >= 4 && holders.filter((s) => s.status !== 'active').length >= 2;
  })!;
  expect(product).toBeDefined();
});

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const members = (args: string[]) => run(args, { env: { ...sandbox.env, TZ: 'UTC' } });
  const held = async (email: string) => {
    const { stdout } = await members(['students', 'products', email, '-o', 'json']);
    return (JSON.parse(stdout) as Sub[]).find((s) => s.product_id === product.id);
  };
  const lines = async () => JSON.parse((await members(['history', '-o', 'json'])).stdout) as Line[];
  const holders = () => seeded.filter((s) => s.product_id === product.id && s.active === 1 && s.expiration_date);
  const active = () => holders().filter((s) => s.status === 'active');
  const other = () => holders().filter((s) => s.status !== 'active');

  it('--dry-run: every holder with access, old → new; a status the grant would reset left out and listed; a past date flagged; nothing sent', async () => {
    const { code, stdout, stderr } = await members(['subscriptions', 'extend', '--product', product.title, '--days', '30', '--dry-run', '-o', 'json']);
    expect(code, stderr).toBe(0);
    const plan = JSON.parse(stdout) as PlanRow[];
    const expected = [...active(), ...other()].map((s) => ({
      action: s.status === 'active' ? 'extend' : 'left out', student_id: s.student.id, status: s.status,
      expiration_date: s.expiration_date, new_expiration_date: addDays(s.expiration_date!, 30),
    }));
    expect(plan.map(({ action, student_id, status, expiration_date, new_expiration_date }) => ({ action, student_id, status, expiration_date, new_expiration_date })))
      .toEqual(expect.arrayContaining(expected));
    expect(plan).toHaveLength(expected.length);
    for (const row of plan) {
      if (row.action === 'left out') expect(row.note).toContain(`status ${row.status} becomes active (the server's default for a grant)`);
      if (row.new_expiration_date < today) expect(row.note).toContain(`${row.new_expiration_date} is still in the past: no access from it`);
    }
    expect(stderr).toMatch(new RegExp(`Extend ${active().length} subscriptions? of "${product.title}" \\(${product.id}\\) by 30 days; .*${other().length} left out: the grant would reset`));
    expect(await lines()).toEqual([]);
  });

  it('--student --until: renewed with the same accession and the new expiration, as one audit run; undo puts the old expiration back', async () => {
    const target = active()[0]!;
    const until = addDays(today, 90);
    const { code, stderr } = await members(['subscriptions', 'extend', '--product', product.id, '--student', target.student.email, '--until', until, '--yes', '--reason', 'outage 812']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('1 subscription: 1 extended, 0 failed');
    expect(await held(target.student.email)).toMatchObject({ active: 1, status: 'active', accession_date: target.accession_date, expiration_date: until });
    // The run is one entry; its change is under --run.
    const [runRecord, ...others] = await lines();
    expect(others).toEqual([]);
    const [row] = JSON.parse((await members(['history', '--run', runRecord!.id, '-o', 'json'])).stdout) as Line[];
    expect(runRecord).toMatchObject({ command: 'subscriptions extend', action: 'bulk', result: 'completed' });
    expect(row).toMatchObject({
      command: 'subscriptions extend', action: 'renew', result: 'expiration-changed', run_id: runRecord!.id, student_id: target.student.id,
      before: { expiration_date: target.expiration_date, status: 'active' }, after: { expiration_date: until, accession_date: target.accession_date },
    });
    const undone = await members(['undo', row!.id, '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(await held(target.student.email)).toMatchObject({ active: 1, accession_date: target.accession_date, expiration_date: target.expiration_date });
  });

  it('a status the grant would reset: --student refuses (exit 5, nothing sent); --include-status-changes extends it and says so', async () => {
    const target = other()[0]!;
    const refused = await members(['subscriptions', 'extend', '--product', product.id, '--student', target.student.email, '--days', '7', '--yes']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`status ${target.status} becomes active (the server's default for a grant)`);
    expect(refused.stderr).toContain('pass --include-status-changes');
    expect(await held(target.student.email)).toMatchObject({ status: target.status, expiration_date: target.expiration_date });
    const asked = await members(['subscriptions', 'extend', '--product', product.id, '--student', target.student.email, '--days', '7', '--include-status-changes', '--yes', '-o', 'json']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(JSON.parse(asked.stdout)).toEqual([expect.objectContaining({ result: 'expiration-changed', message: expect.stringContaining(`status ${target.status} becomes active`) })]);
    expect(await held(target.student.email)).toMatchObject({ status: 'active', accession_date: target.accession_date, expiration_date: addDays(target.expiration_date!, 7) });
  });

  it('the whole product: every active holder extended, the others kept as they were; off a terminal it needs --yes', async () => {
    const refused = await members(['subscriptions', 'extend', '--product', product.id, '--days', '15']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const before = new Map(await Promise.all(holders().map(async (s) => [s.student.email, await held(s.student.email)] as const)));
    const { code, stdout, stderr } = await members(['subscriptions', 'extend', '--product', product.id, '--days', '15', '--yes', '-o', 'json']);
    expect(code, stderr).toBe(0);
    const results = JSON.parse(stdout) as Array<{ student: string; result: string }>;
    // Only the holders whose status is active are extended: the seeded others are left out.
    const extended = [...before].filter(([, s]) => s?.status === 'active');
    expect(results).toHaveLength(extended.length);
    expect(results.every((r) => r.result === 'expiration-changed')).toBe(true);
    for (const [email, was] of before) {
      const now = await held(email);
      if (was?.status === 'active') expect(now).toMatchObject({ status: 'active', accession_date: was.accession_date, expiration_date: addDays(was.expiration_date!, 15) });
      else expect(now).toEqual(was);
    }
    expect(stderr).toMatch(new RegExp(`left out: .*: status (${other().map((s) => s.status).join('|')}) becomes active`));
  });
  it('a subscription the desk renewed after the extension read the holders is stale: not extended, the renewal stands, exit 7', async () => {
    // The extension's read of the student list is answered once the server has read it, then held until the desk is done.
    const read = await holdNext(sandbox, { method: 'GET', route: '/api/v1/students', afterChange: true });
    const extension = spawnMembers(['subscriptions', 'extend', '--product', product.id, '--days', '30', '--yes', '-o', 'json'], { ...sandbox.env, TZ: 'UTC' });
    await read.held();
    const desk = active()[0]!;
    const renewal = await members(['students', 'grant', desk.student.email, product.id, '--renew', '--expiration', '2031-12-31', '--yes']);
    expect(renewal.code, renewal.stderr).toBe(0);
    await read.release();
    const { code } = await extension.exited;
    const { stdout, stderr } = extension.output();

    expect(code, stderr).toBe(7);
    const results = JSON.parse(stdout) as Array<{ student: string; result: string; message: string }>;
    expect(results.filter((row) => row.result === 'stale').map((row) => row.student)).toEqual([desk.student.email]);
    expect(results.filter((row) => row.result !== 'stale').every((row) => row.result === 'expiration-changed')).toBe(true);
    expect(stderr).toContain(`${active().length - 1} extended, 1 changed meanwhile, 0 failed`);
    expect(await held(desk.student.email)).toMatchObject({ active: 1, expiration_date: expect.stringMatching(/^2031-12-3/) });
  });
});
