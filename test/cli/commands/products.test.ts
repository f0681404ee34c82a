import { describe, expect, it } from 'vitest';
import { BASE, TOKEN, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

const product = (id: string, title: string, active: number, inactive: number) => ({
  id, title, description: `${title} course`, period: 30, lifetime: false, status: 'active', type: 'recurring',
  created_at: '2024-01-02 10:00:00', updated_at: '2024-01-03 10:00:00', subscribers: { active, inactive },
});

const P1 = product('p1', 'Yoga', 12, 3);
const P2 = product('p2', 'Pilates', 0, 1);
const P3 = product('p3', 'Tai chi', 7, 0);

function page(data: unknown[], current: number, last: number, total: number, perPage: number) {
  const link = (n: number) => `${BASE}/api/v1/products?page=${n}`;
  return {
    data,
    links: { first: link(1), last: link(last), prev: current > 1 ? link(current - 1) : null, next: current < last ? link(current + 1) : null },
    meta: { current_page: current, last_page: last, per_page: perPage, total },
  };
}

const intercept = (query: Record<string, string>) =>
  t.agent.get(BASE).intercept({ path: '/api/v1/products', method: 'GET', query, headers: { authorization: `Bearer ${TOKEN}` } });

describe('products list', () => {
  it('prints one page as a table with the subscriber counts, and a footer on stderr', async () => {
    intercept({ page: '1' }).reply(200, page([P1, P2], 1, 144, 288, 2));
    const { code, stdout, stderr } = await t.cli(['products', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'ID  TITLE    TYPE       STATUS  LIFETIME  SUBSCRIBERS (ACTIVE / INACTIVE)',
      'p1  Yoga     recurring  active  no        12 / 3',
      'p2  Pilates  recurring  active  no        0 / 1',
      '',
    ].join('\n'));
    expect(stderr).toBe('Page 1 of 144 (288 products). Use --page N or --all.\n');
  });

  it('sends --page and --per-page, and formats large counts in the footer', async () => {
    intercept({ page: '3', per_page: '2' }).reply(200, page([P3], 3, 2156, 4312, 2));
    const { code, stderr } = await t.cli(['products', 'list', '--page', '3', '--per-page', '2']);
    expect(code).toBe(0);
    expect(stderr).toBe('Page 3 of 2,156 (4,312 products). Use --page N or --all.\n');
  });

  it('prints no footer with --quiet, in json, or when there is one page', async () => {
    intercept({ page: '1' }).reply(200, page([P1], 1, 2, 2, 1));
    expect((await t.cli(['products', 'list', '--quiet'])).stderr).toBe('');
    intercept({ page: '1' }).reply(200, page([P1], 1, 2, 2, 1));
    const json = await t.cli(['products', 'list', '-o', 'json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual([P1]);
    intercept({ page: '1' }).reply(200, page([P1], 1, 1, 1, 15));
    expect((await t.cli(['products', 'list'])).stderr).toBe('');
  });

  it('--all asks for 100 per page and prints the union of the pages, in order', async () => {
    intercept({ page: '1', per_page: '100' }).reply(200, page([P1], 1, 3, 3, 1));
    intercept({ page: '2', per_page: '100' }).reply(200, page([P2], 2, 3, 3, 1));
    intercept({ page: '3', per_page: '100' }).reply(200, page([P3], 3, 3, 3, 1));
    const { code, stdout, stderr } = await t.cli(['products', 'list', '--all', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout).toBe([P1, P2, P3].map((p) => `${JSON.stringify(p)}\n`).join(''));
    expect(stderr).toBe('');
  });

  it('says so on stderr when there are no products', async () => {
    intercept({ page: '1' }).reply(200, page([], 1, 1, 0, 15));
    const { code, stdout, stderr } = await t.cli(['products', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('No products found\n');
  });

  it.each([
    [['--page', '0'], 'invalid --page "0": expected an integer of at least 1'],
    [['--per-page', 'ten'], 'invalid --per-page "ten": expected an integer of at least 1'],
  ])('rejects %j before any request (exit 2)', async (flags, message) => {
    const { code, stdout, stderr } = await t.cli(['products', 'list', ...flags]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: ${message}\n`);
  });
});

describe('products get', () => {
  it('prints one product as a key/value table', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/products/p1', method: 'GET' }).reply(200, { data: P1 });
    const { code, stdout } = await t.cli(['products', 'get', 'p1']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'ID                               p1',
      'TITLE                            Yoga',
      'DESCRIPTION                      Yoga course',
      'TYPE                             recurring',
      'STATUS                           active',
      'LIFETIME                         no',
      'SUBSCRIBERS (ACTIVE / INACTIVE)  12 / 3',
      'PERIOD                           30',
      'TRIAL',
      'SALES PAGE',
      'SUPPORT E-MAIL',
      'CREATED                          2024-01-02 10:00',
      'UPDATED                          2024-01-03 10:00',
      '',
    ].join('\n'));
  });

  it('prints the record as sent with --json', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/products/p1', method: 'GET' }).reply(200, { data: P1 });
    const { stdout } = await t.cli(['products', 'get', 'p1', '--json']);
    expect(stdout).toBe(`${JSON.stringify(P1)}\n`);
  });

  it('encodes the id as one path segment', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/products/a%2F..%2Fstudents', method: 'GET' }).reply(200, { data: P1 });
    expect((await t.cli(['products', 'get', 'a/../students'])).code).toBe(0);
  });

  it('exits 4 for an unknown product', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/products/nope', method: 'GET' })
      .reply(404, { message: 'Product not found.', exception: 'ProductNotFoundException' });
    t.agent.get(BASE).intercept({ path: (path: string) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, { data: [{ id: 'p1', title: 'Yoga' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 } });
    const { code, stdout, stderr } = await t.cli(['products', 'get', 'nope']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: product nope not found; no product has that title either (GET /api/v1/products/nope). See `members products list --all`.\n');
  });
});
