import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doneRows, earlierRuns, forgetRuns, rememberRuns, runKey } from '../../../src/commands/shared/each/resume.js';
import { appendAudit, type AuditRecord } from '../../../src/audit/log.js';
import { writeIntent } from '../../../src/audit/intents.js';

const record = (fields: Partial<AuditRecord>): AuditRecord => ({
  id: `id-${Math.random()}`, time: '2026-11-28T10:00:00.000Z', user: 'u', profile: 'p', base_url: 'http://h', command: 'magic-link', action: 'magic-link', result: 'created', ...fields,
});

describe('resuming a run of each', () => {
  it('knows a run by the profile, the server, the command line and the bytes of the file', () => {
    const key = runKey(['default', 'http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\na@x.co\n'));
    expect(runKey(['default', 'http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\na@x.co\n'))).toBe(key);
    expect(runKey(['default', 'http://h', 'magic-link', '{E-mail}'], Buffer.from('E-mail\nb@x.co\n'))).not.toBe(key);
    expect(runKey(['default', 'http://h', 'magic-link {E-mail}'], Buffer.from('E-mail\na@x.co\n'))).not.toBe(key);
  });

  it('remembers the runs of a key until told the file is done', () => {
    const dir = mkdtempSync(join(tmpdir(), 'each-'));
    expect(earlierRuns(dir, 'k')).toEqual([]);
    rememberRuns(dir, 'k', ['r1']);
    rememberRuns(dir, 'k', ['r1', 'r2']);
    expect(earlierRuns(dir, 'k')).toEqual(['r1', 'r2']);
    forgetRuns(dir, 'k');
    expect(earlierRuns(dir, 'k')).toEqual([]);
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
    const done = await doneRows(dir, ['r1', 'r2']);
    expect([...done.entries()]).toEqual([
      [2, { runId: 'r1', result: 'created' }], [5, { runId: 'r2', result: 'updated' }], [7, { runId: 'r2', result: 'in flight' }],
    ]);
    expect((await doneRows(dir, [])).size).toBe(0);
  });
});
