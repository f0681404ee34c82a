/** A run killed before writing its own record is derived from its changes (audit/runs.ts). */
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../src/audit/log.js';
import { RunsOfLog, findRun } from '../../../src/audit/runs.js';

const stamp = { user: 'ana', profile: 'default', base_url: 'http://127.0.0.1:1' };
const rec = (id: string, time: string, fields: Partial<AuditRecord>): AuditRecord => ({
  id, time, ...stamp, command: 'students grant --file', action: 'grant', result: 'granted', ...fields,
});

const KILLED = [
  rec('k1', '2026-01-01T10:00:00.000Z', { run_id: 'K', student: 'a@example.com', product_id: 'p1', reason: 'ticket 9' }),
  rec('x1', '2026-01-01T10:00:00.500Z', { student: 'b@example.com', product_id: 'p1' }),
  rec('k3', '2026-01-01T10:00:02.000Z', { run_id: 'K', result: 'not applied', student: 'c@example.com', product_id: 'p1', reason: 'ticket 9' }),
  rec('k2', '2026-01-01T10:00:01.000Z', { run_id: 'K', student: 'd@example.com', product_id: 'p1', reason: 'ticket 9' }),
];
const ENDED = [
  rec('e1', '2026-01-02T10:00:00.000Z', { run_id: 'E', command: 'sync', action: 'revoke', result: 'revoked' }),
  rec('E', '2026-01-02T10:00:01.000Z', { command: 'sync', action: 'bulk', result: 'completed', counts: { revoked: 1 } }),
];

describe('findRun', () => {
  it('derives a run that left no record from its changes: who, where, when its newest change was, its counts, result interrupted', () => {
    expect(findRun([...KILLED, ...ENDED], 'K')).toEqual({
      id: 'K', time: '2026-01-01T10:00:02.000Z', ...stamp, command: 'students grant --file', action: 'bulk', result: 'interrupted', reason: 'ticket 9',
      counts: { granted: 2, 'not applied': 1 },
    });
  });

  it("gives a run's own record when there is one, and nothing for an id no run has", () => {
    expect(findRun([...KILLED, ...ENDED], 'E')).toBe(ENDED[1]);
    expect(findRun([...KILLED, ...ENDED], 'k1')).toBeUndefined();
    expect(findRun([...KILLED, ...ENDED], 'nope')).toBeUndefined();
  });
});

describe('RunsOfLog', () => {
  const runs = new RunsOfLog();
  for (const record of [...KILLED, ...ENDED]) runs.add(record);

  it('shows a derived run at its newest change only; a run with its own record, or a change of no run, never', () => {
    expect(KILLED.map((record) => runs.shownAt(record)?.id)).toEqual([undefined, undefined, 'K', undefined]);
    expect(ENDED.map((record) => runs.shownAt(record))).toEqual([undefined, undefined]);
  });

  it('derives only runs without a record of their own', () => {
    expect(runs.derived('K')?.result).toBe('interrupted');
    expect(runs.derived('E')).toBeUndefined();
    expect(runs.derived('x1')).toBeUndefined();
  });

  it('takes the newest change wherever it lies in the file, the later in the file when two share an instant', () => {
    const tied = new RunsOfLog();
    const [first, second] = [rec('t1', '2026-01-03T10:00:00.000Z', { run_id: 'T' }), rec('t2', '2026-01-03T10:00:00.000Z', { run_id: 'T' })];
    tied.add(first);
    tied.add(second);
    expect(tied.shownAt(second)?.time).toBe('2026-01-03T10:00:00.000Z');
    expect(tied.shownAt(first)).toBeUndefined();
  });
});
