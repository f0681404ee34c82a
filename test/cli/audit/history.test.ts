/** `members history`: filters, order, formats; reading only the local log, never the network. */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit, type AuditRecord } from '../../../src/audit/log.js';
import { historyFilter } from '../../../src/commands/history/actions.js';
import { NewestRecords, selectHistory, selectHistoryPositions } from '../../../src/audit/select.js';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

let configDir: string;

beforeEach(() => {
  configDir = mkdtempSync(join(tmpdir(), 'members-history-'));
});

afterEach(() => {
  rmSync(configDir, { recursive: true, force: true });
});

const stamp = { user: 'ana', profile: 'production', base_url: 'https://members.example.com' };
const rec = (id: string, time: string, fields: Partial<AuditRecord>): AuditRecord => ({
  id, time, ...stamp, command: 'students grant', action: 'grant', result: 'granted', ...fields,
});

/** In file order; the times are not in order (two runs raced), and the e-mail's changes are partly by id. */
const RECORDS: AuditRecord[] = [
  rec('a1', '2025-03-01T10:00:00.000Z', { student: 'maria@example.com', student_id: 's1', product_id: 'p1', reason: 'ticket 1' }),
  rec('a2', '2025-03-02T09:00:00.000Z', { command: 'scores set', action: 'scores.set', result: 'updated', student: 's1', student_id: 's1', score: 3 }),
  rec('a4', '2025-03-04T08:00:00.000Z', { command: 'students revoke', action: 'revoke', result: 'revoked', student: 'doc:123', student_id: 's2', product_id: 'p1' }),
  rec('a3', '2025-03-03T12:30:00.000Z', { command: 'magic-link', action: 'magic-link', result: 'created', student: 'Maria@Example.com', expire_in: 3600 }),
  rec('a5', '2025-03-04T08:00:00.000Z', { command: 'undo', action: 'undo', result: 'granted', student: 'doc:123', student_id: 's2', product_id: 'p1', undoes: 'a4' }),
];

const ids = (records: AuditRecord[]) => records.map((record) => record.id);

describe('selectHistory', () => {
  it('orders newest first, by time then by position in the file', async () => {
    expect(ids(await selectHistory(() => RECORDS, {}))).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
  });

  it('--student matches the student as given (e-mails without case) or its id, and the changes made by that id', async () => {
    expect(ids(await selectHistory(() => RECORDS, { student: 'maria@example.com' }))).toEqual(['a3', 'a2', 'a1']);
    expect(ids(await selectHistory(() => RECORDS, { student: 's1' }))).toEqual(['a2', 'a1']);
    expect(ids(await selectHistory(() => RECORDS, { student: 'doc:123' }))).toEqual(['a5', 'a4']);
    expect(ids(await selectHistory(() => RECORDS, { student: 'nobody@example.com' }))).toEqual([]);
  });

  it('a run is one entry (its own record, or derived from its changes when it was killed before writing it); --run lists its changes', async () => {
    const run = [
      rec('r1', '2025-03-05T10:00:01.000Z', { command: 'sync', student: 'a@example.com', product_id: 'p1', run_id: 'R' }),
      rec('r2', '2025-03-05T10:00:02.000Z', { command: 'sync', action: 'revoke', result: 'revoked', student: 'b@example.com', product_id: 'p1', run_id: 'R' }),
      rec('R', '2025-03-05T10:00:03.000Z', { command: 'sync', action: 'bulk', result: 'completed', counts: { granted: 1, revoked: 1 } }),
      rec('k2', '2025-03-06T10:00:02.000Z', { command: 'sync', action: 'revoke', result: 'revoked', student: 'd@example.com', product_id: 'p1', run_id: 'K', reason: 'nightly' }),
      rec('k1', '2025-03-06T10:00:00.000Z', { command: 'sync', student: 'c@example.com', product_id: 'p1', run_id: 'K', reason: 'nightly' }),
      rec('k3', '2025-03-06T10:00:01.000Z', { command: 'sync', student: 'e@example.com', product_id: 'p1', run_id: 'K', reason: 'nightly' }),
    ];
    const log = () => [...RECORDS, ...run];
    const all = await selectHistory(log, {});
    expect(ids(all)).toEqual(['K', 'R', 'a5', 'a4', 'a3', 'a2', 'a1']);
    // Shown at its newest change's time, with what its changes say.
    expect(all[0]).toEqual({ id: 'K', time: '2025-03-06T10:00:02.000Z', ...stamp, command: 'sync', action: 'bulk', result: 'interrupted', reason: 'nightly', counts: { revoked: 1, granted: 2 } });
    expect(ids(await selectHistory(log, { since: new Date('2025-03-06T10:00:01.500Z') }))).toEqual(['K']);
    const positions = await selectHistoryPositions(async function* () {
      for (const [index, record] of log().entries()) yield { record, at: { offset: index, length: 1 } };
    }, {});
    expect(positions[0]).toEqual(all[0]);
    expect(positions[1]).toEqual({ offset: RECORDS.length + 2, length: 1 });
    expect(ids(await selectHistory(log, { run: 'R' }))).toEqual(['r2', 'r1']);
    expect(ids(await selectHistory(log, { run: 'K' }))).toEqual(['k2', 'k3', 'k1']);
    expect(ids(await selectHistory(log, { run: 'nope' }))).toEqual([]);
    // About one student, the change itself.
    expect(ids(await selectHistory(log, { student: 'b@example.com' }))).toEqual(['r2']);
    expect(() => historyFilter({ run: 'R', student: 'x' })).toThrow('--run and --student go apart: --run lists every change of one run');
    expect(() => historyFilter({ run: ' ' })).toThrow('--run cannot be empty');
    expect(historyFilter({ run: ' R ' }).run).toBe('R');
  });

  it('--since keeps changes from the start of that day, local time; --limit the N newest', async () => {
    const since = historyFilter({ since: '2025-03-03' }).since as Date;
    expect(since.getTime()).toBe(new Date(2025, 2, 3).getTime());
    const atMidnight = (id: string) => rec(id, since.toISOString(), {});
    const justBefore = (id: string) => rec(id, new Date(since.getTime() - 1).toISOString(), {});
    expect(ids(await selectHistory(() => [justBefore('b'), atMidnight('m')], { since }))).toEqual(['m']);
    expect(ids(await selectHistory(() => RECORDS, { limit: 2 }))).toEqual(['a5', 'a4']);
    expect(ids(await selectHistory(() => RECORDS, { student: 'maria@example.com', limit: 1 }))).toEqual(['a3']);
  });

  it('with --limit, holds at most 2 × N + 64 records while reading, and still gives the N newest', () => {
    const many = Array.from({ length: 5000 }, (_, i) => rec(`r${i}`, new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % 5000) * 60_000).toISOString(), {}));
    const kept = new NewestRecords(3);
    let most = 0;
    for (const record of many) {
      kept.add(record);
      most = Math.max(most, kept.size);
    }
    expect(most).toBeLessThanOrEqual(2 * 3 + 64);
    expect(kept.newest().map((record) => record.time)).toEqual(many.map((record) => record.time).sort().reverse().slice(0, 3));
  });
});

describe('selectHistoryPositions', () => {
  it('holds where the chosen records lie, not the records, newest first as selectHistory orders them', async () => {
    const located = RECORDS.map((record, i) => ({ record, at: { offset: i * 100, length: 99 } }));
    const at = (id: string) => located.find((item) => item.record.id === id)?.at;
    expect(await selectHistoryPositions(() => located, { student: 'maria@example.com' })).toEqual(['a3', 'a2', 'a1'].map(at));
    expect(await selectHistoryPositions(() => located, { limit: 2 })).toEqual(['a5', 'a4'].map(at));
  });
});

describe('members history', () => {
  async function cli(args: string[]) {
    const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: configDir } });
    const code = await main(args, fake.io);
    return { code, stdout: fake.stdout(), stderr: fake.stderr() };
  }

  it('prints a table, newest first, without any profile or network', async () => {
    appendAudit(configDir, RECORDS);
    const { code, stdout, stderr } = await cli(['history', '--limit', '3']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe([
      // Offline (no profile): no product titles, the ids alone.
      'TIME              USER  PROFILE     COMMAND          STUDENT            PRODUCT  PRODUCT ID  RESULT   REASON  ID',
      '2025-03-04 08:00  ana   production  undo             doc:123                     p1          granted          a5',
      '2025-03-04 08:00  ana   production  students revoke  doc:123                     p1          revoked          a4',
      '2025-03-03 12:30  ana   production  magic-link       Maria@Example.com                       created          a3',
      '',
    ].join('\n'));
  });

  it('json gives whole records with the same leading keys; ndjson one per line; csv a header of those keys', async () => {
    appendAudit(configDir, RECORDS);
    const json = await cli(['history', '--student', 's2', '-o', 'json']);
    expect(json.code).toBe(0);
    const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(records.map((r) => r.id)).toEqual(['a5', 'a4']);
    expect(Object.keys(records[1] ?? {})).toEqual([
      'id', 'time', 'user', 'profile', 'base_url', 'command', 'action', 'student', 'student_id', 'product_id', 'result', 'request_id', 'reason',
    ]);
    expect(records[0]).toMatchObject({ reason: null, undoes: 'a4' });

    const ndjson = await cli(['history', '--since', '2025-03-04', '-o', 'ndjson']);
    expect(ndjson.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as AuditRecord).id)).toEqual(['a5', 'a4']);

    const csv = await cli(['history', '--student', 'doc:123', '--limit', '1', '-o', 'csv']);
    expect(csv.stdout).toBe([
      'id,time,user,profile,base_url,command,action,student,student_id,product_id,result,request_id,reason,undoes',
      'a5,2025-03-04T08:00:00.000Z,ana,production,https://members.example.com,undo,undo,doc:123,s2,p1,granted,,,a4',
      '',
    ].join('\n'));
  });

  it('no log yet: the "No … found" notice in table mode, [] in json; exit 0', async () => {
    expect(await cli(['history'])).toEqual({ code: 0, stdout: '', stderr: 'No audit records found\n' });
    expect(await cli(['history', '--json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('skips an invalid line with a warning', async () => {
    appendAudit(configDir, RECORDS.slice(0, 1));
    appendFileSync(join(configDir, 'audit.jsonl'), '{"id":"torn","ti\n');
    const { code, stdout, stderr } = await cli(['history', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toBe(`warning: skipped line 2 of ${join(configDir, 'audit.jsonl')}: not a valid audit record\n`);
  });

  it('invalid --since or --limit: exit 2', async () => {
    expect(await cli(['history', '--since', '2025-02-30'])).toEqual({
      code: 2, stdout: '', stderr: 'error: invalid --since "2025-02-30": expected a real calendar date as YYYY-MM-DD\n',
    });
    expect((await cli(['history', '--limit', '0'])).code).toBe(2);
    expect((await cli(['history', '--student', ' '])).code).toBe(2);
  });
});
