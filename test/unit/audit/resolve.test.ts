/**
 * Completing the changes of interrupted runs (src/audit/resolve.ts): each
 * kind of change is checked on the server and recorded applied or not; only
 * orphaned intents of the server in force are touched, each once.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newAuditId, type AuditRecord } from '../../../src/audit/log.js';
import { writeIntent, type Intent } from '../../../src/audit/intents.js';
import { checkFor, halfRenewalWarning, mayBeInFlight, orphanedIntents, pendingNotice, resolutionNotice, resolveInterrupted } from '../../../src/audit/resolve.js';
import type { AuditContext } from '../../../src/audit/stamp.js';
import { MOCK_BASE, mockApi } from '../../helpers/mock-api.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-resolve-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const { api, pool } = mockApi();
const SELF = 1000;
// A process sees itself running.
const running = new Set<number>([SELF]);

const context = (baseUrl = MOCK_BASE): AuditContext => ({
  io: { env: {}, stderr: { write: () => true }, pid: SELF, isRunning: (pid) => running.has(pid) },
  settings: async () => ({ profile: 'p', baseUrl }),
  configDir: async () => dir,
});

const T0 = Date.parse('2025-05-01T10:00:00.000Z');

function intent(fields: Partial<AuditRecord>, extra: Partial<Intent> = {}): AuditRecord {
  const record: AuditRecord = {
    id: newAuditId(T0), time: new Date(T0).toISOString(), user: 'ana', profile: 'p', base_url: MOCK_BASE,
    command: 'students grant', action: 'grant', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'granted', ...fields,
  };
  writeIntent(dir, { record, pid: 77, host: hostname(), log_offset: 0, ...extra });
  return record;
}

const log = (): AuditRecord[] => (existsSync(join(dir, 'audit.jsonl'))
  ? readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord)
  : []);
const left = () => (existsSync(join(dir, 'audit-intents')) ? readdirSync(join(dir, 'audit-intents')) : []);

const SUB = { id: 'sub-9', product_id: 'p1', accession_date: '2025-05-01', expiration_date: null, status: 'active', active: 1 };
const held = (subscription: object | undefined) => {
  const scope = pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' });
  if (subscription) scope.reply(200, { data: subscription });
  else scope.reply(404, { message: 'not held', exception: 'SubscriptionNotFoundException' });
};

const resolve = () => resolveInterrupted(context(), api(), T0 + 60_000);
const CHECKED = new Date(T0 + 60_000).toISOString();

describe('each kind of change, checked', () => {
  it('grant, held now: applied, with the subscription the server holds; the intent removed', async () => {
    const record = intent({ after: { accession_date: '2025-05-01' } });
    held(SUB);
    const resolution = await resolve();
    expect(resolution).toEqual({ counts: { applied: 1 }, halves: [], pending: [] });
    expect(log()).toEqual([{ ...record, checked: CHECKED, after: SUB }]);
    expect(left()).toEqual([]);
  });

  it('grant, not held: not applied', async () => {
    intent({});
    held(undefined);
    expect((await resolve()).counts).toEqual({ 'not applied': 1 });
    expect(log()[0]?.result).toBe('not applied');
  });

  it('grant (an undo\'s), the very subscription seen before: not applied', async () => {
    intent({ action: 'undo', result: 'granted', before: { id: 'sub-9' } });
    held(SUB);
    expect((await resolve()).counts).toEqual({ 'not applied': 1 });
  });

  it.each([
    ['gone', undefined, 'revoked'],
    ['held again under another subscription', { ...SUB, id: 'sub-10' }, 'revoked'],
    ['still the same subscription', SUB, 'not applied'],
  ])('revoke, %s: %s', async (_what, now, result) => {
    intent({ action: 'revoke', result: 'revoked', before: { id: 'sub-9' } });
    held(now);
    await resolve();
    expect(log()[0]?.result).toBe(result);
  });

  it('revoke, held, no id recorded: not applied', async () => {
    intent({ action: 'revoke', result: 'revoked', before: { id: null } });
    held(SUB);
    await resolve();
    expect(log()[0]?.result).toBe('not applied');
  });

  it('revoke, held, with no record of what was there before: not applied', async () => {
    intent({ action: 'revoke', result: 'revoked' });
    held(SUB);
    await resolve();
    expect(log()[0]?.result).toBe('not applied');
  });

  it.each([
    ['a new subscription', { ...SUB, id: 'sub-10' }, 'renewed', 'applied'],
    ['the old one still', SUB, 'not applied', 'not applied'],
    ['none: the revoke went through, the grant did not', undefined, 'revoked', 'half applied'],
  ])('renew, %s', async (_what, now, result, label) => {
    const record = intent({ action: 'renew', result: 'renewed', before: { id: 'sub-9', accession_date: '2024-01-01', expiration_date: '2024-12-31', status: 'canceled' } });
    held(now);
    const resolution = await resolve();
    expect(resolution.counts).toEqual({ [label]: 1 });
    expect(log()[0]?.result).toBe(result);
    expect(log()[0]?.after).toEqual(label === 'applied' ? { ...SUB, id: 'sub-10' } : record.after);
    expect(resolution.halves.map((r) => r.id)).toEqual(label === 'half applied' ? [record.id] : []);
  });

  it('create: the e-mail exists now (applied, with its id) or not', async () => {
    intent({ action: 'create', result: 'created', student: 'new@example.com', student_id: undefined, product_id: undefined });
    pool().intercept({ path: '/api/v1/students/email/new%40example.com', method: 'GET' })
      .reply(200, { data: { id: 's7', first_name: 'N', last_name: 'E', email: 'new@example.com' } });
    await resolve();
    expect(log()[0]).toMatchObject({ result: 'created', student_id: 's7', after: { id: 's7', email: 'new@example.com' } });
  });

  it('create: absent: not applied', async () => {
    intent({ action: 'undo', result: 'created', student: 'new@example.com', student_id: undefined, product_id: undefined });
    pool().intercept({ path: '/api/v1/students/email/new%40example.com', method: 'GET' }).reply(404, { message: 'no' });
    await resolve();
    expect(log()[0]?.result).toBe('not applied');
  });

  it.each([[404, 'deleted'], [200, 'not applied']])('delete: the student answers %i: %s', async (status, result) => {
    intent({ action: 'delete', result: 'deleted', product_id: undefined });
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(status, status === 200 ? { data: { id: 's1', email: 'm@e.com' } } : { message: 'no' });
    await resolve();
    expect(log()[0]?.result).toBe(result);
  });

  it.each([[5, 'updated'], [3, 'not applied']])('scores set to 5, the score is %i: %s', async (score, result) => {
    intent({ action: 'scores.set', result: 'updated', score: 5, product_id: undefined, before: { score: 3 } });
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET' }).reply(200, { data: { score } });
    await resolve();
    expect(log()[0]?.result).toBe(result);
    expect(log()[0]?.after).toEqual(score === 5 ? { score: 5 } : undefined);
  });

  it('a magic link cannot be checked: unknown, without a request', async () => {
    intent({ action: 'magic-link', result: 'created', product_id: undefined });
    expect((await resolve()).counts).toEqual({ unknown: 1 });
    expect(log()[0]?.result).toBe('unknown');
  });

  it('checkFor an undo follows its result; an unknown action cannot be checked', () => {
    const base = { id: 'x', time: '', user: '', profile: '', base_url: '', command: 'undo' };
    expect(checkFor({ ...base, action: 'undo', result: 'updated' })).toBe(checkFor({ ...base, action: 'scores.set', result: 'updated' }));
    expect(checkFor({ ...base, action: 'undo', result: 'revoked' })).toBe(checkFor({ ...base, action: 'revoke', result: 'revoked' }));
    expect(checkFor({ ...base, action: 'undo', result: 'renewed' })).toBe(checkFor({ ...base, action: 'renew', result: 'renewed' }));
    expect(checkFor({ ...base, action: 'undo', result: 'created' })).toBe(checkFor({ ...base, action: 'create', result: 'created' }));
    expect(checkFor({ ...base, action: 'undo', result: 'odd' })).toBe(checkFor({ ...base, action: 'magic-link', result: 'created' }));
    expect(checkFor({ ...base, action: 'bulk', result: 'completed' })).toBe(checkFor({ ...base, action: 'magic-link', result: 'created' }));
  });
});

describe('which intents are checked', () => {
  it('a live writer\'s intent is its own; another server\'s is left; a dead writer\'s or this pid\'s is checked', async () => {
    running.add(77);
    intent({});
    intent({ base_url: 'https://other.example.com' }, { pid: 78 });
    const mine = intent({ student_id: 's1' }, { pid: SELF });
    held(SUB);
    expect((await resolve()).counts).toEqual({ applied: 1 });
    expect(log().map((r) => r.id)).toEqual([mine.id]);
    expect(left()).toHaveLength(2);
    running.delete(77);
  });

  it('claimed by a run still going: left; claimed by a run that is gone: checked', async () => {
    const record = intent({});
    const folder = join(dir, 'audit-intents');
    const text = readFileSync(join(folder, `${record.id}.json`));
    rmSync(join(folder, `${record.id}.json`));
    writeFileSync(join(folder, `${record.id}.55.claim`), text);
    running.add(55);
    expect(await orphanedIntents(context(), T0)).toEqual([]);
    running.delete(55);
    held(SUB);
    expect((await resolve()).counts).toEqual({ applied: 1 });
    expect(left()).toEqual([]);
  });

  it('another machine\'s intent waits a day', async () => {
    intent({}, { host: 'elsewhere' });
    expect(await orphanedIntents(context(), T0 + 24 * 3600_000)).toEqual([]);
    expect(await orphanedIntents(context(), T0 + 25 * 3600_000)).toHaveLength(1);
  });

  it('an outcome already in the log (killed between the two writes): the intent is removed, nothing checked or written again', async () => {
    const record = intent({});
    writeFileSync(join(dir, 'audit.jsonl'), `${JSON.stringify({ ...record, after: SUB })}\n`);
    expect(await resolve()).toEqual({ counts: {}, halves: [], pending: [] });
    expect(log()).toHaveLength(1);
    expect(left()).toEqual([]);
  });

  it('a check that fails (the network) leaves the intent, claimed, for a later run', async () => {
    intent({});
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' }).replyWithError(new Error('ECONNRESET'));
    expect((await resolve()).counts).toEqual({});
    expect(log()).toEqual([]);
    expect(left()).toEqual([expect.stringMatching(new RegExp(`\\.${SELF}\\.claim$`))]);
  });

  it('an unreadable intent file is not checked', async () => {
    mkdirSync(join(dir, 'audit-intents'));
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00aa.json'), '');
    expect(await orphanedIntents(context())).toEqual([]);
  });
});

describe('a change whose request may still be on its way (before its deadline)', () => {
  const DEADLINE = new Date(T0 + 120_000).toISOString();
  const intentPath = (id: string) => join(dir, 'audit-intents', `${id}.json`);

  it('found not applied before the deadline: left pending, unclaimed and unchanged; nothing recorded', async () => {
    const record = intent({}, { deadline: DEADLINE });
    const text = readFileSync(intentPath(record.id), 'utf8');
    held(undefined);
    const resolution = await resolve();
    expect(resolution).toEqual({ counts: {}, halves: [], pending: [expect.objectContaining({ record, deadline: DEADLINE })] });
    expect(log()).toEqual([]);
    expect(left()).toEqual([`${record.id}.json`]);
    expect(readFileSync(intentPath(record.id), 'utf8')).toBe(text);
  });

  it('then applied by the server: the next check, still before the deadline, records it applied', async () => {
    const record = intent({}, { deadline: DEADLINE });
    held(undefined);
    await resolve();
    held(SUB);
    expect(await resolve()).toEqual({ counts: { applied: 1 }, halves: [], pending: [] });
    expect(log()).toEqual([{ ...record, checked: CHECKED, after: SUB }]);
    expect(left()).toEqual([]);
  });

  it('found applied before the deadline: recorded at once', async () => {
    intent({}, { deadline: DEADLINE });
    held(SUB);
    expect((await resolve()).counts).toEqual({ applied: 1 });
    expect(left()).toEqual([]);
  });

  it('a renewal found half done before the deadline: its grant may still come, pending', async () => {
    intent({ action: 'renew', result: 'renewed', before: { id: 'sub-9' } }, { deadline: DEADLINE });
    held(undefined);
    const resolution = await resolve();
    expect(resolution.counts).toEqual({});
    expect(resolution.halves).toEqual([]);
    expect(resolution.pending).toHaveLength(1);
  });

  it('found not applied at the deadline or after: not applied', async () => {
    intent({}, { deadline: new Date(T0 + 60_000).toISOString() });
    held(undefined);
    expect((await resolve()).counts).toEqual({ 'not applied': 1 });
    expect(log()[0]?.result).toBe('not applied');
  });

  it.each([
    ['not applied', T0, true],
    ['revoked', T0, true],
    ['unknown', T0, false],
    [undefined, T0, false],
    ['not applied', T0 + 120_000, false],
  ])('mayBeInFlight: %s at %i: %s', (result, now, expected) => {
    const found: Intent = { record: intent({}), pid: 77, host: 'h', log_offset: 0, deadline: DEADLINE };
    expect(mayBeInFlight(found, result === undefined ? {} : { result }, now)).toBe(expected);
  });

  it('an intent without a deadline (written before it had one): concluded at once, as before', () => {
    const found: Intent = { record: intent({}), pid: 77, host: 'h', log_offset: 0 };
    expect(mayBeInFlight(found, { result: 'not applied' }, T0)).toBe(false);
  });

  it('the notice: how many are still in flight, and when they can be checked', () => {
    const record = intent({});
    const pending = (deadlines: number[]) => ({ counts: {}, halves: [], pending: deadlines.map((at) => ({ record, pid: 1, host: 'h', log_offset: 0, deadline: new Date(at).toISOString() })) });
    expect(pendingNotice(pending([]), T0)).toBeUndefined();
    expect(pendingNotice(pending([T0 + 41_200]), T0)).toBe('1 change from an interrupted run is still in flight on the server and will be checked later '
      + '(by a command run in 42 s or more); until then it is pending, not recorded');
    expect(pendingNotice(pending([T0 + 5_000, T0 + 9_000]), T0)).toBe('2 changes from interrupted runs are still in flight on the server and will be checked later '
      + '(by a command run in 9 s or more); until then they are pending, not recorded');
  });
});

describe('a change done since by another, recorded run (a re-run of the same file)', () => {
  const DEADLINE = new Date(T0 + 120_000).toISOString();
  const later = (fields: Partial<AuditRecord>) => JSON.stringify({
    id: newAuditId(T0 + 1000), time: new Date(T0 + 1000).toISOString(), user: 'ana', profile: 'p', base_url: MOCK_BASE,
    command: 'students grant --file', action: 'grant', student_id: 's1', product_id: 'p1', result: 'granted', ...fields,
  });
  const logHolds = (...lines: string[]) => writeFileSync(join(dir, 'audit.jsonl'), lines.map((line) => `${line}\n`).join(''));

  it('a grant: the subscription found is the one a later grant recorded: not applied, before the deadline too', async () => {
    intent({}, { deadline: DEADLINE });
    logHolds(later({ after: { id: 'sub-9' } }));
    held(SUB);
    expect((await resolve()).counts).toEqual({ 'not applied': 1 });
    expect(log()[1]?.result).toBe('not applied');
    expect(left()).toEqual([]);
  });

  it('a revoke: a later revoke removed the very subscription it meant to: not applied', async () => {
    intent({ action: 'revoke', result: 'revoked', before: { id: 'sub-9' } });
    logHolds(later({ action: 'revoke', result: 'revoked', before: { id: 'sub-9' } }));
    held(undefined);
    expect((await resolve()).counts).toEqual({ 'not applied': 1 });
  });

  it.each<[string, Partial<AuditRecord>]>([
    ['another subscription', { after: { id: 'sub-8' } }],
    ['another student', { student_id: 's2', after: { id: 'sub-9' } }],
    ['another product', { product_id: 'p2', after: { id: 'sub-9' } }],
    ['another kind of change', { action: 'revoke', result: 'revoked', after: { id: 'sub-9' } }],
    ['no subscription id', { after: {} }],
  ])('a later record of %s: applied', async (_what, fields) => {
    intent({}, { deadline: DEADLINE });
    logHolds('{"torn', later(fields));
    held(SUB);
    expect((await resolve()).counts).toEqual({ applied: 1 });
  });

  it('a record before the intent was written is not a later change', async () => {
    logHolds(later({ after: { id: 'sub-9' } }));
    intent({}, { log_offset: readFileSync(join(dir, 'audit.jsonl')).length });
    held(SUB);
    expect((await resolve()).counts).toEqual({ applied: 1 });
  });

  it('a revoke without a recorded subscription id is never taken for a later one\'s', async () => {
    intent({ action: 'revoke', result: 'revoked' });
    logHolds(later({ action: 'revoke', result: 'revoked' }));
    held(undefined);
    expect((await resolve()).counts).toEqual({ applied: 1 });
  });
});

describe('only once, only orphans', () => {
  it('two runs resolving at once: one claims the change, one record', async () => {
    intent({});
    pool().intercept({ path: '/api/v1/students/s1/products/p1', method: 'GET' }).reply(200, { data: SUB }).persist();
    const [first, second] = await Promise.all([resolve(), resolve()]);
    expect([first.counts, second.counts].filter((counts) => counts.applied === 1)).toHaveLength(1);
    expect(log()).toHaveLength(1);
    expect(left()).toEqual([]);
  });

  it('without intents, the settings are not even read', async () => {
    const broken: AuditContext = { ...context(), settings: async () => {
      throw new Error('no settings');
    } };
    expect(await orphanedIntents(broken)).toEqual([]);
    expect(await resolveInterrupted(broken, api())).toEqual({ counts: {}, halves: [], pending: [] });
  });

  it('another server\'s intent is never an orphan of this one', async () => {
    intent({ base_url: 'https://other.example.com' });
    expect(await orphanedIntents(context())).toEqual([]);
  });

  it('an Io that cannot tell whether a process runs: every intent is an orphan', async () => {
    const record = intent({});
    const blind: AuditContext = { ...context(), io: { env: {}, stderr: { write: () => true } } };
    expect((await orphanedIntents(blind)).map((found) => found.id)).toEqual([record.id]);
  });
});

describe('what the user is told', () => {
  it.each([
    [{}, undefined],
    [{ applied: 1 }, '1 change from an interrupted run was checked: applied'],
    [{ 'not applied': 1 }, '1 change from an interrupted run was checked: not applied'],
    [{ applied: 2 }, '2 changes from interrupted runs were checked: 2 applied'],
    [{ applied: 2, 'not applied': 1 }, '3 changes from interrupted runs were checked: 2 applied, 1 not applied'],
  ])('%j: %s', (counts, text) => {
    expect(resolutionNotice({ counts, halves: [], pending: [] })).toBe(text);
  });

  it('a half renewal without a status: none is named', () => {
    const text = halfRenewalWarning({
      id: 'abc', time: '', user: '', profile: '', base_url: '', command: 'students grant', action: 'renew', result: 'revoked',
      student_id: 's1', product_id: 'p1', before: { accession_date: '2024-01-01', expiration_date: '2024-12-31' },
    });
    expect(text).toContain('(renewing product p1 of s1)');
    expect(text).toContain('(accession 2024-01-01, expiration 2024-12-31);');
  });

  it('a half renewal: what was lost, and the undo that gives it back', () => {
    const text = halfRenewalWarning({
      id: 'abc', time: '', user: '', profile: '', base_url: '', command: 'students grant', action: 'renew', result: 'revoked',
      student: 'maria@example.com', product_id: 'p1', before: { accession_date: '2024-01-01 00:00:00', expiration_date: null, status: 'canceled' },
    });
    expect(text).toBe('change abc (renewing product p1 of maria@example.com) was interrupted between its revoke and its grant: the student no longer has '
      + 'the subscription (accession 2024-01-01, expiration none, status canceled); `members undo abc` grants it again with those dates');
  });
});
