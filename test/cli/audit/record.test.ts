/**
 * What the changing commands write to the audit log, run in process against
 * an undici MockAgent: one record per change, with the reason and the
 * server's request id, what undo needs, and never a token or a magic link.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import type { AuditRecord } from '../../../src/audit/index.js';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

const BASE = 'https://members.example.com';
const TOKEN = 'tok_API_SENTINEL_0123456789';
const DEV_TOKEN = 'tok_DEV_SENTINEL_abcdefgh';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const MAGIC_URL = 'https://members.example.com/magic/SENTINEL-LINK-9f8e7d';
const REQ = { 'x-request-id': 'req-42' };

let agent: MockAgent;
let configDir: string;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  configDir = mkdtempSync(join(tmpdir(), 'members-audit-record-'));
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  rmSync(configDir, { recursive: true, force: true });
});

const env = () => ({ MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_DEVELOPER_TOKEN: DEV_TOKEN, MEMBERS_CONFIG_DIR: configDir });

async function cli(args: string[]) {
  const fake = fakeIo({ env: env() });
  const code = await main(args, fake.io, { dispatcher: agent });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const logFile = () => join(configDir, 'audit.jsonl');
const logText = () => (existsSync(logFile()) ? readFileSync(logFile(), 'utf8') : '');
const log = () => logText().split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);
const pool = () => agent.get(BASE);

const MARIA = {
  id: 's1', first_name: 'Maria', last_name: 'Silva', full_name: 'Maria Silva', email: 'maria@example.com',
  phone: '+55 11 91234-5678', birth: '1990-04-12', document: '123.456.789-09', reference_id: 'crm-1',
  created_at: '2024-03-05T14:22:10.000000Z', updated_at: '2024-03-06T09:00:00.000000Z',
};
const SUB = {
  id: 77, active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01',
  product: { id: 'p1', title: 'Yoga' },
};

/** The fields every record has, from this session. */
const stamp = (record: AuditRecord | undefined) => {
  expect(record?.id).toMatch(/^[0-9a-z]{8}-[0-9a-f]{12}$/);
  expect(Date.parse(record?.time ?? '')).not.toBeNaN();
  expect(record?.user).toBe(userInfo().username);
  expect(record?.profile).toBe('default');
  expect(record?.base_url).toBe(BASE);
};


/** The products list, read once to resolve a PRODUCT that is not an id (p1, p2 are not UUIDs). */
const catalog = () => pool().intercept({ path: (path: string) => path.startsWith('/api/v1/products?'), method: 'GET' }).reply(200, {
  data: [{ id: 'p1', title: 'Yoga' }, { id: 'p2', title: 'Pilates' }], links: {}, meta: { current_page: 1, last_page: 1, per_page: 100, total: 2 },
});

describe('recorded changes', () => {
  it('magic-link: expire_in and the request id, never the URL nor any token', async () => {
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com/magic-link', method: 'POST', headers: AUTH, body: '{"expire_in":900}' })
      .reply(200, { data: { expire_in: 900, url: MAGIC_URL } }, { headers: REQ });
    const { code, stdout } = await cli(['magic-link', 'maria@example.com', '--expire-in', '15m', '--reason', 'locked out, ticket 9']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${MAGIC_URL}\n`);
    const [record, ...rest] = log();
    expect(rest).toEqual([]);
    stamp(record);
    expect(record).toMatchObject({
      command: 'magic-link', action: 'magic-link', student: 'maria@example.com', result: 'created', request_id: 'req-42',
      reason: 'locked out, ticket 9', expire_in: 900,
    });
    for (const secret of [MAGIC_URL, 'SENTINEL-LINK', '/magic/', TOKEN, DEV_TOKEN, 'SENTINEL']) expect(logText()).not.toContain(secret);
  });

  it('a token pasted into --reason is masked', async () => {
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET', headers: AUTH }).reply(200, { data: { score: 3 } });
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', headers: AUTH, body: '{"score":5}' })
      .reply(200, { data: { score: 5, posts: 0, comments: 0, replies: 0 } });
    const { code } = await cli(['scores', 'set', 's1', '5', '--quiet', '--reason', `oops ${TOKEN} and ${DEV_TOKEN}`]);
    expect(code).toBe(0);
    expect(log()[0]).toMatchObject({
      command: 'scores set', action: 'scores.set', student_id: 's1', score: 5, result: 'updated', reason: 'oops *** and ***',
      before: { score: 3 }, after: { score: 5 },
    });
    expect(logText()).not.toContain('SENTINEL');
  });

  it('grant: the subscription made, for undo to check, with the reason', async () => {
    catalog();
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(404, { message: 'Not found.' });
    pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST', headers: AUTH,
      body: '{"product_id":"p1","accession_date":"2024-01-01","expiration_date":"2025-01-01"}',
    }).reply(201, { data: SUB }, { headers: REQ });
    const { code } = await cli(['students', 'grant', 's1', 'p1', '--accession', '2024-01-01', '--expiration', '2025-01-01', '--reason', 'ticket 4411', '-q']);
    expect(code).toBe(0);
    const [record] = log();
    stamp(record);
    expect(record).toEqual({
      id: record?.id, time: record?.time, user: record?.user, host: hostname(), profile: 'default', base_url: BASE,
      command: 'students grant', action: 'grant', student: 's1', student_id: 's1', product_id: 'p1', result: 'granted',
      request_id: 'req-42', reason: 'ticket 4411',
      after: { id: 77, product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01', status: 'active', active: 1 },
    });
  });

  it('a grant that changes nothing (already held) is not recorded', async () => {
    catalog();
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB });
    const { code } = await cli(['students', 'grant', 's1', 'p1', '-q']);
    expect(code).toBe(0);
    expect(existsSync(logFile())).toBe(false);
  });

  it('revoke: the subscription as it was, to restore it', async () => {
    catalog();
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET', headers: AUTH }).reply(200, { data: MARIA });
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB });
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '', { headers: REQ });
    const { code } = await cli(['students', 'revoke', 'maria@example.com', 'p1', '--yes', '-q', '--reason', 'refund #771']);
    expect(code).toBe(0);
    expect(log()).toEqual([expect.objectContaining({
      command: 'students revoke', action: 'revoke', student: 'maria@example.com', student_id: 's1', product_id: 'p1',
      result: 'revoked', request_id: 'req-42', reason: 'refund #771',
      before: { id: 77, product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01', status: 'active', active: 1 },
    })]);
  });

  it("delete: the student's fields, to create it again", async () => {
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET', headers: AUTH }).reply(200, { data: MARIA });
    pool().intercept({ path: '/api/v1/students/s1', method: 'DELETE', headers: AUTH }).reply(204, '');
    const { code } = await cli(['students', 'delete', 's1', '--yes', '-q', '--reason', 'GDPR request #311']);
    expect(code).toBe(0);
    const [record] = log();
    expect(record).toMatchObject({ command: 'students delete', action: 'delete', student: 's1', student_id: 's1', result: 'deleted', reason: 'GDPR request #311' });
    expect(record?.request_id).toBeUndefined();
    expect(record?.before).toEqual({
      id: 's1', first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com', phone: '+55 11 91234-5678',
      birth: '1990-04-12', document: '123.456.789-09', reference_id: 'crm-1',
    });
  });

  it('create: the new id', async () => {
    pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH }).reply(201, { data: MARIA }, { headers: REQ });
    const { code } = await cli(['students', 'create', '--first-name', 'Maria', '--last-name', 'Silva', '--email', 'maria@example.com', '-q']);
    expect(code).toBe(0);
    expect(log()).toEqual([expect.objectContaining({
      command: 'students create', action: 'create', student: 'maria@example.com', student_id: 's1', result: 'created', request_id: 'req-42',
    })]);
  });

  it('a log that cannot be written: the change still succeeds, and the record goes to stderr, even with --quiet', async () => {
    mkdirSync(logFile()); // a directory where the file should be
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET', headers: AUTH }).reply(200, { data: { score: 3 } });
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', headers: AUTH }).reply(200, { data: { score: 5 } });
    const { code, stdout, stderr } = await cli(['scores', 'set', 's1', '5', '--quiet', '--reason', 'r']);
    expect(code).toBe(0);
    expect(stdout).toContain('5');
    const lines = stderr.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^warning: the change was made, but it could not be recorded in ${logFile()}: EISDIR`));
    expect(lines[1]).toMatch(/^warning: audit record: \{"id":"/);
    expect(JSON.parse((lines[1] as string).slice('warning: audit record: '.length))).toMatchObject({ command: 'scores set', score: 5, reason: 'r' });
    expect(stderr).not.toContain(TOKEN);
  });
});

describe('bulk runs', () => {
  const csv = (text: string) => {
    const path = join(configDir, 'rows.csv');
    writeFileSync(path, text);
    return path;
  };
  const NOT_HELD = { message: 'not held', exception: 'SubscriptionNotFoundException' };

  it('one record per applied row (with its line and the run id), then one for the run; skipped and failed rows are not recorded', async () => {
    catalog();
    for (const id of ['s2', 's3', 's4']) {
      pool().intercept({ path: `/api/v1/students/${id}/products/p1`, method: 'GET', headers: AUTH }).reply(id === 's3' ? 200 : 404, id === 's3' ? { data: SUB } : NOT_HELD);
    }
    pool().intercept({ path: '/api/v1/students/s2/products', method: 'POST', headers: AUTH }).reply(201, { data: SUB }, { headers: { 'x-request-id': 'r2' } });
    pool().intercept({ path: '/api/v1/students/s4/products', method: 'POST', headers: AUTH }).reply(422, { message: 'The product is closed.' });
    pool().intercept({ path: '/api/v1/students/s4/products/p1', method: 'GET', headers: AUTH }).reply(404, NOT_HELD);
    const { code } = await cli(['students', 'grant', '--file', csv('student,product_id\ns2,p1\ns3,p1\ns4,p1\n'), '--concurrency', '1', '-q', '--reason', 'spring cohort']);
    expect(code).toBe(7);
    const records = log();
    expect(records.map((r) => [r.command, r.action, r.line, r.result, r.reason])).toEqual([
      ['students grant --file', 'grant', 2, 'granted', 'spring cohort'], ['students grant --file', 'bulk', undefined, 'partial', 'spring cohort'],
    ]);
    expect(records[0]).toMatchObject({ student: 's2', student_id: 's2', product_id: 'p1', request_id: 'r2', run_id: records[1]?.id, after: { id: 77 } });
    expect(records[1]).toMatchObject({ source: join(configDir, 'rows.csv'), counts: { granted: 1, skipped: 1, failed: 1 } });
    expect(records[1]?.run_id).toBeUndefined();
    expect(existsSync(join(configDir, 'audit-intents')) ? readdirSync(join(configDir, 'audit-intents')) : []).toEqual([]);
  });

  it('revoked rows keep the subscription removed; import rows have no product', async () => {
    catalog();
    pool().intercept({ path: '/api/v1/students/s2/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB });
    pool().intercept({ path: '/api/v1/students/s2/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '');
    expect((await cli(['students', 'revoke', '--file', csv('student,product_id\ns2,p1\n'), '--yes', '-q'])).code).toBe(0);
    pool().intercept({ path: '/api/v1/students/email/new%40example.com', method: 'GET', headers: AUTH }).reply(404, { message: 'no' });
    pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH }).reply(201, { data: { ...MARIA, id: 's9', email: 'new@example.com' } });
    expect((await cli(['students', 'import', csv('first_name,last_name,email\nNew,One,new@example.com\n'), '-q'])).code).toBe(0);
    expect(log().map((r) => [r.command, r.action, r.result, r.student_id, r.product_id, r.before?.accession_date])).toEqual([
      ['students revoke --file', 'revoke', 'revoked', 's2', 'p1', '2024-01-01'], ['students revoke --file', 'bulk', 'completed', undefined, undefined, undefined],
      ['students import', 'create', 'created', 's9', undefined, undefined], ['students import', 'bulk', 'completed', undefined, undefined, undefined],
    ]);
  });

  it('records nothing for a dry run or a run that changed nothing', async () => {
    catalog();
    catalog();
    pool().intercept({ path: '/api/v1/students/s2/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB }).times(2);
    expect((await cli(['students', 'revoke', '--file', csv('student,product_id\ns2,p1\n'), '--dry-run', '-q'])).code).toBe(0);
    expect((await cli(['students', 'grant', '--file', csv('student,product_id\ns2,p1\n'), '-q'])).code).toBe(0);
    expect(existsSync(logFile())).toBe(false);
  });
});
