/**
 * `members subscriptions …` end to end: the built binary against `members sandbox`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

interface Subscription {
  id: string; active: number; status: string; product_id: string;
  product: { id: string; title: string }; student: { id: string; full_name: string; email: string };
}
interface Page<T> { data: T[]; meta: { last_page: number; total: number } }

/** Every subscription, read straight from the sandbox over all its pages. */
let subscriptions: Subscription[];

const members = (args: string[]) => run(args, { env: sandbox.env });
const ndjson = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

const sandbox = useSandboxProcess(['--students', '120', '--seed', '3']);

beforeAll(async () => {
  subscriptions = [];
  for (let page = 1, last = 1; page <= last; page++) {
    const { body } = await sandboxGet<Page<Subscription>>(sandbox, `/api/v1/subscriptions?per_page=25&page=${page}`);
    subscriptions.push(...body.data);
    last = body.meta.last_page;
  }
});

describe('subscriptions list', () => {
  it('--access active --status canceled,refunded finds exactly who kept access after cancelling', async () => {
    const expected = subscriptions.filter((s) => s.active === 1 && ['canceled', 'refunded'].includes(s.status)).map((s) => s.id);
    expect(expected.length).toBeGreaterThan(1);
    const { code, stdout, stderr } = await members(['subscriptions', 'list', '--access', 'active', '--status', 'canceled,refunded', '-o', 'json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect((JSON.parse(stdout) as Subscription[]).map((s) => s.id)).toEqual(expected);
  });

  it('--student by e-mail and --product filter over every page', async () => {
    const sample = subscriptions[subscriptions.length - 1] as Subscription;
    const mine = subscriptions.filter((s) => s.student.id === sample.student.id).map((s) => s.id);
    const byStudent = await members(['subscriptions', 'list', '--student', sample.student.email, '-o', 'ndjson']);
    expect(byStudent.code).toBe(0);
    expect(ndjson<Subscription>(byStudent.stdout).map((s) => s.id)).toEqual(mine);

    const ofProduct = subscriptions.filter((s) => s.product_id === sample.product_id && s.active === 0).map((s) => s.id);
    const byProduct = await members(['subscriptions', 'list', '--product', sample.product_id, '--access', 'inactive', '-o', 'csv', '--fields', 'id']);
    expect(byProduct.code).toBe(0);
    expect(byProduct.stdout).toBe(['id', ...ofProduct].join('\n') + '\n');
  });

  it('--all equals the union of the pages', async () => {
    const all = await members(['subscriptions', 'list', '--all', '-o', 'ndjson']);
    expect(all.code).toBe(0);
    expect(ndjson<Subscription>(all.stdout)).toEqual(subscriptions);
    const pages: Subscription[] = [];
    for (let page = 1; page <= Math.ceil(subscriptions.length / 100); page++) {
      const one = await members(['subscriptions', 'list', '--page', String(page), '--per-page', '100', '-o', 'json']);
      pages.push(...(JSON.parse(one.stdout) as Subscription[]));
    }
    expect(pages).toEqual(subscriptions);
  });

  it('one page in a table, with the footer', async () => {
    const { code, stdout, stderr } = await members(['subscriptions', 'list']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^STUDENT +PRODUCT +STATUS +ACCESS +ACCESSION +EXPIRATION$/);
    expect(stdout.trimEnd().split('\n')).toHaveLength(16);
    expect(stderr).toBe(`Page 1 of ${Math.ceil(subscriptions.length / 15)} (${subscriptions.length} subscriptions). Use --page N or --all.\n`);
  });

  it('--status bogus is exit 2', async () => {
    const { code, stderr } = await members(['subscriptions', 'list', '--status', 'bogus']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --status value "bogus": use a comma-separated list of active, inactive, refunded, chargeback, canceled\n');
  });
});

describe('subscriptions get', () => {
  it('prints one subscription as sent with --json, and as a table', async () => {
    const subscription = subscriptions[0] as Subscription;
    const json = await members(['subscriptions', 'get', subscription.id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(subscription);
    const table = await members(['subscriptions', 'get', subscription.id]);
    expect(table.stdout).toContain(`PRODUCT       ${subscription.product.title}\n`);
  });

  it('exits 4 for an unknown subscription', async () => {
    const { code, stdout, stderr } = await members(['subscriptions', 'get', 'nope']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: subscription nope not found (GET /api/v1/subscriptions/nope)\n');
  });
});
