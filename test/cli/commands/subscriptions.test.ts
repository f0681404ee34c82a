import { describe, expect, it } from 'vitest';
import { BASE, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();

const students = {
  maria: { id: 's-maria', first_name: 'Maria', last_name: 'Souza', full_name: 'Maria Souza', email: 'maria@example.com' },
  joao: { id: 's-joao', first_name: 'João', last_name: null, full_name: '', email: 'joao@example.com' },
};
const products = {
  yoga: { id: 'p-yoga', title: 'Yoga' },
  pilates: { id: 'p-pilates', title: 'Pilates' },
};

function subscription(id: string, student: keyof typeof students, product: keyof typeof products, status: string, active: 0 | 1) {
  return {
    id, active, status, product_id: products[product].id, payment_last_date: '2024-02-01', accession_date: '2024-01-10',
    expiration_date: '2025-01-10', cancel_date: status === 'canceled' ? '2024-03-01' : null,
    product: products[product], student: students[student], created_at: '2024-01-10 09:00:00', updated_at: '2024-03-01 09:00:00',
  };
}

const S = [
  subscription('1', 'maria', 'yoga', 'active', 1),
  subscription('2', 'maria', 'pilates', 'canceled', 1), // kept access after cancelling
  subscription('3', 'joao', 'yoga', 'refunded', 0),
  subscription('4', 'joao', 'pilates', 'refunded', 1), // kept access after a refund
  subscription('5', 'maria', 'yoga', 'chargeback', 0),
  subscription('6', 'joao', 'yoga', 'canceled', 1), // kept access after cancelling
];

/** Three pages of two. */
function interceptPages(perPage: string) {
  for (const current of [1, 2, 3]) {
    t.agent.get(BASE).intercept({ path: '/api/v1/subscriptions', method: 'GET', query: { page: String(current), per_page: perPage } }).reply(200, {
      data: S.slice((current - 1) * 2, current * 2),
      links: { next: current < 3 ? `${BASE}/api/v1/subscriptions?page=${current + 1}&per_page=${perPage}` : null },
      meta: { current_page: current, last_page: 3, per_page: 2, total: 6 },
    });
  }
}

const ids = (ndjson: string) => ndjson.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);

describe('subscriptions list', () => {
  it('prints one page as a table with the footer', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/subscriptions', method: 'GET', query: { page: '1' } }).reply(200, {
      data: S.slice(0, 4), links: {}, meta: { current_page: 1, last_page: 2, per_page: 4, total: 6 },
    });
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      // João has no full_name: his first name, as every table names a person (the e-mail only when there is no name at all).
      'STUDENT      PRODUCT  STATUS    ACCESS  ACCESSION   EXPIRATION',
      'Maria Souza  Yoga     active    yes     2024-01-10  2025-01-10',
      'Maria Souza  Pilates  canceled  yes     2024-01-10  2025-01-10',
      'João         Yoga     refunded  no      2024-01-10  2025-01-10',
      'João         Pilates  refunded  yes     2024-01-10  2025-01-10',
      '',
    ].join('\n'));
    expect(stderr).toBe('Page 1 of 2 (6 subscriptions). Use --page N or --all.\n');
  });

  it('--access active --status canceled,refunded: who kept access after cancelling, over every page', async () => {
    interceptPages('100');
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list', '--access', 'active', '--status', 'canceled,refunded', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(ids(stdout)).toEqual(['2', '4', '6']);
    expect(stderr).toBe('');
  });

  it('--access inactive and --product filter too, keeping --per-page', async () => {
    interceptPages('2');
    t.agent.get(BASE).intercept({ path: (path: string) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, { data: [{ id: 'p-yoga', title: 'Yoga' }, { id: 'p-pilates', title: 'Pilates' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 2 } });
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list', '--access', 'inactive', '--product', 'p-yoga', '--per-page', '2', '-o', 'ndjson']);
    expect(code, stderr).toBe(0);
    expect(ids(stdout)).toEqual(['3', '5']);
  });

  it('--student resolves an e-mail to the id first', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/students/email/joao%40example.com', method: 'GET' })
      .reply(200, { data: { ...students.joao, subscriptions: [] } });
    interceptPages('100');
    const { code, stdout } = await t.cli(['subscriptions', 'list', '--student', 'joao@example.com', '--status', 'REFUNDED', '-o', 'json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual(['3', '4']);
  });

  it('--student takes doc: and an id as well', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/students/document/123.456', method: 'GET' })
      .reply(200, { data: { ...students.maria, subscriptions: [] } });
    interceptPages('100');
    expect(ids((await t.cli(['subscriptions', 'list', '--student', 'doc:123.456', '-o', 'ndjson'])).stdout)).toEqual(['1', '2', '5']);
    interceptPages('100');
    expect(ids((await t.cli(['subscriptions', 'list', '--student', 's-joao', '-o', 'ndjson'])).stdout)).toEqual(['3', '4', '6']);
  });

  it('an unknown --student is exit 4, and no list is fetched', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/students/email/nobody%40example.com', method: 'GET' }).reply(404, { message: 'Student not found.' });
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list', '--student', 'nobody@example.com', '-o', 'csv']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: student with e-mail nobody@example.com not found (GET /api/v1/students/email/nobody%40example.com)\n');
  });

  it('a filter that matches nothing prints the csv header alone', async () => {
    interceptPages('100');
    const { code, stdout } = await t.cli(['subscriptions', 'list', '--status', 'inactive', '-o', 'csv', '--fields', 'id,status']);
    expect(code).toBe(0);
    expect(stdout).toBe('id,status\n');
  });

  it.each([
    [['--status', 'bogus'], 'invalid --status value "bogus": use a comma-separated list of active, inactive, refunded, chargeback, canceled'],
    [['--status', 'active,cancelled'], 'invalid --status value "cancelled": use a comma-separated list of active, inactive, refunded, chargeback, canceled'],
    [['--status', ','], '--status needs at least one of active, inactive, refunded, chargeback, canceled (comma-separated)'],
    [['--status', 'active', '--page', '2'], '--page cannot be combined with --status, --access, --product, --student, --expiring or --expired: the filters apply to every page'],
    [['--student', 'doc:'], 'empty student document in "doc:"; give an id, an e-mail, a phone, doc:DOCUMENT or ref:REFERENCE'],
  ])('rejects %j before any request (exit 2)', async (flags, message) => {
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list', ...flags]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: ${message}\n`);
  });

  it('rejects an --access that is not active or inactive (commander choices, exit 2)', async () => {
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'list', '--access', 'yes']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.startsWith("error: option '--access <state>' argument 'yes' is invalid. Allowed choices are active, inactive.")).toBe(true);
  });
});

describe('subscriptions get', () => {
  it('prints the subscription with its student and product', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/subscriptions/2', method: 'GET' }).reply(200, { data: S[1] });
    const { code, stdout } = await t.cli(['subscriptions', 'get', '2']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'ID            2',
      'STUDENT       Maria Souza',
      'E-MAIL        maria@example.com',
      'STUDENT ID    s-maria',
      'PRODUCT       Pilates',
      'PRODUCT ID    p-pilates',
      'STATUS        canceled',
      'ACCESS        yes',
      'ACCESSION     2024-01-10',
      'EXPIRATION    2025-01-10',
      'CANCELLED     2024-03-01',
      'LAST PAYMENT  2024-02-01',
      'CREATED       2024-01-10 09:00',
      '',
    ].join('\n'));
  });

  it('exits 4 for an unknown subscription, with a JSON error line under -o json', async () => {
    t.agent.get(BASE).intercept({ path: '/api/v1/subscriptions/999', method: 'GET' }).reply(404, { message: 'Subscription not found.' });
    const { code, stdout, stderr } = await t.cli(['subscriptions', 'get', '999', '-o', 'json']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    const message = 'subscription 999 not found (GET /api/v1/subscriptions/999)';
    expect(stderr).toBe(`error: ${message}\n${JSON.stringify({ error: { exit_code: 4, status: 404, message } })}\n`);
  });
});
