import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneRows, inputKey, resumeRun, runKey } from '../../../src/commands/shared/each/resume.js';
import { FINISHED_KEPT_MS, LocalRunKeys } from '../../../src/audit/run-keys.js';
import { appendAudit, type AuditRecord } from '../../../src/audit/log.js';
import { intentPath, writeIntent } from '../../../src/audit/intents.js';
import { auditIntentsDir } from '../../../src/config/paths.js';
import { LocalRecord } from '../../../src/audit/record.js';

const record = (fields: Partial<AuditRecord>): AuditRecord => ({
  id: `id-${Math.random()}`, time: '2026-11-28T10:00:00.000Z', user: 'u', profile: 'p', base_url: 'http://h', command: 'magic-link', action: 'magic-link', result: 'created', ...fields,
});

describe('resuming a run of each', () => {
  it('knows a run by the server, the command line and the bytes of the file', () => {
    const key = runKey(['http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\na@x.co\n'));
    expect(runKey(['http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\na@x.co\n'))).toBe(key);
    expect(runKey(['http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\nb@x.co\n'))).not.toBe(key);
    expect(runKey(['http://h', 'magic-link {E-mail}'], Buffer.from('E-mail\na@x.co\n'))).not.toBe(key);
    expect(runKey(['http://other', 'magic-link', '{E-mail}'], Buffer.from('E-mail\na@x.co\n'))).not.toBe(key);
  });

  it('makes the key of a file from its bytes, read whole however they come in chunks', async () => {
    const chunks = (...parts: string[]) => () => (async function* () {
      for (const part of parts) yield Buffer.from(part);
    })();
    const key = runKey(['http://h', 'magic-link'], Buffer.from('E-mail\na@x.co\n'));
    expect(await inputKey(['http://h', 'magic-link'], chunks('E-mail\n', 'a@x.co\n'))).toBe(key);
    expect(await inputKey(['http://h', 'magic-link'], chunks('E-mail\na@x.co\n'))).toBe(key);
  });

  it('remembers the runs of a key until told the file is done, then the run that did it', async () => {
    const keys = new LocalRunKeys(mkdtempSync(join(tmpdir(), 'each-')));
    expect(await keys.read('k')).toEqual({ runs: [] });
    await keys.add('k', 'r1');
    await keys.add('k', 'r2');
    await keys.add('k', 'r2');
    expect(await keys.read('k')).toEqual({ runs: ['r1', 'r2'] });
    await keys.finish('k', 'r2');
    expect(await keys.read('k')).toEqual({ runs: [], finished: 'r2' });
    await keys.add('k', 'r3');
    expect(await keys.read('k')).toEqual({ runs: ['r3'], finished: 'r2' });
  });

  it('finds the lines those runs did, or have in flight; not those not applied, unknown, or of other runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    appendAudit(dir, [
      record({ run_id: 'r1', line: 2 }),
      record({ run_id: 'r1', line: 3, result: 'not applied' }),
      record({ run_id: 'r1', line: 4, result: 'unknown' }),
      record({ run_id: 'r2', line: 5, action: 'scores.set', result: 'updated' }),
      record({ run_id: 'other', line: 6 }),
      record({ run_id: 'r1', action: 'bulk', result: 'interrupted' }),
    ]);
    writeIntent(dir, { record: record({ id: 'pending-1', run_id: 'r2', line: 7 }), pid: 1, host: 'h', log_offset: 0 });
    const done = await doneRows(new LocalRecord(dir), dir, ['r1', 'r2']);
    expect([...done.rows.entries()]).toEqual([
      [2, { runId: 'r1', result: 'created' }], [5, { runId: 'r2', result: 'updated' }], [7, { runId: 'r2', result: 'in flight' }],
    ]);
    expect((await doneRows(new LocalRecord(dir), dir, [])).rows.size).toBe(0);
  });
});

describe('resuming a run of each: which runs ended', () => {
  it('a run ended when the record holds its own record (action bulk, its id); one killed, or left open, did not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    appendAudit(dir, [
      record({ run_id: 'ended', line: 2 }),
      record({ id: 'ended', action: 'bulk', result: 'completed' }),
      record({ run_id: 'killed', line: 3 }),
      record({ id: 'elsewhere', action: 'bulk', result: 'completed' }),
    ]);
    const work = await doneRows(new LocalRecord(dir), dir, ['ended', 'killed']);
    expect([...work.ended]).toEqual(['ended']);
    expect([...work.rows.keys()]).toEqual([2, 3]);
  });
});

describe('resuming a run of each: the edges', () => {
  it('keeps the parts of the key apart, and makes a key of 32 hex digits', () => {
    const bytes = Buffer.from('E-mail\na@x.co\n');
    expect(runKey(['ab', 'c'], bytes)).not.toBe(runKey(['a', 'bc'], bytes));
    expect(runKey(['a'], bytes)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps the runs of a key in each-runs/KEY.json, readable by its user only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    const keys = new LocalRunKeys(dir);
    await keys.add('k1', 'r1');
    const file = join(dir, 'each-runs', 'k1.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ runs: ['r1'] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'each-runs')).mode & 0o777).toBe(0o700);
    await keys.finish('k1', 'r1');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ runs: [], finished: 'r1' });
  });

  it('sweeps, when a file is done, the keys done more than a week ago; not those under way, nor other files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    const keys = new LocalRunKeys(dir);
    const old = new Date(Date.now() - FINISHED_KEPT_MS - 60_000);
    await keys.finish('done-long-ago', 'r1');
    await keys.add('killed-long-ago', 'r2');
    await keys.finish('done-lately', 'r3');
    for (const key of ['done-long-ago', 'killed-long-ago']) utimesSync(join(dir, 'each-runs', `${key}.json`), old, old);
    writeFileSync(join(dir, 'each-runs', 'notes.txt'), 'mine');
    utimesSync(join(dir, 'each-runs', 'notes.txt'), old, old);
    await keys.finish('now', 'r4');
    expect(readdirSync(join(dir, 'each-runs')).sort()).toEqual(['done-lately.json', 'killed-long-ago.json', 'notes.txt', 'now.json']);
  });

  it('takes from a hand-edited file only the run ids that are text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    const keys = new LocalRunKeys(dir);
    mkdirSync(join(dir, 'each-runs'));
    writeFileSync(join(dir, 'each-runs', 'k.json'), JSON.stringify({ runs: ['r1', 7, null, 'r2'] }));
    expect(await keys.read('k')).toEqual({ runs: ['r1', 'r2'] });
    await keys.add('k', 'r3');
    expect(await keys.read('k')).toEqual({ runs: ['r1', 'r2', 'r3'] });
    writeFileSync(join(dir, 'each-runs', 'k.json'), JSON.stringify({ runs: 'r1', finished: 7 }));
    expect(await keys.read('k')).toEqual({ runs: [] });
    writeFileSync(join(dir, 'each-runs', 'k.json'), '{"runs": ["r1"');
    expect(await keys.read('k')).toEqual({ runs: [] });
  });

  it('leaves out records of the runs that name no line, the run\'s own, and a change in flight on a line already done', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    appendAudit(dir, [
      record({ run_id: 'r1', line: 2 }),
      // The run's own record, with a line (a run that stopped there): not a row's change.
      record({ run_id: 'r1', action: 'bulk', result: 'interrupted', line: 3 }),
      // A change of the run that names no line, and one of no run.
      record({ run_id: 'r1' }),
      record({ line: 4 }),
    ]);
    writeIntent(dir, { record: record({ id: 'flight-2', run_id: 'r1', line: 2 }), pid: 1, host: 'h', log_offset: 0 });
    writeIntent(dir, { record: record({ id: 'flight-5', run_id: 'r1' }), pid: 1, host: 'h', log_offset: 0 });
    writeIntent(dir, { record: record({ id: 'flight-6', line: 6 }), pid: 1, host: 'h', log_offset: 0 });
    writeIntent(dir, { record: record({ id: 'flight-7', run_id: 'other', line: 7 }), pid: 1, host: 'h', log_offset: 0 });
    // An intent file that cannot be read (torn by a crash): no line of it.
    mkdirSync(auditIntentsDir(dir), { recursive: true });
    writeFileSync(intentPath(dir, 'torn-8'), '{"record": {"id": "torn-8", "line": 8');
    const done = await doneRows(new LocalRecord(dir), dir, ['r1']);
    expect([...done.rows.entries()]).toEqual([[2, { runId: 'r1', result: 'created' }]]);
  });
});

describe('resumeRun: the run a re-run continues', () => {
  const input = (text: string) => () => (async function* () {
    yield Buffer.from(text);
  })();
  const parts = ['http://h', 'students grant --file'];
  const remember = async (dir: string, key: string, runs: string[]) => {
    for (const run of runs) await new LocalRunKeys(dir).add(key, run);
  };

  it('continues the key\'s last run when it never recorded its end, counting only its rows done, not those in flight', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    const key = runKey(parts, Buffer.from('student,product_id\na@x.co,1\n'));
    await remember(dir, key, ['old', 'killed']);
    appendAudit(dir, [
      record({ run_id: 'old', line: 2 }),
      record({ id: 'old', action: 'bulk', result: 'interrupted' }),
      record({ run_id: 'killed', line: 3, result: 'granted' }),
    ]);
    writeIntent(dir, { record: record({ id: 'flight-4', run_id: 'killed', line: 4 }), pid: 1, host: 'h', log_offset: 0 });
    const resumed = await resumeRun(new LocalRecord(dir), dir, await inputKey(parts, input('student,product_id\na@x.co,1\n')));
    expect(resumed).toMatchObject({ key, runs: ['old', 'killed'], continued: 'killed' });
    expect([...resumed.before.entries()]).toEqual([[3, { runId: 'killed', result: 'granted' }]]);
    expect([...resumed.rows.keys()]).toEqual([2, 3, 4]);
  });

  it('continues nothing when the last run recorded its end, when the key has no runs, or the bytes differ', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    const key = runKey(parts, Buffer.from('x\n'));
    await remember(dir, key, ['killed', 'ended']);
    appendAudit(dir, [record({ run_id: 'ended', line: 2 }), record({ id: 'ended', action: 'bulk', result: 'interrupted' })]);
    const ended = await resumeRun(new LocalRecord(dir), dir, await inputKey(parts, input('x\n')));
    expect(ended.continued).toBeUndefined();
    expect(ended.before.size).toBe(0);
    const other = await resumeRun(new LocalRecord(dir), dir, await inputKey(parts, input('y\n')));
    expect(other).toMatchObject({ runs: [], continued: undefined });
  });
});
