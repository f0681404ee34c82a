/** `members students revoke --file` and `members students import` in-process, against exact interceptors. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, beforeEach } from 'vitest';
import { Session } from '../../../src/session/session.js';
import { AUTH, BASE, TOKEN, mockCli, products } from '../../helpers/mock-cli.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';
import { runBulk } from '../../../src/commands/shared/bulk/run.js';
import { importOperation } from '../../../src/domain/bulk/operations.js';
import { globals } from '../../unit/output/setup.js';

const t = mockCli();
beforeEach(() => products(t.pool()));
afterEach(() => {
  vi.restoreAllMocks();
});
const ANNOUNCE = '→ default (members.example.com)\n';
const NOT_FOUND = { message: 'Not found.' };

const student = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `s${n}`, first_name: 'Student', last_name: `${n}`, full_name: `Student ${n}`, email: `s${n}@example.com`, ...extra,
});
const sub = (product: string) => ({
  active: 1, status: 'active', product_id: product, accession_date: '2024-01-01', expiration_date: null,
  product: { id: product, title: `Product ${product}` }, created_at: '2024-01-01 10:00:00',
});

const get = (path: string) => t.pool().intercept({ path, method: 'GET', headers: AUTH });
const requestsSent = () => t.agent.getCallHistory()?.calls().length ?? 0;
const timeless = (text: string) => text.replace(/ in \d+\.\ds/g, ' in X.Xs');

function csvFile(text: string): string {
  const path = join(t.configDir, 'rows.csv');
  writeFileSync(path, text);
  return path;
}

async function cli(args: string[], io: FakeIoOptions = {}) {
  const result = await t.cli(args, io);
  return { ...result, stderr: timeless(result.stderr) };
}

describe('students revoke --file', () => {
  it('off a terminal without --yes, even one row: exit 2 before any request', async () => {
    t.agent.enableCallHistory();
    const file = csvFile('student,product_id\ns1,p1\n');
    const { code, stderr } = await cli(['students', 'revoke', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: Revoke products from students on 1 row of ${file}: confirmation needed but stdin is not a terminal; pass --yes to proceed\n`);
    expect(requestsSent()).toBe(0);
  });

  it('on a terminal, a few rows ask y/N (a revoke is destructive)', async () => {
    const confirm = vi.spyOn(Session.prototype, 'confirm').mockResolvedValue();
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '');
    const file = csvFile('student,product_id\ns1,p1\n');
    const { code, stderr } = await cli(['students', 'revoke', '--file', file], { stdinTTY: true });
    expect(code).toBe(0);
    expect(confirm.mock.calls).toEqual([[`Revoke "Yoga" (p1) from students on 1 row of ${file}?`, undefined]]);
    expect(stderr).toBe(`${ANNOUNCE}1 row: 1 revoked, 0 skipped, 0 failed in X.Xs (1 lookup, too few to read the student list instead)\n`);
  });

  it('revokes what is held, skips what is not, fails an unknown student: exit 7', async () => {
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '');
    get('/api/v1/students/s2/products/p1').reply(404, NOT_FOUND);
    get('/api/v1/students/s2').reply(200, { data: student(2) });
    get('/api/v1/students/email/ghost%40example.com').reply(404, NOT_FOUND);
    const file = csvFile('student,product_id\ns1,p1\ns2,p1\nghost@example.com,p1\n');
    const { code, stdout, stderr } = await cli(['students', 'revoke', '--file', file, '--yes', '--reason', 'refunds', '-o', 'json']);
    expect(code).toBe(7);
    expect(JSON.parse(stdout)).toEqual([
      { line: 2, student: 's1', product_id: 'p1', result: 'revoked', message: 'revoked product "Product p1" (p1) from student s1' },
      { line: 3, student: 's2', product_id: 'p1', result: 'skipped', message: 'student s2 does not have product "Yoga" (p1); nothing sent' },
      {
        line: 4, student: 'ghost@example.com', product_id: 'p1', result: 'failed',
        message: 'student with e-mail ghost@example.com not found (GET /api/v1/students/email/ghost%40example.com)',
      },
    ]);
    expect(stderr.split('\n').slice(0, 2)).toEqual([ANNOUNCE.trimEnd(), '3 rows: 1 revoked, 1 skipped, 1 failed in X.Xs (4 lookups, too few to read the student list instead)']);
  });

  it('a DELETE retried after its first attempt went through (404 now) counts as revoked', async () => {
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    const del = () => t.pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH });
    del().reply(503, { message: 'Service Unavailable' }, { headers: { 'retry-after': '0' } });
    del().reply(404, { message: 'The student does not have this product.' });
    get('/api/v1/students/s1/products/p1').reply(404, NOT_FOUND);
    const file = csvFile('student,product_id\ns1,p1\n');
    const { code, stdout } = await cli(['students', 'revoke', '--file', file, '--yes', '-o', 'csv', '--fields', 'line,result']);
    expect(code).toBe(0);
    expect(stdout).toBe('line,result\n2,revoked\n');
  });
});

describe('students import', () => {
  const HEADER = 'first_name,last_name,email,birth';

  it('checks every row first: a bad e-mail, a bad date, a duplicate e-mail — exit 2, no request', async () => {
    t.agent.enableCallHistory();
    const file = csvFile([HEADER, 'Ana,Souza,ana@example.com,', 'Bia,Lima,bia@example,', 'Cris,,cris@example.com,1990-02-30', 'Ana,S.,ANA@example.com,'].join('\n'));
    const { code, stdout, stderr } = await cli(['students', 'import', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe([
      'error: line 3: email "bia@example" is not an e-mail address (expected e.g. maria@example.com)',
      'error: line 4: last_name is empty',
      'error: line 5: duplicate of line 2 (the same email)',
      `error: 3 invalid rows in ${file}; nothing was sent. Fix them, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(requestsSent()).toBe(0);
  });

  it('creates new e-mails and skips existing ones; reads stdin with a BOM, CRLF and quoted commas', async () => {
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND);
    t.pool().intercept({
      path: '/api/v1/students', method: 'POST', headers: AUTH,
      body: JSON.stringify({ first_name: 'Ana', last_name: 'Souza, Jr.', email: 'ana@example.com', birth: '1990-01-31', reference_id: 'crm-1' }),
    }).reply(201, { data: student(9, { first_name: 'Ana', last_name: 'Souza, Jr.', full_name: 'Ana Souza, Jr.', email: 'ana@example.com' }) });
    get('/api/v1/students/email/s2%40example.com').reply(200, { data: student(2) });
    const input = '\uFEFFFirst_Name,Last_Name,Email,Birth,Reference_ID\r\nAna,"Souza, Jr.",ana@example.com,1990-01-31,crm-1\r\nOther,Name,s2@example.com,,\r\n';
    const { code, stdout, stderr } = await cli(['students', 'import', '-', '--concurrency', '1', '-o', 'json'], { stdin: input });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { line: 2, student: 'ana@example.com', product_id: '', result: 'created', message: 'created student Ana Souza, Jr. <ana@example.com>' },
      { line: 3, student: 's2@example.com', product_id: '', result: 'skipped', message: 'student Student 2 <s2@example.com> already exists; nothing sent' },
    ]);
    expect(stderr).toBe(`${ANNOUNCE}2 rows: 1 created, 1 skipped, 0 failed in X.Xs (2 lookups, too few to read the student list instead)\n`);
  });

  it('--out failing late (a full disk): the rows applied are summed up and recorded, no temp file, a clear error', async () => {
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND);
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH })
      .reply(201, { data: student(9, { first_name: 'Ana', last_name: 'Souza', full_name: 'Ana Souza', email: 'ana@example.com' }) });
    const real = Session.prototype.output;
    // The file takes every write, then the disk is full when it is flushed.
    const spy = vi.spyOn(Session.prototype, 'output').mockImplementation(async function (this: Session, overrides) {
      const output = await real.call(this, overrides);
      return { ...output, close: () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })) };
    });
    const out = join(t.configDir, 'results', 'out.csv');
    mkdirSync(join(t.configDir, 'results'));
    const { code, stderr } = await cli(['students', 'import', '-', '-o', 'csv', '--out', out], { stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\n' });
    spy.mockRestore();
    expect(code).toBe(1);
    expect(timeless(stderr)).toContain('1 row: 1 created, 0 skipped, 0 failed in X.Xs (1 lookup, too few to read the student list instead)\n');
    expect(stderr).toContain(`error: could not write --out ${out} (ENOSPC); 1 of 1 row processed, and the changes made are in the audit log`);
    expect(readdirSync(join(t.configDir, 'results'))).toEqual([]);
    const audit = readFileSync(join(t.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"action":"create"');
  });

  it('--out failing in the middle of the results (the disk fills up): summed up, recorded, no temp file, not "unexpected error"', async () => {
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND);
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH })
      .reply(201, { data: student(9, { first_name: 'Ana', last_name: 'Souza', full_name: 'Ana Souza', email: 'ana@example.com' }) });
    const real = Session.prototype.output;
    // A write of the results fails as a full disk makes it fail: while the rows are still being printed, not at close.
    vi.spyOn(Session.prototype, 'output').mockImplementation(async function (this: Session, overrides) {
      const output = await real.call(this, overrides);
      return {
        ...output,
        async list(records) {
          for await (const _record of records) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          return 0;
        },
      };
    });
    const out = join(t.configDir, 'results', 'out.csv');
    mkdirSync(join(t.configDir, 'results'));
    const { code, stderr } = await cli(['students', 'import', '-', '-o', 'csv', '--out', out], { stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\n' });
    expect(code).toBe(1);
    expect(stderr).not.toContain('unexpected error');
    expect(stderr).toContain('1 row: 1 created, 0 skipped, 0 failed in X.Xs (1 lookup, too few to read the student list instead)');
    expect(stderr).toContain(`error: could not write --out ${out} (ENOSPC); 1 of 1 row processed, and the changes made are in the audit log`);
    expect(readdirSync(join(t.configDir, 'results'))).toEqual([]);
    const actions = readFileSync(join(t.configDir, 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { action: string }).action);
    expect(actions).toEqual(['create', 'bulk']);
  });

  it('prints the e-mail, not an empty product, in table mode', async () => {
    get('/api/v1/students/email/s2%40example.com').reply(200, { data: student(2) });
    const { code, stdout } = await cli(['students', 'import', csvFile(`${HEADER}\nOther,Name,s2@example.com,\n`)]);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'LINE  E-MAIL          RESULT   MESSAGE',
      '2     s2@example.com  skipped  student Student 2 <s2@example.com> already exists; nothing sent',
      '',
    ].join('\n'));
  });
});

describe('students import: the same file run twice at once', () => {
  it('an e-mail refused as taken because the other run created it in between is skipped, not failed', async () => {
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND);
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH })
      .reply(422, { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    get('/api/v1/students/email/ana%40example.com').reply(200, { data: student(9, { first_name: 'Ana', last_name: 'Souza', full_name: 'Ana Souza', email: 'ana@example.com' }) });
    const { code, stdout } = await cli(['students', 'import', '-', '-o', 'json'], { stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\n' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{
      line: 2, student: 'ana@example.com', product_id: '', result: 'skipped',
      message: 'student Ana Souza <ana@example.com> already exists (created meanwhile by someone else); nothing changed',
    }]);
  });

  it('a 422 for another reason stays a failure (the e-mail is still free)', async () => {
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND).times(2);
    t.pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH })
      .reply(422, { message: 'The given data was invalid.', errors: { last_name: ['The last name is too long.'] } });
    const { code, stdout } = await cli(['students', 'import', '-', '-o', 'json'], { stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\n' });
    expect(code).toBe(7);
    expect(JSON.parse(stdout)).toMatchObject([{ line: 2, result: 'failed', message: expect.stringContaining('last_name: The last name is too long.') }]);
  });
});

describe('dry runs send nothing but GETs', () => {
  it('students revoke --file --dry-run: the rows held would be revoked, no DELETE, exit 0, never a question', async () => {
    t.agent.enableCallHistory();
    get('/api/v1/students/s1/products/p1').reply(200, { data: sub('p1') });
    get('/api/v1/students/s2/products/p1').reply(404, NOT_FOUND);
    get('/api/v1/students/s2').reply(200, { data: student(2) });
    const file = csvFile('student,product_id\ns1,p1\ns2,p1\n');
    const { code, stdout, stderr } = await cli(['students', 'revoke', '--file', file, '--dry-run', '--concurrency', '1', '-o', 'csv', '--fields', 'line,result,message']);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'line,result,message',
      '2,revoked,"would revoke product ""Product p1"" (p1) from student s1 (dry run; nothing sent)"',
      '3,skipped,"student s2 does not have product ""Yoga"" (p1); nothing sent"',
      '',
    ].join('\n'));
    expect(stderr).toBe('2 rows: 1 to revoke, 1 skipped, 0 failed in X.Xs (2 lookups, too few to read the student list instead; dry run: nothing was sent)\n');
    expect(t.agent.getCallHistory()?.calls().map((call) => call.method)).not.toContain('DELETE');
  });

  it('students import --dry-run: new e-mails would be created, no POST, exit 0', async () => {
    t.agent.enableCallHistory();
    get('/api/v1/students/email/ana%40example.com').reply(404, NOT_FOUND);
    get('/api/v1/students/email/s2%40example.com').reply(200, { data: student(2) });
    const { code, stdout, stderr } = await cli(['students', 'import', '-', '--dry-run', '--concurrency', '1', '-o', 'csv', '--fields', 'line,result,message'], {
      stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\nOther,Name,s2@example.com\n',
    });
    expect(code).toBe(0);
    expect(stdout).toBe([
      'line,result,message',
      '2,created,would create student Ana Souza <ana@example.com> (dry run; nothing sent)',
      '3,skipped,student Student 2 <s2@example.com> already exists; nothing sent',
      '',
    ].join('\n'));
    expect(stderr).toBe('2 rows: 1 to create, 1 skipped, 0 failed in X.Xs (2 lookups, too few to read the student list instead; dry run: nothing was sent)\n');
    expect(t.agent.getCallHistory()?.calls().map((call) => call.method)).toEqual(['GET', 'GET']);
  });

  it('by construction: an operation that forgets it is a dry run still sends nothing (its row fails saying so)', async () => {
    t.agent.enableCallHistory();
    // A careless operation: it POSTs whatever the dry-run flag says.
    const careless = { ...importOperation, apply: async (context: Parameters<typeof importOperation.apply>[0]) => {
      await context.api.send({ method: 'POST', path: '/api/v1/students', body: {} });
      return { student: 'x', product_id: '', result: 'created' as const, message: 'sent' };
    } };
    const fake = fakeIo({ stdin: 'first_name,last_name,email\nAna,Souza,ana@example.com\n', env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: t.configDir } });
    const session = new Session(globals({ output: 'json' }), { io: fake.io, dispatcher: t.agent });
    const failure = await runBulk(session, careless, { file: '-', concurrency: 1, dryRun: true, skipInvalid: false, strategy: 'auto' }).catch((error: unknown) => error);
    await session.close();
    expect(failure).toMatchObject({ exitCode: 7 });
    expect(JSON.parse(fake.stdout())).toEqual([expect.objectContaining({
      line: 2, result: 'failed', message: expect.stringContaining('a dry run tried to send POST /api/v1/students; nothing was sent'),
    })]);
    expect(t.agent.getCallHistory()?.calls() ?? []).toEqual([]);
  });
});
