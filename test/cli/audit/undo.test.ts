/** `members undo AUDIT_ID` in process against an undici MockAgent. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { appendAudit, type AuditRecord } from '../../../src/audit/log.js';
import { main } from '../../../src/main.js';
import { fakeIo, type FakeIoOptions } from '../../helpers/fake-io.js';
import { BASE, DELETE, GRANT, REVOKE, SNAPSHOT, rec } from '../../helpers/audit-records.js';

const TOKEN = 'tok_API_SENTINEL_0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const ANNOUNCE = '→ default (members.example.com)\n';

let agent: MockAgent;
let configDir: string;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  configDir = mkdtempSync(join(tmpdir(), 'members-undo-'));
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  rmSync(configDir, { recursive: true, force: true });
});

async function cli(args: string[], io: FakeIoOptions = {}, env: Record<string, string> = {}) {
  const fake = fakeIo({ ...io, env: { MEMBERS_BASE_URL: BASE, MEMBERS_TOKEN: TOKEN, MEMBERS_CONFIG_DIR: configDir, ...env } });
  const code = await main(args, fake.io, { dispatcher: agent });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const pool = () => agent.get(BASE);
const logFile = () => join(configDir, 'audit.jsonl');
const log = () => (existsSync(logFile()) ? readFileSync(logFile(), 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditRecord);

const SUB = { ...SNAPSHOT, product: { id: 'p1', title: 'Yoga' } };
const MARIA = { id: 's1', first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' };


describe('undo a grant', () => {
  it('revokes the subscription when it is as it was granted, and records the undo', async () => {
    appendAudit(configDir, GRANT);
    // The check against the record, then the re-read right before the revoke (compare before destroy).
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: SUB }).times(2);
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'DELETE', headers: AUTH }).reply(204, '', { headers: { 'x-request-id': 'req-9' } });
    const { code, stdout, stderr } = await cli(['undo', 'g1', '--yes', '--reason', 'granted by mistake']);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: `${ANNOUNCE}✓ Undid g1: revoked product p1 from maria@example.com\n` });
    const undo = log()[1];
    expect(undo).toMatchObject({
      command: 'undo', action: 'undo', undoes: 'g1', student: 'maria@example.com', student_id: 's1', product_id: 'p1',
      result: 'revoked', request_id: 'req-9', reason: 'granted by mistake', before: SNAPSHOT,
    });
  });

  it('refuses with exit 5, sending nothing, when the subscription changed since', async () => {
    appendAudit(configDir, GRANT);
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: { ...SUB, expiration_date: '2026-01-01' } });
    const { code, stderr } = await cli(['undo', 'g1', '--yes']);
    expect(code).toBe(5);
    expect(stderr).toBe('error: cannot undo g1: the subscription of maria@example.com to product p1 changed since it was granted '
      + '(expiration 2025-01-01 → 2026-01-01); nothing was sent. Look at `members students products maria@example.com` and revoke by hand if it is still wanted\n');
    expect(log()).toHaveLength(1);
  });

  it('refuses with exit 5 when the product was revoked since', async () => {
    appendAudit(configDir, GRANT);
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET', headers: AUTH }).reply(200, { data: MARIA });
    const { code, stderr } = await cli(['undo', 'g1', '--yes']);
    expect(code).toBe(5);
    expect(stderr).toBe('error: cannot undo g1: maria@example.com no longer has product p1; nothing was sent\n');
  });
});

describe('undo a revoke', () => {
  it('grants the product again with the recorded dates and prints the new subscription', async () => {
    appendAudit(configDir, REVOKE);
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(404, { message: 'Not found.' });
    pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST', headers: AUTH,
      body: '{"product_id":"p1","accession_date":"2024-01-01","expiration_date":"2025-01-01"}',
    }).reply(201, { data: { ...SUB, id: 78 } });
    const { code, stdout, stderr } = await cli(['undo', 'r1', '--yes', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: 78, accession_date: '2024-01-01', expiration_date: '2025-01-01' });
    expect(stderr).toBe(`${ANNOUNCE}✓ Undid r1: granted product p1 to maria@example.com again (accession 2024-01-01, expiration 2025-01-01); `
      + 'it is a new subscription, with the status and access the server gives a grant\n');
    expect(log()[1]).toMatchObject({ action: 'undo', undoes: 'r1', result: 'granted', after: { ...SNAPSHOT, id: 78 } });
  });

  it('refuses with exit 5 when the student has the product again', async () => {
    appendAudit(configDir, REVOKE);
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET', headers: AUTH }).reply(200, { data: { ...SUB, accession_date: '2025-06-01' } });
    const { code, stderr } = await cli(['undo', 'r1', '--yes']);
    expect(code).toBe(5);
    expect(stderr).toBe('error: cannot undo r1: maria@example.com has product p1 again since it was revoked '
      + '(accession 2025-06-01, expiration 2025-01-01); nothing was sent\n');
  });
});

describe('undo a delete', () => {
  it('creates the student again from the recorded fields, with a new id', async () => {
    appendAudit(configDir, DELETE);
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET', headers: AUTH }).reply(404, { message: 'Not found.' });
    pool().intercept({
      path: '/api/v1/students', method: 'POST', headers: AUTH,
      body: '{"first_name":"Maria","last_name":"Silva","email":"maria@example.com","birth":"1990-04-12","document":"123"}',
    }).reply(201, { data: { ...MARIA, id: 's9' } });
    const { code, stderr } = await cli(['undo', 'd1', '--yes', '--quiet']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(log()[1]).toMatchObject({ action: 'undo', undoes: 'd1', result: 'created', student: 'maria@example.com', student_id: 's9' });
  });

  it('names the student as every message does (name <e-mail>), in the question and in the notice', async () => {
    appendAudit(configDir, DELETE);
    const refused = await cli(['undo', 'd1']);
    expect(refused).toMatchObject({ code: 2 });
    expect(refused.stderr).toContain('error: Undo d1: create student Maria Silva <maria@example.com> again, with a new id: confirmation needed');

    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET', headers: AUTH }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students', method: 'POST', headers: AUTH }).reply(201, { data: { ...MARIA, id: 's9' } });
    const { code, stderr } = await cli(['undo', 'd1', '--yes', '-o', 'json']);
    expect(code).toBe(0);
    expect(stderr.split('\n').filter((line) => line.startsWith('✓'))).toEqual([
      '✓ Undid d1: created Maria Silva <maria@example.com> again as a new student, id s9 (was s1); its products, scores and progress are not restored',
    ]);
  });

  it('refuses with exit 5 when the e-mail is taken again', async () => {
    appendAudit(configDir, DELETE);
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET', headers: AUTH }).reply(200, { data: { ...MARIA, id: 's5' } });
    const { code, stderr } = await cli(['undo', 'd1', '--yes']);
    expect(code).toBe(5);
    expect(stderr).toBe('error: cannot undo d1: a student with e-mail maria@example.com exists again (id s5); nothing was sent\n');
  });
});

describe('undo refused from the log alone: exit 2, no request', () => {
  const refused = async (records: AuditRecord[], id: string, message: string, args: string[] = ['--yes'], env: Record<string, string> = {}) => {
    appendAudit(configDir, records);
    expect(await cli(['undo', id, ...args], {}, env)).toEqual({ code: 2, stdout: '', stderr: `error: ${message}\n` });
  };

  it('an unknown id', () => refused([GRANT], 'nope', `no change with id nope in ${logFile()}; \`members history\` lists the ids of the changes`));

  it('a change already undone', () => refused(
    [GRANT, rec('u1', { command: 'undo', action: 'undo', undoes: 'g1', result: 'revoked', time: '2025-03-02T00:00:00.000Z' })],
    'g1', 'change g1 was already undone by u1 (2025-03-02T00:00:00.000Z by ana); see `members history`',
  ));

  it('a create, a score, a magic link, a run without changes', async () => {
    await refused([rec('c1', { action: 'create', result: 'created', command: 'students create' })], 'c1',
      'change c1 created a student; creating cannot be undone. If it was a mistake, delete the student: `members students delete s1`');
    await refused([rec('k1', { action: 'scores.set', result: 'updated', score: 4 })], 'k1',
      'change k1 set a score before scores were recorded for undo; it cannot be undone. Set it by hand with `members scores set maria@example.com SCORE`');
    await refused([rec('m1', { action: 'magic-link', result: 'created', expire_in: 3600 })], 'm1',
      'change m1 created a magic link; a link cannot be withdrawn, it expires by itself 3600s after 2025-03-01T10:00:00.000Z');
    await refused([rec('b1', { action: 'bulk', result: 'completed', counts: { granted: 3 } })], 'b1',
      'run b1 (students grant) recorded no change; there is nothing to undo');
  });

  it('a change made on another server', () => refused([GRANT], 'g1',
    'change g1 was made on https://members.example.com (profile default), but the profile in force is default (https://staging.example.com); run again with --profile default',
    ['--yes'], { MEMBERS_BASE_URL: 'https://staging.example.com/' }));

  it('no terminal and no --yes', () => refused([GRANT], 'g1',
    'Undo g1: revoke product p1 from maria@example.com: confirmation needed but stdin is not a terminal; pass --yes to proceed', []));
});
