/**
 * The coordinators' questions of issue 30, end to end against the default
 * sandbox and its Laravel flavour (dates sent as instants of Tokyo's
 * midnight, integer flags, simplePaginate-free paginate()): who finished a
 * course, who holds a product and never opened it, whose access ends soon or
 * has ended. Both sandboxes hold the same seeded data and get the same
 * grants, and what each answer must hold is computed from the default one's
 * API.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run, sandboxGet } from './harness.js';
import { DESK_FLAVOR_NAMES, deskSandboxes, type DeskFlavor } from './desk-flavors.js';

interface Sub { id: string; product_id: string; active: number; status: string; expiration_date: string | null; student: { id: string; email: string; full_name: string } }
interface Access { id: string; name: string; email: string; course: { last_access_at: string | null; finished: number } }
interface Student { id: string; email: string; full_name: string; subscriptions: Array<{ product_id: string }> }
interface Listed { id: string; title: string }

const SEED = ['--students', '90', '--seed', '13'];
const sandboxes = deskSandboxes(SEED);
let courses: Listed[];
let products: Listed[];
/** Days relative to today, in UTC, the zone of every run here. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function grant(studentId: string, productId: string, expiration: string): Promise<void> {
  for (const sandbox of Object.values(sandboxes)) {
    const response = await fetch(`${sandbox.url}/api/v1/students/${studentId}/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiToken}`, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'members-e2e' },
      body: JSON.stringify({ product_id: productId, accession_date: day(-30), expiration_date: expiration }),
    });
    expect(response.status).toBe(201);
  }
}

const members = (flavor: DeskFlavor, args: string[]) => run(args, { env: { ...sandboxes[flavor].env, TZ: 'UTC' } });
const records = <T>(stdout: string) => JSON.parse(stdout) as T[];

/** A course and a product whose holders include students who opened the course and students who never did. */
let course: Listed;
let product: Listed;
/** Students with no subscription to `product`: the fresh grants. */
let outsiders: Student[];

beforeAll(async () => {
  courses = await allPages<Listed>(sandboxes.default, '/api/v1/courses');
  products = await allPages<Listed>(sandboxes.default, '/api/v1/products');
  const subscriptions = await allPages<Sub>(sandboxes.default, '/api/v1/subscriptions');
  let best = -1;
  for (const c of courses) {
    const accesses = (await sandboxGet<{ data: Access[] }>(sandboxes.default, `/api/v1/courses/${c.id}/accesses`)).body.data;
    const opened = new Set(accesses.filter((a) => a.course.last_access_at).map((a) => a.id));
    for (const p of products) {
      const holders = subscriptions.filter((s) => s.product_id === p.id && s.active === 1);
      const openedCount = holders.filter((s) => opened.has(s.student.id)).length;
      const score = Math.min(openedCount, holders.length - openedCount);
      if (score > best) [best, course, product] = [score, c, p];
    }
  }
  expect(best).toBeGreaterThan(0);
  const students = await allPages<Student>(sandboxes.default, '/api/v1/students?with=subscriptions');
  outsiders = students.filter((s) => !s.subscriptions.some((sub) => sub.product_id === product.id)).slice(0, 4);
  expect(outsiders).toHaveLength(4);
  // A new holder (never opened: no progress yet), one expiring in 3 days, one in 20 days, one yesterday.
  await grant(outsiders[0]!.id, product.id, day(400));
  await grant(outsiders[1]!.id, product.id, day(3));
  await grant(outsiders[2]!.id, product.id, day(20));
  await grant(outsiders[3]!.id, product.id, day(-1));
});

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  it('courses accesses --finished: the certificate list, names and e-mails; --not-finished: the others', async () => {
    const accesses = (await sandboxGet<{ data: Access[] }>(sandboxes.default, `/api/v1/courses/${course.id}/accesses`)).body.data;
    const finished = await members(flavor, ['courses', 'accesses', course.title, '--finished', '-o', 'json', '--fields', 'id,name,email']);
    expect(finished.code, finished.stderr).toBe(0);
    const expected = accesses.filter((a) => a.course.finished === 1).map(({ id, name, email }) => ({ id, name, email }));
    expect(expected.length).toBeGreaterThan(0);
    expect(records(finished.stdout)).toEqual(expected);
    const others = await members(flavor, ['courses', 'accesses', course.id, '--not-finished', '-o', 'json', '--fields', 'id']);
    expect(records<{ id: string }>(others.stdout).map((a) => a.id)).toEqual(accesses.filter((a) => a.course.finished !== 1).map((a) => a.id));
  });

  it('courses accesses --never --product: the holders with access who never opened the course, the new holder among them', async () => {
    const subscriptions = await allPages<Sub>(sandboxes.default, '/api/v1/subscriptions');
    const accesses = (await sandboxGet<{ data: Access[] }>(sandboxes.default, `/api/v1/courses/${course.id}/accesses`)).body.data;
    const opened = new Set(accesses.filter((a) => a.course.last_access_at || a.course.finished === 1).map((a) => a.id));
    const expected = subscriptions
      .filter((s) => s.product_id === product.id && s.active === 1 && !opened.has(s.student.id))
      .map((s) => ({ id: s.student.id, name: s.student.full_name, email: s.student.email }));
    expect(expected.map((e) => e.id)).toContain(outsiders[0]!.id);
    expect(opened.size).toBeGreaterThan(0);
    const { code, stdout, stderr } = await members(flavor, ['courses', 'accesses', course.title, '--never', '--product', product.title, '-o', 'json', '--fields', 'id,name,email']);
    expect(code, stderr).toBe(0);
    expect(records(stdout)).toEqual(expected);
    // The table names each one with the e-mail to write to.
    const table = await members(flavor, ['courses', 'accesses', course.id, '--never', '--product', product.id]);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME +E-MAIL +STUDENT ID +STATUS +ACCESSION +EXPIRATION$/);
    for (const holder of expected) expect(table.stdout).toContain(holder.email);
  });

  it('--never without --product, or an unknown product, is exit 2 before the list is walked', async () => {
    const missing = await members(flavor, ['courses', 'accesses', course.id, '--never']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--never needs --product PRODUCT');
    const unknown = await members(flavor, ['courses', 'accesses', course.id, '--never', '--product', 'Produto Que Não Existe', '-v']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no product "Produto Que Não Existe"');
    expect(unknown.stderr).not.toContain('/api/v1/subscriptions');
  });

  it('subscriptions list --expiring 7d: access ending from today to a week on; --expired: the ones already past', async () => {
    const expiring = await members(flavor, ['subscriptions', 'list', '--expiring', '7d', '--product', product.id, '-o', 'json']);
    expect(expiring.code, expiring.stderr).toBe(0);
    const soon = records<Sub>(expiring.stdout);
    expect(soon.map((s) => s.student.id)).toContain(outsiders[1]!.id);
    expect(soon.map((s) => s.student.id)).not.toContain(outsiders[2]!.id);
    expect(soon.map((s) => s.student.id)).not.toContain(outsiders[3]!.id);
    for (const s of soon) {
      expect(s.active).toBe(1);
      expect(s.expiration_date! >= day(0) && s.expiration_date! <= day(7)).toBe(true);
    }
    const all = await allPages<Sub>(sandboxes.default, '/api/v1/subscriptions');
    const expected = all.filter((s) => s.expiration_date !== null && s.expiration_date < day(0)).map((s) => s.id);
    const expired = await members(flavor, ['subscriptions', 'list', '--expired', '-o', 'json', '--fields', 'student.id,product_id,expiration_date']);
    expect(expired.code, expired.stderr).toBe(0);
    const past = records<{ student: { id: string }; product_id: string; expiration_date: string }>(expired.stdout);
    expect(past).toHaveLength(expected.length);
    expect(past.some((s) => s.student.id === outsiders[3]!.id && s.product_id === product.id)).toBe(true);
    expect(past.every((s) => s.expiration_date < day(0))).toBe(true);
  });
});
