/**
 * `members students grant --file` in-process against exact MockAgent
 * interceptors: checks before any request, order of results, the run's
 * student cache, confirmation rules, failures, Ctrl-C.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, beforeEach } from 'vitest';
import { main } from '../../../src/main.js';
import { Session } from '../../../src/session/session.js';
import { UsageError } from '../../../src/lib/errors.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';
import { AUTH, BASE, TOKEN, mockCli, products } from '../../helpers/mock-cli.js';

const t = mockCli();
beforeEach(() => products(t.pool()));
afterEach(() => {
  vi.restoreAllMocks();
});
const ANNOUNCE = '→ default (members.example.com)\n';
const NOT_FOUND = { message: 'Not found.' };

const student = (n: number) => ({
  id: `s${n}`, first_name: 'Student', last_name: `${n}`, full_name: `Student ${n}`, email: `s${n}@example.com`,
});
const sub = (product: string) => ({
  active: 1, status: 'active', product_id: product, accession_date: '2024-01-01', expiration_date: null,
  product: { id: product, title: `Product ${product}` }, created_at: '2024-01-01 10:00:00',
});

const get = (path: string) => t.pool().intercept({ path, method: 'GET', headers: AUTH });
const grantPost = (id: string, product: string, accession = '2024-01-01') => t.pool().intercept({
  path: `/api/v1/students/${id}/products`, method: 'POST', headers: AUTH,
  body: JSON.stringify({ product_id: product, accession_date: accession }),
});

/** The CSV in a file of the test's own directory; returns its path. */
function csvFile(text: string, name = 'rows.csv'): string {
  const path = join(t.configDir, name);
  writeFileSync(path, text);
  return path;
}

/** Durations vary: `in 0.1s` → `in X.Xs`. */
const timeless = (text: string) => text.replace(/ in \d+\.\ds/g, ' in X.Xs');

async function cli(args: string[], io: FakeIoOptions = {}) {
  const result = await t.cli(args, io);
  return { ...result, stderr: timeless(result.stderr) };
}

/** Every request dispatched, matched by an interceptor or not (0 when none was). */
const requestsSent = () => t.agent.getCallHistory()?.calls().length ?? 0;
/** Requests other than the one read of the products list (which resolves product cells before any change). */
const changesSent = () => t.agent.getCallHistory()?.calls().filter((call) => !(call.method === 'GET' && call.path.startsWith('/api/v1/products'))).length ?? 0;

const rows = (...lines: string[]) => ['student,product_id,accession_date', ...lines].join('\n') + '\n';

describe('students grant --file: every row is checked before anything is sent', () => {
  it('one bad row: each problem on stderr with its line, exit 2, and no request at all', async () => {
    t.agent.enableCallHistory();
    const file = csvFile([
      'student,product_id,accession_date,expiration_date',
      's1,p1,2024-01-01,2024-12-31',
      's2,p1,2024-01-01,2024-02-30',
      'doc:,p1,,',
      's4,p1,2024-03-01,2024-02-01',
      's5,,,',
      'phone:1234,p1,,',
    ].join('\n'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe([
      'error: line 3: invalid expiration_date "2024-02-30": expected a real calendar date as YYYY-MM-DD',
      'error: line 4: student "doc:" is not a student key: give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE',
      'error: line 5: expiration_date 2024-02-01 is before accession_date 2024-03-01; the expiration cannot precede the accession',
      'error: line 6: empty product_id; give the id of a product (see `members products list`)',
      'error: line 7: student "1234" is not a phone number: give 10 to 13 digits with the area code, as phone:61939862924 or "(61) 93986-2924"',
      `error: 5 invalid rows in ${file}; nothing was sent. Fix them, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(requestsSent()).toBe(0);
  });

  it('a student cell that cannot be an id (a name, a document without doc:) is invalid: nothing sent for a POST to fail on', async () => {
    t.agent.enableCallHistory();
    const file = csvFile(rows('Maria Silva,p1,', 'RG/1749537-4,p1,', 'José,p1,', 's4,p1,'));
    const { code, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe([
      'error: line 2: student "Maria Silva" cannot be an id (it has spaces or accents); give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE, or to find a student by name: members students search "Maria Silva"',
      'error: line 3: student "RG/1749537-4" cannot be an id (it has a /); a document is written doc:RG/1749537-4, a reference ref:RG/1749537-4',
      'error: line 4: student "José" cannot be an id (it has spaces or accents); give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE, or to find a student by name: members students search "José"',
      `error: 3 invalid rows in ${file}; nothing was sent. Fix them, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(requestsSent()).toBe(0);
  });

  it('a duplicate row (same student and product, e-mails in any case) is invalid', async () => {
    const file = csvFile(rows('Maria@Example.com,p1,', 's2,p1,', 'maria@example.com,p1,2024-05-01'));
    const { code, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe([
      'error: line 4: duplicate of line 2 (the same student and product_id)',
      `error: 1 invalid row in ${file}; nothing was sent. Fix it, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
  });

  it('an unknown column: exit 2 naming it and the allowed ones', async () => {
    const file = csvFile('student,product_id,price\ns1,p1,10\n');
    const { code, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: ${file}: unknown column "price" in the header (line 1); the columns are student,product_id[,accession_date][,expiration_date][,renew] (in any order; case, accents and spaces ignored; Portuguese headers too: see \`members help bulk\`); or pass --ignore-extra-columns to ignore them\n`,
    );
  });

  it('--skip-invalid applies the valid rows and reports the invalid ones as failed: exit 7', async () => {
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    grantPost('s1', 'p1').reply(201, { data: sub('p1') });
    const file = csvFile(rows('s1,p1,2024-01-01', 's2,p1,2024-13-01'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file, '--skip-invalid', '-o', 'json']);
    expect(code).toBe(7);
    expect(JSON.parse(stdout)).toEqual([
      { line: 2, student: 's1', product_id: 'p1', result: 'granted', message: 'granted product "Product p1" (p1) to student s1' },
      {
        line: 3, student: 's2', product_id: 'p1', result: 'failed',
        message: 'invalid row: invalid accession_date "2024-13-01": expected a real calendar date as YYYY-MM-DD',
      },
    ]);
    expect(stderr).toBe([
      ANNOUNCE.trimEnd(),
      '2 rows: 1 granted, 0 skipped, 1 failed in X.Xs (1 lookup, too few to read the student list instead)',
      'error: 1 of 2 rows failed (result "failed" in the output, with the reason); fix the cause and run the same file again: rows already applied come back skipped',
      '{"error":{"exit_code":7,"status":null,"message":"1 of 2 rows failed (result \\"failed\\" in the output, with the reason); fix the cause and run the same file again: rows already applied come back skipped"}}',
      '',
    ].join('\n'));
  });

  it('a --fields name that results do not have: exit 2 before reading on', async () => {
    const file = csvFile(rows('s1,p1,'));
    const { code, stderr } = await cli(['students', 'grant', '--file', file, '--fields', 'line,status']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: unknown field "status" in --fields; available fields: line, student, product_id, result, message\n');
  });
});

describe('students grant --file: the run', () => {
  it('prints results in input order, however the rows finish, then the summary', async () => {
    // The first row answers last.
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND).delay(60);
    get('/api/v1/students/s2/products/p1').reply(404, NOT_FOUND).delay(30);
    get('/api/v1/students/s3/products/p1').reply(200, { data: sub('p1') });
    grantPost('s1', 'p1').reply(201, { data: sub('p1') });
    grantPost('s2', 'p1').reply(201, { data: sub('p1') });
    const file = csvFile(rows('s1,p1,2024-01-01', 's2,p1,2024-01-01', 's3,p1,2024-01-01'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file, '--concurrency', '3', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      '{"line":2,"student":"s1","product_id":"p1","result":"granted","message":"granted product \\"Product p1\\" (p1) to student s1"}',
      '{"line":3,"student":"s2","product_id":"p1","result":"granted","message":"granted product \\"Product p1\\" (p1) to student s2"}',
      '{"line":4,"student":"s3","product_id":"p1","result":"skipped","message":"student s3 already has access to product \\"Product p1\\" (p1); nothing sent"}',
      '',
    ].join('\n'));
    expect(stderr).toBe(`${ANNOUNCE}3 rows: 2 granted, 1 skipped, 0 failed in X.Xs (3 lookups, too few to read the student list instead)\n`);
  });

  it('looks a student named on many rows up once per run', async () => {
    t.agent.enableCallHistory();
    get('/api/v1/students/email/maria%40example.com').reply(200, { data: { ...student(1), email: 'maria@example.com' } });
    for (const product of ['p1', 'p2', 'p3']) get(`/api/v1/students/s1/products/${product}`).reply(404, NOT_FOUND);
    for (const product of ['p1', 'p2', 'p3']) grantPost('s1', product).reply(201, { data: sub(product) });
    const file = csvFile(rows('maria@example.com,p1,2024-01-01', 'maria@example.com,p2,2024-01-01', 'maria@example.com,p3,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '--concurrency', '3', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(0);
    expect(stdout).toBe('line,result\n2,granted\n3,granted\n4,granted\n');
    const lookups = t.agent.getCallHistory()?.filterCalls({ path: /\/students\/email\// }) ?? [];
    expect(lookups).toHaveLength(1);
  });

  it('a CPF typed in both spellings is one student: one lookup for two products, a duplicate row for the same product', async () => {
    t.agent.enableCallHistory();
    get('/api/v1/students/document/529.982.247-25').reply(200, { data: { ...student(1), document: '529.982.247-25' } });
    for (const product of ['p1', 'p2']) get(`/api/v1/students/s1/products/${product}`).reply(404, NOT_FOUND);
    for (const product of ['p1', 'p2']) grantPost('s1', product).reply(201, { data: sub(product) });
    const file = csvFile(rows('529.982.247-25,p1,2024-01-01', '52998224725,p2,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '--concurrency', '1', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(0);
    expect(stdout).toBe('line,result\n2,granted\n3,granted\n');
    expect(t.agent.getCallHistory()?.filterCalls({ path: /\/students\/document\// }) ?? []).toHaveLength(1);

    const same = await cli(['students', 'grant', '--file', csvFile(rows('529.982.247-25,p1,', 'doc:52998224725,p1,'), 'same.csv')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('error: line 3: duplicate of line 2 (the same student and product_id)');
  });

  it('a CPF not found in one spelling does not stop the bare digits of another row from being tried as an id', async () => {
    for (const document of ['529.982.247-25', '52998224725', '52998224725', '529.982.247-25']) get(`/api/v1/students/document/${document}`).reply(404, NOT_FOUND);
    get('/api/v1/students/52998224725').reply(200, { data: { ...student(5), id: '52998224725' } });
    get('/api/v1/students/52998224725/products/p2').reply(404, NOT_FOUND);
    grantPost('52998224725', 'p2').reply(201, { data: sub('p2') });
    const file = csvFile(rows('529.982.247-25,p1,2024-01-01', '52998224725,p2,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '--concurrency', '1', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(7);
    expect(stdout).toBe('line,result\n2,failed\n3,granted\n');
  });

  it('--strategy rows learns how the server writes CPFs from the first found: the next bare CPFs cost one lookup each', async () => {
    t.agent.enableCallHistory();
    const cpfs = ['529.982.247-25', '070.692.055-46', '346.719.699-39'];
    get('/api/v1/students/document/52998224725').reply(404, NOT_FOUND);
    cpfs.forEach((cpf, i) => {
      get(`/api/v1/students/document/${cpf}`).reply(200, { data: { ...student(i + 1), document: cpf } });
      get(`/api/v1/students/s${i + 1}/products/p1`).reply(200, { data: sub('p1') });
    });
    const file = csvFile(rows(...cpfs.map((cpf) => `${cpf.replace(/\D/g, '')},p1,`)));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '--concurrency', '1', '--strategy', 'rows', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(0);
    expect(stdout).toBe('line,result\n2,skipped\n3,skipped\n4,skipped\n');
    expect(t.agent.getCallHistory()?.filterCalls({ path: /\/students\/document\// }) ?? []).toHaveLength(4);
  });

  it('rows naming one student by e-mail and by id do not race: the second is skipped, not a duplicate grant', async () => {
    get('/api/v1/students/email/s1%40example.com').reply(200, { data: student(1) }).delay(20);
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    grantPost('s1', 'p1').reply(201, { data: sub('p1') });
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    const file = csvFile(rows('s1@example.com,p1,2024-01-01', 's1,p1,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(0);
    expect(stdout).toBe('line,result\n2,skipped\n3,granted\n');
  });

  it('a row the server refuses fails alone: the others are applied, exit 7 after the results and the summary', async () => {
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    // An id (a UUID) goes to the server as it is; the server refuses it.
    get('/api/v1/students/s2/products/00000000-0000-4000-8000-0000000000ff').reply(404, NOT_FOUND);
    grantPost('s1', 'p1').reply(201, { data: sub('p1') });
    grantPost('s2', '00000000-0000-4000-8000-0000000000ff').reply(422, { message: 'The selected product id is invalid.', errors: { product_id: ['The selected product id is invalid.'] } });
    // Refused: is it there now (another run)? No.
    get('/api/v1/students/s2/products/00000000-0000-4000-8000-0000000000ff').reply(404, NOT_FOUND);
    const file = csvFile(rows('s1,p1,2024-01-01', 's2,00000000-0000-4000-8000-0000000000ff,2024-01-01'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(7);
    expect(stdout).toBe([
      'LINE  STUDENT  PRODUCT                               RESULT   MESSAGE',
      '2     s1       Yoga                                  granted  granted product "Product p1" (p1) to student s1',
      '3     s2       00000000-0000-4000-8000-0000000000ff  failed   the server rejected the request (422): The selected product id is invalid. product_id: The selected product id is invalid. (POST /api/v1/students/s2/products)',
      '',
    ].join('\n'));
    expect(stderr).toBe([
      ANNOUNCE.trimEnd(),
      '2 rows: 1 granted, 0 skipped, 1 failed in X.Xs (2 lookups, too few to read the student list instead)',
      'error: 1 of 2 rows failed (result "failed" in the output, with the reason); fix the cause and run the same file again: rows already applied come back skipped',
      '',
    ].join('\n'));
  });

  it('a POST with an unknown outcome is checked, never resent blindly: found → granted once; still unknown → failed', async () => {
    // s1: the POST fails after the change; the check finds it.
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    grantPost('s1', 'p1').reply(500, { message: 'Server Error' });
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    // s2: every POST fails and the check never finds it: after the budget (--retries 1) the row fails.
    get('/api/v1/students/s2/products/p1').reply(404, NOT_FOUND);
    grantPost('s2', 'p1').reply(503, { message: 'Service Unavailable' });
    get('/api/v1/students/s2/products/p1').reply(404, NOT_FOUND);
    grantPost('s2', 'p1').reply(503, { message: 'Service Unavailable' });
    const file = csvFile(rows('s1,p1,2024-01-01', 's2,p1,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '--retries', '1', '--concurrency', '1', '-o', 'json']);
    // The only failure is transient (a 503): exit 6, not 7 (contract §9.6).
    expect(code).toBe(6);
    expect(JSON.parse(stdout)).toEqual([
      {
        line: 2, student: 's1', product_id: 'p1', result: 'granted',
        message: 'granted product "Product p1" (p1) to student s1 (an uncertain response was checked: applied once, not resent)',
      },
      {
        line: 3, student: 's2', product_id: 'p1', result: 'failed',
        message: 'server unavailable (503) after 1 retry: Service Unavailable; the change may or may not have been applied; check before trying again (POST /api/v1/students/s2/products); running the same file again retries only what is missing',
      },
    ]);
  });

  it('a product cell given by title: every result names the product by its id, and a lapsed subscription says how to renew that row', async () => {
    get('/api/v1/students/s1/products/p3').reply(200, { data: { ...sub('p3'), active: 0, status: 'canceled', product: { id: 'p3', title: 'Dança' } } });
    const file = csvFile(rows('s1,danca,'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '-o', 'json']);
    expect(code).toBe(7);
    expect(JSON.parse(stdout)).toEqual([{
      line: 2, student: 's1', product_id: 'p3', result: 'failed',
      message: 'student s1 has product "Dança" (p3) but its access is off (status canceled); renewing it would change it too: '
        + 'status canceled becomes active (the server\'s default for a grant); nothing sent. To revoke it and grant it again (accession 2024-01-01, '
        + 'expiration none) all the same, put yes in its renew column, or pass --renew for every such row, and pass --include-status-changes',
    }]);
  });

  it('--dry-run resolves every student and checks the state with GETs only: exit 0', async () => {
    get('/api/v1/students/s1').reply(200, { data: student(1) });
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    get('/api/v1/students/s1/products/p2').reply(200, { data: sub('p2') });
    const file = csvFile(rows('s1,p1,', 's1,p2,'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file, '--dry-run', '--concurrency', '1', '-o', 'csv']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'line,student,product_id,result,message',
      '2,s1,p1,granted,"would grant product ""Yoga"" (p1) to Student 1 <s1@example.com> (dry run; nothing sent)"',
      '3,s1,p2,skipped,"Student 1 <s1@example.com> already has access to product ""Product p2"" (p2); nothing sent"',
      '',
    ].join('\n'));
    expect(stderr).toBe('2 rows: 1 to grant, 1 skipped, 0 failed in X.Xs (2 lookups, too few to read the student list instead; dry run: nothing was sent)\n');
  });

  it('a refused token stops the run: no new row is started, exit 3', async () => {
    get('/api/v1/students/s1/products/p1').reply(401, { message: 'Unauthenticated.' });
    const file = csvFile(rows('s1,p1,', 's2,p1,', 's3,p1,'));
    const { code, stdout, stderr } = await cli(['students', 'grant', '--file', file, '--concurrency', '1', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(3);
    expect(stdout).toBe('line,result\n2,failed\n');
    expect(stderr).toBe([
      ANNOUNCE.trimEnd(),
      '1 of 3 rows: 0 granted, 0 skipped, 1 failed in X.Xs (3 lookups, too few to read the student list instead)',
      'error: unauthorized (401): Unauthenticated.; run `members auth login` or set MEMBERS_TOKEN (GET /api/v1/students/s1/products/p1)',
      '',
    ].join('\n'));
  });
});

describe('students grant --file: confirmation scales with the row count', () => {
  const many = (count: number) => rows(...Array.from({ length: count }, (_, i) => `s${i + 1},p1,2024-01-01`));

  it('more than 20 rows off a terminal without --yes: exit 2 before any request', async () => {
    t.agent.enableCallHistory();
    const file = csvFile(many(21));
    const { code, stderr } = await cli(['students', 'grant', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: Grant products to students on 21 rows of ${file}: confirmation needed but stdin is not a terminal; pass --yes to proceed\n`);
    expect(requestsSent()).toBe(0);
  });

  it('rows from stdin: there is no terminal to ask on, so more than 20 need --yes', async () => {
    const { code, stderr } = await cli(['students', 'grant', '--file', '-'], { stdin: many(21), stdinTTY: true });
    expect(code).toBe(2);
    expect(stderr).toBe([
      'Reading the CSV from the terminal; end it with Ctrl-D…',
      'error: Grant products to students on 21 rows of stdin: confirmation needed but the rows come from stdin; pass --yes to proceed',
      '',
    ].join('\n'));
  });

  it('more than 20 rows with --yes, from stdin: applied', async () => {
    for (let i = 1; i <= 21; i++) get(`/api/v1/students/s${i}/products/p1`).reply(200, { data: sub('p1') });
    const { code, stderr } = await cli(['students', 'grant', '--file', '-', '--yes', '--concurrency', '8', '--strategy', 'rows', '-v'], { stdin: many(21) });
    expect(code).toBe(0);
    // -v says the reads once: a forced plan's reason names its strategy already.
    expect(stderr).toContain('\nreads: --strategy rows: 21 lookups\n');
    expect(stderr).toContain('\n21 rows: 0 granted, 21 skipped, 0 failed in X.Xs (--strategy rows: 21 lookups)\n');
  });

  it('on a terminal, more than 20 rows ask for the row count to be typed, after naming the target', async () => {
    // The prompt itself (inquirer) needs real streams: stand in for the user who types a wrong count.
    const confirm = vi.spyOn(Session.prototype, 'confirm').mockRejectedValue(new UsageError('cancelled: nothing was changed'));
    t.agent.enableCallHistory();
    const file = csvFile(many(21));
    const { code, stderr } = await cli(['students', 'grant', '--file', file], { stdinTTY: true });
    // The question names the product by its title (the list is read for it).
    expect(confirm.mock.calls).toEqual([[`Grant "Yoga" (p1) to students on 21 rows of ${file}?`, '21']]);
    expect(code).toBe(2);
    expect(stderr).toBe(`${ANNOUNCE}error: cancelled: nothing was changed\n`);
    expect(changesSent()).toBe(0);
  });

  it('on a terminal, 20 rows or fewer are granted without a question', async () => {
    const confirm = vi.spyOn(Session.prototype, 'confirm');
    for (let i = 1; i <= 20; i++) get(`/api/v1/students/s${i}/products/p1`).reply(200, { data: sub('p1') });
    const { code } = await cli(['students', 'grant', '--file', csvFile(many(20)), '--strategy', 'rows'], { stdinTTY: true });
    expect(code).toBe(0);
    expect(confirm).not.toHaveBeenCalled();
  });
});

describe('students grant --file: Ctrl-C', () => {
  it('stops taking rows, lets those in flight finish, prints them and the summary: exit 130', async () => {
    const fake = fakeIo({ env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: t.configDir } });
    // Ctrl-C arrives while the first two rows are in flight.
    get('/api/v1/students/s1/products/p1').reply(() => {
      fake.interrupt();
      return { statusCode: 404, data: NOT_FOUND };
    });
    get('/api/v1/students/s2/products/p1').reply(200, { data: sub('p1') });
    grantPost('s1', 'p1').reply(201, { data: sub('p1') });
    const file = csvFile(rows('s1,p1,2024-01-01', 's2,p1,2024-01-01', 's3,p1,2024-01-01', 's4,p1,2024-01-01'));
    const code = await main(['students', 'grant', '--file', file, '--concurrency', '2', '-o', 'csv', '--fields', 'line,result'], fake.io, { dispatcher: t.agent });
    expect(code).toBe(130);
    expect(fake.stdout()).toBe('line,result\n2,granted\n3,skipped\n');
    expect(timeless(fake.stderr())).toBe([
      ANNOUNCE.trimEnd(),
      'Stopping: finishing the rows in flight (Ctrl-C again to quit at once; their results would then be unknown)…',
      '2 of 4 rows: 1 granted, 1 skipped, 0 failed in X.Xs (4 lookups, too few to read the student list instead; interrupted)',
      'error: interrupted after 2 of 4 rows; run the same file again to apply the rest (rows already applied come back skipped)',
      '',
    ].join('\n'));
  });
});

describe('students grant: the single form and the bulk form', () => {
  it('takes STUDENT PRODUCT_ID or --file, not both, and the bulk flags only with --file', async () => {
    const file = csvFile(rows('s1,p1,'));
    const both = await cli(['students', 'grant', 's1', 'p1', '--file', file]);
    expect(both).toEqual({ code: 2, stdout: '', stderr: 'error: give either STUDENT PRODUCT_ID or --file FILE, not both; see `members students grant --help`\n' });
    const half = await cli(['students', 'grant', 's1']);
    expect(half.stderr).toBe('error: missing PRODUCT_ID (or --file FILE for a CSV of rows); see `members students grant --help`\n');
    const neither = await cli(['students', 'revoke']);
    expect(neither.stderr).toBe('error: missing STUDENT and PRODUCT_ID (or --file FILE for a CSV of rows); see `members students revoke --help`\n');
    const dry = await cli(['students', 'grant', 's1', 'p1', '--dry-run', '--concurrency', '2']);
    expect(dry.stderr).toBe('error: --concurrency, --dry-run go with --file FILE\n');
    const dates = await cli(['students', 'grant', '--file', file, '--expiration', '2025-01-01']);
    expect(dates.stderr).toBe('error: --accession and --expiration are for one grant; in a file, give the accession_date and expiration_date columns\n');
    const concurrency = await cli(['students', 'grant', '--file', file, '--concurrency', '33']);
    expect(concurrency.stderr).toBe('error: invalid --concurrency "33": expected an integer between 1 and 32\n');
    for (const result of [half, neither, dry, dates, concurrency]) expect(result.code).toBe(2);
  });

  it('a file that cannot be read: exit 2', async () => {
    const { code, stderr } = await cli(['students', 'grant', '--file', join(t.configDir, 'missing.csv')]);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: cannot read ${join(t.configDir, 'missing.csv')}: no such file\n`);
  });
});

describe('students grant --file: a server that keeps failing', () => {
  it('stops taking rows after a run of transient failures (circuit breaker) and exits 6, not 7', async () => {
    // 30 rows, every state check answered 503 (--retries 0): the run stops after 8 in a row instead of trying all 30.
    t.pool().intercept({ path: (path: string) => path.startsWith('/api/v1/students/'), method: 'GET' })
      .reply(503, { message: 'Service Unavailable' }).persist();
    const file = csvFile(rows(...Array.from({ length: 30 }, (_, i) => `s${i + 1},p1,2024-01-01`)));
    const { code, stderr } = await cli(['students', 'grant', '--file', file, '--yes', '--retries', '0', '--concurrency', '1', '-o', 'json', '--strategy', 'rows']);
    expect(code).toBe(6);
    expect(stderr).toContain('8 of 30 rows: 0 granted, 0 skipped, 8 failed in X.Xs (--strategy rows: 30 lookups; stopped: the server kept failing)');
    expect(stderr).toContain('error: stopped after 8 of 30 rows: the last rows all failed for a transient reason');
  });
});

describe('students grant --file: the same file run twice at once', () => {
  it('a grant refused because the other run made it in between is skipped, not failed', async () => {
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    grantPost('s1', 'p1').reply(422, { message: 'The given data was invalid.', errors: { product_id: ['The student already has this product.'] } });
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    const file = csvFile(rows('s1,p1,2024-01-01'));
    const { code, stdout } = await cli(['students', 'grant', '--file', file, '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{
      line: 2, student: 's1', product_id: 'p1', result: 'skipped',
      message: 'student s1 already has access to product "Product p1" (p1) (granted meanwhile by someone else); nothing changed',
    }]);
  });
});
