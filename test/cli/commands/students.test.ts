import { describe, expect, it, vi } from 'vitest';
import { Session } from '../../../src/session/session.js';
import { UsageError } from '../../../src/lib/errors.js';
import { grantDates } from '../../../src/domain/changes.js';
import { resolveStudent, StudentCache } from '../../../src/domain/resolve.js';
import { HttpApi } from '../../../src/api/client.js';
import { HttpClient } from '../../../src/api/transport/http.js';

import { AUTH, BASE, TOKEN, mockCli } from '../../helpers/mock-cli.js';

const t = mockCli();
const ANNOUNCE = '→ default (members.example.com)\n';

const get = (path: string) => t.pool().intercept({ path, method: 'GET', headers: AUTH });
/** The student list, as a phone key reads it. */
const list = () => t.pool().intercept({ path: (path: string) => path.startsWith('/api/v1/students?'), method: 'GET', headers: AUTH });
const onePage = (students: object[]) => ({ data: students, meta: { current_page: 1, last_page: 1, per_page: 100, total: students.length }, links: { next: null } });

const MARIA = {
  id: 's1', first_name: 'Maria', last_name: 'Silva', full_name: 'Maria Silva', email: 'maria+vip@example.com',
  phone: '+55 11 91234-5678', birth: '1990-04-12', document: '123.456.789-09', reference_id: 'crm-1',
  created_at: '2024-03-05T14:22:10.000000Z', updated_at: '2024-03-06T09:00:00.000000Z', subscriptions: [] as unknown[],
};
const SUB = {
  active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01',
  product: { id: 'p1', title: 'Yoga' }, created_at: '2024-01-01 10:00:00',
};
const NOT_FOUND = { message: 'Not found.' };


/** The products list, read once to resolve a PRODUCT that is not an id (p1, p2 are not UUIDs). */
const catalog = () => t.pool().intercept({ path: (path: string) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, {
  data: [{ id: 'p1', title: 'Yoga' }, { id: 'p2', title: 'Pilates' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 2 },
});

describe('students list', () => {
  const page = (data: unknown[], current: number, last: number, total: number, perPage: number) => ({
    data,
    links: { next: current < last ? `${BASE}/api/v1/students?page=${current + 1}` : null },
    meta: { current_page: current, last_page: last, per_page: perPage, total },
  });

  it('prints one page with the support-desk columns and the footer on stderr', async () => {
    t.pool().intercept({ path: '/api/v1/students', query: { page: '1' }, method: 'GET', headers: AUTH })
      .reply(200, page([MARIA], 1, 288, 4312, 15));
    const { code, stdout, stderr } = await t.cli(['students', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'NAME         E-MAIL                 DOCUMENT        REFERENCE  CREATED',
      'Maria Silva  maria+vip@example.com  123.456.789-09  crm-1      2024-03-05 14:22',
      '',
    ].join('\n'));
    expect(stderr).toBe('Page 1 of 288 (4,312 students). Use --page N or --all.\n');
  });

  it('refuses -o xlsx to a terminal, before any request, and says how to get the file', async () => {
    const { code, stdout, stderr } = await t.cli(['students', 'list', '-o', 'xlsx'], { stdoutTTY: true });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: -o xlsx writes a workbook, not text for a terminal: add --out FILE.xlsx, or redirect stdout to a file\n');
  });

  it('--all asks for 100 per page, fetches the known remaining pages, and prints no footer', async () => {
    const s = (n: number) => ({ ...MARIA, id: `s${n}`, email: `s${n}@example.com` });
    for (const [n, data] of [[1, [s(1), s(2)]], [2, [s(3)]], [3, [s(4)]]] as const) {
      t.pool().intercept({ path: '/api/v1/students', query: { page: String(n), per_page: '100', with: 'subscriptions' }, method: 'GET' })
        .reply(200, page([...data], n, 3, 4, 100));
    }
    const { code, stdout, stderr } = await t.cli(['students', 'list', '--all', '--with-subscriptions', '-o', 'ndjson', '--fields', 'id']);
    expect(code).toBe(0);
    expect(stdout).toBe('{"id":"s1"}\n{"id":"s2"}\n{"id":"s3"}\n{"id":"s4"}\n');
    expect(stderr).toBe('');
  });

  it('rejects a bad --page before any request', async () => {
    const { code, stderr } = await t.cli(['students', 'list', '--page', '0']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --page "0": expected an integer of at least 1\n');
  });
});

describe('students get', () => {
  it('requests a document as one encoded path segment', async () => {
    get('/api/v1/students/document/RG%2F12345').reply(200, { data: { ...MARIA, document: 'RG/12345' } });
    const { code, stdout } = await t.cli(['students', 'get', 'doc:RG/12345', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ ...MARIA, document: 'RG/12345' });
  });

  it('a valid CPF typed as bare digits: tried as typed, then punctuated, then as an id, never as a phone; not found names the three', async () => {
    get('/api/v1/students/document/52998224725').reply(404, NOT_FOUND);
    get('/api/v1/students/document/529.982.247-25').reply(200, { data: MARIA });
    expect(JSON.parse((await t.cli(['students', 'get', '52998224725', '-o', 'json'])).stdout)).toEqual(MARIA);
    get('/api/v1/students/document/52998224725').reply(404, NOT_FOUND);
    get('/api/v1/students/document/529.982.247-25').reply(404, NOT_FOUND);
    get('/api/v1/students/52998224725').reply(404, NOT_FOUND);
    const { code, stderr } = await t.cli(['students', 'get', '52998224725']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student with document 52998224725 (or 529.982.247-25) or id 52998224725 not found (GET /api/v1/students/52998224725). '
      + 'A phone? Write it as phone:52998224725, or with its punctuation\n');
  });

  it('11 digits with wrong check digits: a document in both spellings, then an id, a phone, then the right check digits; each request once', async () => {
    get('/api/v1/students/document/52998224726').reply(404, NOT_FOUND);
    get('/api/v1/students/document/529.982.247-26').reply(404, NOT_FOUND);
    get('/api/v1/students/52998224726').reply(404, NOT_FOUND);
    list().reply(200, onePage([MARIA]));
    get('/api/v1/students/document/52998224725').reply(404, NOT_FOUND);
    get('/api/v1/students/document/529.982.247-25').reply(200, { data: MARIA });
    const { code, stderr } = await t.cli(['students', 'get', '52998224726']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student with document 52998224726 (or 529.982.247-26) or id 52998224726 or phone 52998224726 not found '
      + '(the whole student list was read for the phone). '
      + '52998224726 is not a valid CPF: its check digits would be 25 (a typo?)\n'
      + 'Did you mean: 52998224725 (Maria Silva)?\n  members students get 52998224725\n');
  });

  it('a student stored with a mistyped CPF is found by it', async () => {
    get('/api/v1/students/document/52998224726').reply(200, { data: MARIA });
    expect(JSON.parse((await t.cli(['students', 'get', '52998224726', '-o', 'json'])).stdout)).toEqual(MARIA);
  });

  it('shows the student, then its subscriptions, in table mode', async () => {
    get('/api/v1/students/email/maria%2Bvip%40example.com').reply(200, { data: { ...MARIA, subscriptions: [SUB] } });
    const { code, stdout } = await t.cli(['students', 'get', 'maria+vip@example.com']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'ID         s1',
      'NAME       Maria Silva',
      'E-MAIL     maria+vip@example.com',
      'PHONE      +55 11 91234-5678',
      'DOCUMENT   123.456.789-09',
      'REFERENCE  crm-1',
      'BIRTH      1990-04-12',
      'CREATED    2024-03-05 14:22',
      'UPDATED    2024-03-06 09:00',
      'PRODUCT  PRODUCT ID  STATUS  ACCESS  ACCESSION   EXPIRATION',
      'Yoga     p1          active  yes     2024-01-01  2025-01-01',
      '',
    ].join('\n'));
  });

  it('says which student was not found: exit 4', async () => {
    get('/api/v1/students/reference/crm-9').reply(404, NOT_FOUND);
    const { code, stderr } = await t.cli(['students', 'get', 'ref:crm-9']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student with reference crm-9 not found (GET /api/v1/students/reference/crm-9)\n');
  });
});

describe('students products', () => {
  it('encodes an id such as ../products as one segment', async () => {
    get('/api/v1/students/..%2Fproducts/products').reply(200, { data: [SUB] });
    const { code, stdout } = await t.cli(['students', 'products', '../products', '-o', 'csv', '--fields', 'product_id,product.title,active']);
    expect(code).toBe(0);
    expect(stdout).toBe('product_id,product.title,active\np1,Yoga,1\n');
  });
});

describe('students create', () => {
  it('refuses a malformed e-mail before sending anything: exit 2', async () => {
    const { code, stdout, stderr } = await t.cli(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'maria.example.com']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: invalid --email "maria.example.com": expected an address such as maria@example.com\n');
  });

  it('refuses an impossible birth date before sending anything: exit 2', async () => {
    const { code, stderr } = await t.cli(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@example.com', '--birth', '2023-02-30']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --birth "2023-02-30": expected a real calendar date as YYYY-MM-DD\n');
  });

  it('announces the target, sends exactly the given fields, prints the student', async () => {
    t.pool().intercept({
      path: '/api/v1/students', method: 'POST', headers: AUTH,
      body: JSON.stringify({ first_name: 'Maria', last_name: 'Silva', email: 'maria+vip@example.com', birth: '1990-04-12' }),
    }).reply(201, { data: MARIA });
    const { code, stdout, stderr } = await t.cli([
      'students', 'create', '--first-name', 'Maria', '--last-name', 'Silva', '--email', 'maria+vip@example.com',
      '--birth', '1990-04-12', '--reason', 'ticket 1', '-o', 'json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(MARIA);
    expect(stderr).toBe(`${ANNOUNCE}✓ Created student Maria Silva <maria+vip@example.com>\n`);
  });

  it('a duplicate e-mail is the server rejecting the request: exit 5', async () => {
    t.pool().intercept({ path: '/api/v1/students', method: 'POST' })
      .reply(422, { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    const { code, stderr } = await t.cli(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@example.com', '-o', 'json']);
    expect(code).toBe(5);
    expect(stderr.split('\n')[0]).toBe(`${ANNOUNCE.trim()}`);
    expect(stderr).toContain('"exit_code":5,"status":422');
  });
});

describe('students delete', () => {
  it('off a terminal without --yes: exit 2 and no request at all', async () => {
    const { code, stderr } = await t.cli(['students', 'delete', 'maria@example.com']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: Delete student maria@example.com: confirmation needed but stdin is not a terminal; pass --yes to proceed\n');
  });

  it('with --yes: looks the student up, announces, deletes, and says so', async () => {
    get('/api/v1/students/s1').reply(200, { data: MARIA });
    t.pool().intercept({ path: '/api/v1/students/s1', method: 'DELETE', headers: AUTH }).reply(204, '');
    const { code, stdout, stderr } = await t.cli(['students', 'delete', 's1', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(`${ANNOUNCE}✓ Deleted student Maria Silva <maria+vip@example.com>\n`);
  });

  it('on a terminal, asks to type the e-mail, not y/N: the delete is irreversible in effect', async () => {
    get('/api/v1/students/s1').reply(200, { data: MARIA });
    const confirm = vi.spyOn(Session.prototype, 'confirm').mockRejectedValue(new UsageError('cancelled: nothing was changed'));
    const { code } = await t.cli(['students', 'delete', 's1'], { stdinTTY: true });
    const calls = [...confirm.mock.calls];
    confirm.mockRestore();
    expect(code).toBe(2);
    expect(calls).toEqual([[
      'Delete student Maria Silva <maria+vip@example.com>? Its subscriptions, scores and progress go with it.', 'maria+vip@example.com',
    ]]);
  });

  it('an unknown student is exit 4 and nothing is deleted', async () => {
    get('/api/v1/students/nobody').reply(404, NOT_FOUND);
    const { code } = await t.cli(['students', 'delete', 'nobody', '--yes']);
    expect(code).toBe(4);
  });
});

describe('students grant', () => {
  it('a product already held: a notice, exit 0, and no POST', async () => {
    catalog();
    get('/api/v1/students/email/maria%2Bvip%40example.com').reply(200, { data: MARIA });
    get('/api/v1/students/s1/products/p1').reply(200, { data: SUB });
    const { code, stdout, stderr } = await t.cli(['students', 'grant', 'maria+vip@example.com', 'p1', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(SUB);
    expect(stderr).toBe('Maria Silva <maria+vip@example.com> already has access to product "Yoga" (p1); nothing sent\n');
  });

  it('on a terminal, a subscription without access: names the platform, asks, then revokes and grants again keeping the accession date', async () => {
    catalog();
    get('/api/v1/students/s1/products/p1').reply(200, { data: { ...SUB, active: 0, status: 'canceled' } });
    t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '');
    t.pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST', headers: AUTH,
      body: JSON.stringify({ product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2031-01-01' }),
    }).reply(201, { data: { ...SUB, expiration_date: '2031-01-01' } });
    const events: string[] = [];
    const announce = Session.prototype.announceChange;
    vi.spyOn(Session.prototype, 'announceChange').mockImplementation(async function (this: Session) {
      events.push('announce');
      await announce.call(this);
    });
    vi.spyOn(Session.prototype, 'confirm').mockImplementation(async (question: string) => void events.push(question));
    const { code, stderr } = await t.cli(['students', 'grant', 's1', 'p1', '--expiration', '2031-01-01', '-o', 'json'], { stdinTTY: true });
    vi.restoreAllMocks();
    expect(code).toBe(0);
    // Announced once, before the question.
    // The question names the status the grant resets: a yes to it is the consent --include-status-changes gives.
    expect(events).toEqual(['announce', 'student s1 has product "Yoga" (p1) but its access is off (status canceled, expiration 2025-01-01). '
      + 'Revoke it and grant it again — its status canceled becomes active (the server\'s default for a grant)?']);
    expect(stderr).toBe(`${ANNOUNCE}✓ Renewed product "Yoga" (p1) for student s1: its access is off (status canceled, expiration 2025-01-01); `
      + 'revoked and granted again, accession 2024-01-01, expiration 2031-01-01\n');
  });

  it('an id needs no lookup: checks the product, announces, POSTs the dates', async () => {
    catalog();
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    t.pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST', headers: AUTH,
      body: JSON.stringify({ product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01' }),
    }).reply(201, { data: SUB });
    const { code, stdout, stderr } = await t.cli(['students', 'grant', 's1', 'p1', '--accession', '2024-01-01', '--expiration', '2025-01-01']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'PRODUCT     Yoga', 'PRODUCT ID  p1', 'STATUS      active', 'ACCESS      yes', 'ACCESSION   2024-01-01', 'EXPIRATION  2025-01-01', '',
    ].join('\n'));
    expect(stderr).toBe(`${ANNOUNCE}✓ Granted product "Yoga" (p1) to student s1\n`);
  });

  it('checks the dates before any request: exit 2', async () => {
    const bad = await t.cli(['students', 'grant', 's1', 'p1', '--accession', '2024-13-01']);
    expect(bad.code).toBe(2);
    const backwards = await t.cli(['students', 'grant', 's1', 'p1', '--accession', '2024-02-01', '--expiration', '2024-01-31']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toBe('error: --expiration 2024-01-31 is before --accession 2024-02-01; the expiration cannot precede the accession\n');
  });

  it('accession defaults to today', () => {
    expect(grantDates(undefined, undefined, undefined, new Date(2024, 1, 29, 12))).toEqual({ accession: '2024-02-29' });
    expect(grantDates('2024-01-01', '2024-01-01')).toEqual({ accession: '2024-01-01', expiration: '2024-01-01', accessionGiven: true });
  });
});

describe('students revoke', () => {
  it('a product not held: a notice, exit 0, and no DELETE', async () => {
    catalog();
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    get('/api/v1/students/s1').reply(200, { data: MARIA });
    const { code, stdout, stderr } = await t.cli(['students', 'revoke', 's1', 'p1']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe('Student s1 does not have product "Yoga" (p1); nothing sent\n');
  });

  it('an unknown student is exit 4, not "does not have"', async () => {
    catalog();
    get('/api/v1/students/ghost/products/p1').reply(404, NOT_FOUND);
    get('/api/v1/students/ghost').reply(404, NOT_FOUND);
    const { code, stderr } = await t.cli(['students', 'revoke', 'ghost', 'p1', '--yes']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student ghost not found (GET /api/v1/students/ghost)\n');
  });

  it('off a terminal without --yes: exit 2 after the check, and no DELETE', async () => {
    catalog();
    get('/api/v1/students/email/maria%2Bvip%40example.com').reply(200, { data: MARIA });
    get('/api/v1/students/s1/products/p1').reply(200, { data: SUB });
    const { code, stderr } = await t.cli(['students', 'revoke', 'maria+vip@example.com', 'p1']);
    expect(code).toBe(2);
    expect(stderr).toBe(`${ANNOUNCE}error: Revoke product "Yoga" (p1) from Maria Silva <maria+vip@example.com>: confirmation needed but stdin is not a terminal; pass --yes to proceed\n`);
  });

  it('with --yes: DELETE and a notice', async () => {
    catalog();
    get('/api/v1/students/s1/products/p1').reply(200, { data: SUB });
    t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '');
    const { code, stdout, stderr } = await t.cli(['students', 'revoke', 's1', 'p1', '--yes', '--reason', 'refund']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(`${ANNOUNCE}✓ Revoked product "Yoga" (p1) from student s1\n`);
  });
});

describe('resolveStudent', () => {
  it('looks a student up once per run, under its key and its id', async () => {
    get('/api/v1/students/email/maria%2Bvip%40example.com').reply(200, { data: MARIA });
    get('/api/v1/students/document/123.456.789-09').reply(200, { data: MARIA });
    const api = new HttpApi(new HttpClient({
      baseUrl: new URL(BASE), token: TOKEN, timeoutMs: 5_000, retries: 0, userAgent: 'test', secrets: [TOKEN], dispatcher: t.agent,
    }));
    const cache = new StudentCache();
    const [a, b] = await Promise.all([
      resolveStudent(api, 'maria+vip@example.com', { cache }),
      resolveStudent(api, 'maria+vip@example.com', { cache }),
    ]);
    expect(a.id).toBe('s1');
    expect(b.id).toBe('s1');
    expect((await resolveStudent(api, 's1', { cache, fetch: true })).record?.email).toBe('maria+vip@example.com');
    expect((await resolveStudent(api, 's1', { cache })).record).toBeUndefined();
    expect((await resolveStudent(api, 'doc:123.456.789-09', { cache })).input).toBe('doc:123.456.789-09');
  });
});
