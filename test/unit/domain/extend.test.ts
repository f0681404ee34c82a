import { describe, expect, it } from 'vitest';
import { addDays, planExtension, type Holding } from '../../../src/domain/extend.js';
import { GRANT_STATUS, resetsStatus, statusResetNote } from '../../../src/domain/grant-status.js';

const holding = (studentId: string, fields: Partial<Holding> = {}): Holding => ({
  studentId, name: `Name ${studentId}`, email: `${studentId}@example.com`, hasAccess: true, status: 'active',
  accessionDate: '2026-01-10', expirationDate: '2026-12-31', ...fields,
});
const TODAY = '2026-11-25';
const plan = (holdings: Holding[], by: Parameters<typeof planExtension>[1], includeStatusChanges = false) =>
  planExtension(holdings, by, { today: TODAY, includeStatusChanges });

describe('addDays', () => {
  it('moves across months, leap days and years, and keeps years below 100', () => {
    expect(addDays('2026-02-27', 3)).toBe('2026-03-02');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01T00:00:00', 30)).toBe('2026-03-31');
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
  });
});

describe('planExtension', () => {
  it('--days adds to each expiration; --until sets the same date for all', () => {
    const holdings = [holding('a'), holding('b', { expirationDate: '2027-01-15' })];
    expect(plan(holdings, { days: 30 }).extensions.map((e) => [e.from, e.to])).toEqual([['2026-12-31', '2027-01-30'], ['2027-01-15', '2027-02-14']]);
    expect(plan(holdings, { until: '2027-06-30' }).extensions.map((e) => [e.holding.studentId, e.from, e.to, e.notes, e.stillPast]))
      .toEqual([['a', '2026-12-31', '2027-06-30', [], false], ['b', '2027-01-15', '2027-06-30', [], false]]);
  });

  it('leaves out a status the grant would reset, unless asked; says so either way', () => {
    const holdings = [holding('a', { status: 'canceled' }), holding('b', { status: 'Active' }), holding('c', { status: undefined })];
    const out = plan(holdings, { days: 10 });
    expect(out.statusChanges.map((e) => [e.holding.studentId, e.notes])).toEqual([['a', ['status canceled becomes active (the server\'s default for a grant)']]]);
    expect(out.extensions.map((e) => e.holding.studentId)).toEqual(['b', 'c']);
    const asked = plan(holdings, { days: 10 }, true);
    expect(asked.extensions.map((e) => e.holding.studentId)).toEqual(['a', 'b', 'c']);
    expect(asked.statusChanges).toEqual([]);
    expect(asked.extensions[0]?.notes).toEqual([statusResetNote('canceled')]);
  });

  it('flags a new expiration still in the past, and keeps it', () => {
    const out = plan([holding('a', { accessionDate: '2024-01-01', expirationDate: '2025-01-01' }), holding('b', { expirationDate: '2026-11-20' })], { days: 5 });
    expect(out.extensions.map((e) => [e.to, e.stillPast, e.notes])).toEqual([
      ['2025-01-06', true, ['2025-01-06 is still in the past: no access from it']],
      ['2026-11-25', false, []],
    ]);
    const both = plan([holding('a', { status: 'refunded', accessionDate: '2024-01-01', expirationDate: '2025-01-01' })], { days: 1 }, true);
    expect(both.extensions[0]?.notes).toEqual([statusResetNote('refunded'), '2025-01-02 is still in the past: no access from it']);
  });

  it('leaves alone: no access (counted), no expiration, already as late, and a date before the accession', () => {
    const out = plan([
      holding('off', { hasAccess: false }),
      holding('lifetime', { expirationDate: undefined }),
      holding('same', { expirationDate: '2027-03-01' }),
      holding('later', { expirationDate: '2027-04-01' }),
      holding('odd', { accessionDate: '2027-05-01', expirationDate: '2027-01-01' }),
    ], { until: '2027-03-01' });
    expect(out.withoutAccess).toBe(1);
    expect(out.extensions).toEqual([]);
    expect(out.unchanged.map((u) => [u.holding.studentId, u.why])).toEqual([
      ['lifetime', 'no expiration: its access has no end'],
      ['same', 'already expires on 2027-03-01'],
      ['later', 'already expires on 2027-04-01, after 2027-03-01'],
      ['odd', '2027-03-01 is before its accession 2027-05-01'],
    ]);
  });
});

describe('grant status', () => {
  it('only a known status other than the grant\'s is reset', () => {
    expect(GRANT_STATUS).toBe('active');
    expect([undefined, null, '', 'active', 'ACTIVE', 'canceled', 'inactive', 'refunded'].map(resetsStatus)).toEqual([false, false, false, false, false, true, true, true]);
  });
});
