/**
 * The change record, intent first (src/audit/journal.ts, intents.ts): the
 * intent is on disk before the request, the outcome completes it, a refusal
 * drops it, an unknown outcome leaves it; a run groups its records.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, openRun, provesNothingChanged, recorded, type AuditRecord, type ChangeGate } from '../../../src/audit/index.js';
import { inFlightMs } from '../../../src/audit/journal.js';
import { claimIntent, listIntents, removeIntent, type Intent } from '../../../src/audit/intents.js';
import { recordedSince } from '../../../src/audit/resolve.js';
import type { AuditContext } from '../../../src/audit/stamp.js';
import { ApiError, ExitCode, InterruptedError, RejectedError, TransientError } from '../../../src/lib/errors.js';

let dir: string;
const written: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-journal-'));
  written.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const context = (pid = 4242, settings = { profile: 'production', baseUrl: 'https://members.example.com/', token: 'tok_SECRET_123456' }): AuditContext => ({
  io: { env: {}, stderr: { write: (chunk: string) => written.push(chunk) > 0 }, pid },
  settings: async () => settings,
  configDir: async () => dir,
});

const log = (): AuditRecord[] => (existsSync(join(dir, 'audit.jsonl'))
  ? readFileSync(join(dir, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord)
  : []);
const intents = () => (existsSync(join(dir, 'audit-intents')) ? readdirSync(join(dir, 'audit-intents')) : []);
const intentOf = (id: string) => JSON.parse(readFileSync(join(dir, 'audit-intents', `${id}.json`), 'utf8')) as Intent;

const GRANT = { action: 'grant', result: 'granted', student: 'maria@example.com', student_id: 's1', product_id: 'p1' } as const;
const refused = new RejectedError('refused', ExitCode.rejected, { method: 'POST', path: '/x' }, 422);

describe('a change', () => {
  it('is on disk as an intent before the request, 0600 in a 0700 directory, with the writer and where the log ended', async () => {
    writeFileSync(join(dir, 'audit.jsonl'), '{"id":"a"}\n'.repeat(2));
    const journal = await openJournal(context(), { command: 'students grant', reason: 'ticket tok_SECRET_123456' });
    const change = await journal.begin({ ...GRANT, after: { accession_date: '2025-01-02' } });
    const intent = intentOf(change.id);
    expect(intent).toMatchObject({
      pid: 4242, log_offset: 22,
      record: { id: change.id, profile: 'production', base_url: 'https://members.example.com', command: 'students grant', ...GRANT, reason: 'ticket ***' },
    });
    expect(typeof intent.host).toBe('string');
    expect(statSync(join(dir, 'audit-intents', `${change.id}.json`)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'audit-intents')).mode & 0o777).toBe(0o700);
    expect(log()).toHaveLength(2);
  });

  it('names its command, as bound, or as an undo sets it', async () => {
    const journal = await openJournal(context(), { command: 'students grant' });
    expect(journal.command).toBe('students grant');
    expect(journal.with({ line: 2 }).command).toBe('students grant');
    expect(journal.as({ command: 'undo' }).command).toBe('undo');
  });

  it('its deadline: the intent\'s time + --timeout × attempts, past which its request can no longer be on its way', async () => {
    const journal = await openJournal({ ...context(), globals: { timeoutMs: 5_000, retries: 2 } }, { command: 'students grant' });
    const intent = intentOf((await journal.begin(GRANT)).id);
    expect(Date.parse(intent.deadline as string) - Date.parse(intent.record.time)).toBe(15_000);
  });

  it.each<[AuditContext['globals'], AuditRecord['action'], string, number]>([
    [{ timeoutMs: 5_000, retries: 2 }, 'grant', 'granted', 15_000],
    [{ timeoutMs: 5_000, retries: 0 }, 'revoke', 'revoked', 5_000],
    [{ timeoutMs: 5_000, retries: 1 }, 'renew', 'renewed', 20_000],
    [{ timeoutMs: 5_000, retries: 1 }, 'undo', 'renewed', 20_000],
    [{ timeoutMs: 5_000, retries: 1 }, 'undo', 'granted', 10_000],
    [undefined, 'grant', 'granted', 120_000],
  ])('inFlightMs with %j, %s %s: %i ms (a renewal sends two requests; without globals, 30 s and 3 retries)', (globals, action, result, ms) => {
    expect(inFlightMs(globals, { action, result })).toBe(ms);
  });

  it('applied: one record with what begin said and the details on top, the intent gone, the intent\'s id and time kept', async () => {
    const journal = await openJournal(context(), { command: 'students grant' });
    const change = await journal.begin(GRANT);
    const { time } = intentOf(change.id).record;
    await expect(change.applied({ request_id: 'req-1', after: { id: 9 } })).resolves.toBe(change.id);
    expect(log()).toEqual([expect.objectContaining({ id: change.id, time, command: 'students grant', ...GRANT, request_id: 'req-1', after: { id: 9 } })]);
    expect(log()[0]?.checked).toBeUndefined();
    expect(intents()).toEqual([]);
  });

  it('refused by the server (4xx): the intent is dropped and nothing recorded', async () => {
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    await change.failed(refused);
    expect(intents()).toEqual([]);
    expect(log()).toEqual([]);
  });

  it.each([
    ['a 5xx', new TransientError('down', ExitCode.transient, { method: 'POST', path: '/x' }, 503)],
    ['a timeout (no status)', new TransientError('timeout', ExitCode.transient, { method: 'POST', path: '/x' })],
    ['an interrupt', new InterruptedError()],
    ['a bug', new Error('boom')],
  ])('failed with %s: the outcome is unknown, the intent stays for the next run', async (_what, error) => {
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    await change.failed(error);
    expect(intents()).toEqual([`${change.id}.json`]);
    expect(log()).toEqual([]);
  });

  it('dropped: nothing changed after all', async () => {
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    change.dropped();
    expect(intents()).toEqual([]);
    expect(log()).toEqual([]);
  });

  it('an intent that cannot be written does not stop the change; its outcome is still recorded', async () => {
    writeFileSync(join(dir, 'audit-intents'), 'a file where the directory should be');
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    await change.applied();
    expect(log()).toEqual([expect.objectContaining({ id: change.id, ...GRANT })]);
  });

  it('with(): fields on every record of the derived journal only', async () => {
    const journal = await openJournal(context(), { command: 'students grant' });
    await (await journal.with({ line: 7 }).begin(GRANT)).applied();
    await (await journal.begin(GRANT)).applied();
    expect(log().map((record) => record.line)).toEqual([7, undefined]);
  });
});

describe('provesNothingChanged', () => {
  it.each([[400, true], [401, true], [404, true], [422, true], [429, true], [499, true], [500, false], [503, false], [399, false]])('status %i: %s', (status, expected) => {
    expect(provesNothingChanged(new ApiError('x', ExitCode.rejected, { method: 'POST', path: '/x' }, status))).toBe(expected);
  });

  it('no status (the network), or not an API error: unknown', () => {
    expect(provesNothingChanged(new ApiError('x', ExitCode.transient, { method: 'POST', path: '/x' }))).toBe(false);
    expect(provesNothingChanged(new Error('x'))).toBe(false);
    expect(provesNothingChanged(undefined)).toBe(false);
  });
});

describe('a run', () => {
  it('gives every change its run id; finish records the run with its source and counts once a change was applied', async () => {
    const run = await openRun(context(), { command: 'students grant --file', reason: 'cohort', source: 'cohort.csv' });
    await (await run.with({ line: 2 }).begin(GRANT)).applied();
    await (await run.with({ line: 3 }).begin(GRANT)).failed(refused);
    await expect(run.finish({ counts: { granted: 1, failed: 1 } })).resolves.toBe(run.runId);
    expect(log().map((r) => [r.id === run.runId, r.action, r.run_id, r.line, r.source, r.result, r.reason])).toEqual([
      [false, 'grant', run.runId, 2, undefined, 'granted', 'cohort'],
      [true, 'bulk', undefined, undefined, 'cohort.csv', 'partial', 'cohort'],
    ]);
    expect(log()[1]?.counts).toEqual({ granted: 1, failed: 1 });
  });

  it.each([
    [{ counts: { granted: 2, failed: 0 } }, 'completed'],
    [{ counts: { granted: 2 } }, 'completed'],
    [{ counts: { granted: 2, failed: 3 }, interrupted: true }, 'interrupted'],
  ])('result of %j: %s', async (summary, result) => {
    const run = await openRun(context(), { command: 'students grant --file' });
    await (await run.begin(GRANT)).applied();
    await run.finish(summary);
    expect(log().at(-1)?.result).toBe(result);
  });

  it('a run that applied nothing is not recorded', async () => {
    const run = await openRun(context(), { command: 'students grant --file' });
    (await run.begin(GRANT)).dropped();
    await expect(run.finish({ counts: { skipped: 1 } })).resolves.toBeUndefined();
    expect(log()).toEqual([]);
  });

  it('left open: its changes are recorded, the run itself is not, and its id comes back', async () => {
    const run = await openRun(context(), { command: 'each scores add' });
    await (await run.with({ line: 2 }).begin(GRANT)).applied();
    await expect(run.finish({ counts: { done: 1 }, open: true })).resolves.toBe(run.runId);
    expect(log().map((r) => [r.action, r.run_id])).toEqual([['grant', run.runId]]);
  });

  it('continued under the id of an attempt killed before its end: its changes and its one record carry that id', async () => {
    const run = await openRun(context(), { command: 'each scores add' }, { runId: 'killed-run' });
    await (await run.with({ line: 3 }).begin(GRANT)).applied();
    await expect(run.finish({ counts: { done: 2 }, earlier: 1 })).resolves.toBe('killed-run');
    expect(log().map((r) => [r.id, r.action, r.run_id, r.result])).toEqual([
      [expect.any(String), 'grant', 'killed-run', 'granted'], ['killed-run', 'bulk', undefined, 'completed'],
    ]);
  });

  it('continued with nothing left to do but the earlier attempt\'s changes: the run is recorded all the same', async () => {
    const run = await openRun(context(), { command: 'each scores add' }, { runId: 'killed-run' });
    await expect(run.finish({ counts: { done: 2 }, earlier: 2 })).resolves.toBe('killed-run');
    expect(log().map((r) => [r.id, r.action, r.counts])).toEqual([['killed-run', 'bulk', { done: 2 }]]);
    const fresh = await openRun(context(), { command: 'each scores add' });
    await expect(fresh.finish({ counts: { done: 0 }, earlier: 0 })).resolves.toBeUndefined();
  });
});

describe('intent files', () => {
  it('listIntents: unclaimed, claimed (by whom), unreadable; other names ignored; nothing without a directory', async () => {
    expect(listIntents(dir)).toEqual([]);
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    mkdirSync(join(dir, 'audit-intents'), { recursive: true });
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00aa.json'), '{"record":');
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00bb.77.claim'), JSON.stringify(intentFile('m0000000-00bb')));
    writeFileSync(join(dir, 'audit-intents', 'notes.txt'), 'x');
    writeFileSync(join(dir, 'audit-intents', 'old.m0000000-00cc.json'), 'x');
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00dd.json.tmp'), 'x');
    const found = listIntents(dir).sort((a, b) => a.id.localeCompare(b.id));
    expect(found.map((f) => [f.id, f.claimedBy, f.intent?.record.id])).toEqual([
      ['m0000000-00aa', undefined, undefined], ['m0000000-00bb', 77, 'm0000000-00bb'], [change.id, undefined, change.id],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
  });

  it('claimIntent: one claimer wins', async () => {
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    const [found] = listIntents(dir);
    const first = claimIntent(dir, found!, 1);
    expect(first).toBe(join(dir, 'audit-intents', `${change.id}.1.claim`));
    expect(claimIntent(dir, found!, 2)).toBeUndefined();
    expect(listIntents(dir)[0]?.claimedBy).toBe(1);
  });

  it('recordedSince: finds a record with the id only after the offset, across read chunks', async () => {
    const id = 'm1234567-abcdef012345';
    const filler = `${'{"id":"other"}\n'.repeat(6000)}`;
    writeFileSync(join(dir, 'audit.jsonl'), `{"id":"${id}","a":1}\n${filler}{"id":"${id}","x":1}\n`);
    expect(await recordedSince(dir, id, 0)).toBe(true);
    expect(await recordedSince(dir, id, 5)).toBe(true);
    writeFileSync(join(dir, 'audit.jsonl'), `{"id":"${id}","a":1}\n${filler}`);
    expect(await recordedSince(dir, id, 0)).toBe(true);
    expect(await recordedSince(dir, id, 5)).toBe(false);
    expect(await recordedSince(dir, 'm1234567-abcdef01234', 0)).toBe(false);
    rmSync(join(dir, 'audit.jsonl'));
    expect(await recordedSince(dir, id, 0)).toBe(false);
  });
});

const intentFile = (id: string, fields: object = {}) => ({ record: { id, base_url: 'b', time: 't' }, pid: 5, host: 'h', log_offset: 0, ...fields });

describe('intent files that are not intents', () => {
  it.each([
    ['no pid', { pid: undefined }],
    ['an id that is not a string', { record: { id: 5, base_url: 'b', time: 't' } }],
    ['no host', { host: undefined }],
    ['no offset', { log_offset: undefined }],
    ['a record without a base URL', { record: { id: 'x', time: 't' } }],
  ])('%s: unreadable', (_what, fields) => {
    mkdirSync(join(dir, 'audit-intents'));
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00aa.json'), JSON.stringify(intentFile('m0000000-00aa', fields)));
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00ab.json'), 'null');
    expect(listIntents(dir).map((found) => found.intent)).toEqual([undefined, undefined]);
  });

  it('a whole one reads back', () => {
    mkdirSync(join(dir, 'audit-intents'));
    writeFileSync(join(dir, 'audit-intents', 'm0000000-00aa.json'), JSON.stringify(intentFile('m0000000-00aa')));
    expect(listIntents(dir)[0]?.intent).toEqual(intentFile('m0000000-00aa'));
  });

  it('removing one already gone is no error', () => {
    expect(() => removeIntent(join(dir, 'audit-intents', 'gone.json'))).not.toThrow();
  });

  it('no log yet: the offset of the intent is 0', async () => {
    const change = await (await openJournal(context(), { command: 'students grant' })).begin(GRANT);
    expect(intentOf(change.id).log_offset).toBe(0);
  });
});

describe('the signal gate', () => {
  const gated = (refuse = false) => {
    const calls: string[] = [];
    const gate: ChangeGate = {
      opening: (repair) => {
        calls.push(`open${repair ? ' repair' : ''}`);
        if (refuse && !repair) throw new InterruptedError('stop');
      },
      closed: () => void calls.push('closed'),
    };
    return { calls, context: { ...context(), gate } };
  };

  it('is told when each change opens and closes, once, however it ends', async () => {
    const { calls, context: withGate } = gated();
    const journal = await openJournal(withGate, { command: 'students grant' });
    const first = await journal.begin(GRANT);
    await first.applied();
    await first.applied();
    const second = await journal.begin(GRANT, { repair: true });
    await second.failed(new TransientError('timeout', ExitCode.transient, { method: 'POST', path: '/x' }));
    (await journal.begin(GRANT)).dropped();
    await (await journal.begin(GRANT)).failed(refused);
    expect(calls).toEqual(['open', 'closed', 'open repair', 'closed', 'open', 'closed', 'open', 'closed']);
  });

  it('a gate that refuses (after Ctrl-C): no intent is written, nothing is sent', async () => {
    const { context: withGate } = gated(true);
    const journal = await openJournal(withGate, { command: 'students grant' });
    await expect(journal.begin(GRANT)).rejects.toThrow('stop');
    expect(intents()).toEqual([]);
    await expect(journal.begin(GRANT, { repair: true })).resolves.toBeDefined();
  });
});

describe('as()', () => {
  it('its fields win over those of each change; with() fields do not', async () => {
    const journal = (await openJournal(context(), { command: 'undo', action: 'grant' })).as({ action: 'undo', undoes: 'abc' });
    await (await journal.with({ action: 'revoke', line: 3 }).begin({ ...GRANT, action: 'grant' })).applied();
    expect(log().map((r) => [r.action, r.undoes, r.line, r.command])).toEqual([['undo', 'abc', 3, 'undo']]);
  });
});

describe('recorded()', () => {
  it('sends, then completes the record with what the answer gives', async () => {
    const change = await (await openJournal(context(), { command: 'scores set' })).begin(GRANT);
    await expect(recorded(change, async () => ({ id: 'r-7' }), (answer) => ({ request_id: answer.id }))).resolves.toEqual({ id: 'r-7' });
    expect(log()).toEqual([expect.objectContaining({ id: change.id, request_id: 'r-7' })]);
  });

  it('without a completion, the record is what begin said', async () => {
    const change = await (await openJournal(context(), { command: 'scores set' })).begin(GRANT);
    await recorded(change, async () => 'ok');
    expect(log()).toEqual([expect.objectContaining({ id: change.id, ...GRANT })]);
    expect(log()[0]?.request_id).toBeUndefined();
  });

  it('a failure is passed to failed() and thrown again', async () => {
    const change = await (await openJournal(context(), { command: 'scores set' })).begin(GRANT);
    await expect(recorded(change, async () => {
      throw refused;
    })).rejects.toBe(refused);
    expect(intents()).toEqual([]);
    expect(log()).toEqual([]);
  });
});
