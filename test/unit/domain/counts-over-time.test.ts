import { describe, expect, it } from 'vitest';
import { compareCounts, compareDay, countsOn, dayOf, firstDay, noHistoryMessage, snapshotsOf, type CountSnapshot } from '../../../src/domain/counts-over-time.js';

const kept = (date: string, product: string, active: number, taken = `${date}T03:00:00.000Z`): CountSnapshot => ({
  profile: 'default', date, taken_at: taken, product_id: product, title: `Product ${product}`, active, inactive: 1,
});

describe('compareDay', () => {
  it.each([
    ['2026-11-20', '2026-10-20'], ['2026-03-31', '2026-02-28'], ['2028-03-31', '2028-02-29'], ['2026-01-15', '2025-12-15'], ['2026-05-31', '2026-04-30'],
  ])('last-month on %s is %s', (today, expected) => {
    expect(compareDay('last-month', today)).toBe(expected);
  });
  it('a date on or before today is itself', () => {
    expect(compareDay(' 2026-11-20 ', '2026-11-20')).toBe('2026-11-20');
    expect(compareDay('2020-02-29', '2026-11-20')).toBe('2020-02-29');
  });
  it.each(['2026-11-21', '2026-02-30', '2026-13-01', '20261120', 'yesterday', ''])('%j is a usage error', (input) => {
    expect(() => compareDay(input, '2026-11-20')).toThrow(/--compare/);
  });
});

describe('countsOn', () => {
  const snapshots = [kept('2026-09-01', 'a', 1), kept('2026-10-01', 'a', 5), kept('2026-10-01', 'a', 6, '2026-10-01T09:00:00.000Z'), kept('2026-10-01', 'b', 2), kept('2026-11-01', 'a', 9)];
  it('the nearest day on or before, the latest snapshot of that day per product', () => {
    const on = countsOn(snapshots, '2026-10-20');
    expect(on?.date).toBe('2026-10-01');
    expect(on?.counts.get('a')?.active).toBe(6);
    expect(on?.counts.get('b')?.active).toBe(2);
    expect(countsOn(snapshots, '2026-10-01')?.date).toBe('2026-10-01');
    expect(countsOn(snapshots, '2026-09-30')?.counts.get('a')?.active).toBe(1);
  });
  it('nothing before the first day', () => {
    expect(countsOn(snapshots, '2026-08-31')).toBeUndefined();
    expect(countsOn([], '2026-08-31')).toBeUndefined();
  });
  it('firstDay', () => {
    expect(firstDay([kept('2026-10-01', 'a', 1), kept('2026-09-01', 'a', 1)])).toBe('2026-09-01');
    expect(firstDay([])).toBeUndefined();
  });
});

describe('compareCounts', () => {
  it('now, then and the difference; a product created since has no counts then', () => {
    const then = countsOn([kept('2026-10-01', 'a', 5)], '2026-10-01') as NonNullable<ReturnType<typeof countsOn>>;
    expect(compareCounts([{ id: 'a', title: 'A', active: 3, inactive: 4 }, { id: 'n', title: 'New', active: 2, inactive: 0 }], then)).toEqual([
      { id: 'a', title: 'A', then: '2026-10-01', active_now: 3, active_then: 5, active_change: -2, inactive_now: 4, inactive_then: 1, inactive_change: 3 },
      { id: 'n', title: 'New', then: '2026-10-01', active_now: 2, active_then: null, active_change: null, inactive_now: 0, inactive_then: null, inactive_change: null },
    ]);
  });
});

describe('noHistoryMessage and dayOf', () => {
  it('says the API keeps no history, the first date it can answer, and how to keep snapshots', () => {
    expect(noHistoryMessage('2026-08-01', '2026-09-01')).toBe(
      "no subscriber counts for 2026-08-01: the platform's API keeps no history (a product has today's counts only), and the first date this can answer is 2026-09-01, the first snapshot kept. "
      + 'Keep a snapshot every day with `members products snapshot` (a cron job); counts are never estimated from accession or cancel dates',
    );
    expect(noHistoryMessage('2026-08-01', undefined)).toContain('no snapshot is kept yet, so no earlier date can be answered');
  });
  it('dayOf is the day on the local clock', () => {
    expect(dayOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('snapshotsOf', () => {
  const school = { profile: 'desk', base_url: 'https://school.example' };
  it('takes a school\'s snapshots by base URL whoever kept them, and those of earlier versions by profile', () => {
    const byAnother = { ...kept('2026-10-01', 'a', 3), profile: 'cron', base_url: 'https://school.example' };
    const elsewhere = { ...kept('2026-10-01', 'a', 4), profile: 'desk', base_url: 'https://other.example' };
    const older = { ...kept('2026-09-01', 'a', 2), profile: 'desk' };
    const olderElsewhere = { ...kept('2026-09-01', 'a', 1), profile: 'cron' };
    expect(snapshotsOf([byAnother, elsewhere, older, olderElsewhere], school)).toEqual([byAnother, older]);
  });
});
