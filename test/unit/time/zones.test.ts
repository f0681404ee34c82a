import { describe, expect, it } from 'vitest';
import { calendarDate, localDate, localDateTime, normaliseDates } from '../../../src/lib/time/zones.js';

/** Midnight of `day` in a zone `offsetHours` east of UTC, as Eloquent serialises it. */
const midnight = (day: string, offsetHours: number) =>
  `${new Date(Date.parse(`${day}T00:00:00Z`) - offsetHours * 3_600_000).toISOString().slice(0, 19)}.000000Z`;

describe('calendarDate', () => {
  it.each([-10, -9.5, -5, -3, 0, 1, 3, 5.5, 5.75, 8, 9, 10, 12, 12.75, 13, 13.75])('reads midnight of a server at UTC%s back as the same day', (offset) => {
    for (const day of ['2025-03-01', '2025-01-01', '2024-12-31', '2024-02-29']) expect(calendarDate(midnight(day, offset))).toBe(day);
  });

  it('keeps a plain date, and reads a time with its own offset or none as a wall-clock date', () => {
    expect(calendarDate('2025-03-01')).toBe('2025-03-01');
    expect(calendarDate('2025-03-01T00:00:00+09:00')).toBe('2025-03-01');
    expect(calendarDate('2025-03-01 00:00:00')).toBe('2025-03-01');
    expect(calendarDate('not a date')).toBe('not a date');
  });
});

describe('normaliseDates', () => {
  it('rewrites date-only fields in place, nested ones too, and leaves instants of other fields alone', () => {
    const body = {
      data: {
        birth: '1990-05-19T15:00:00.000000Z', created_at: '2024-06-10T01:49:00.000000Z',
        subscriptions: [{ id: 1, accession_date: '2025-02-28T15:00:00.000000Z', expiration_date: null, cancel_date: '2025-02-28T15:00:00.000000Z' }],
      },
    };
    normaliseDates(body);
    expect(body.data).toEqual({
      birth: '1990-05-20', created_at: '2024-06-10T01:49:00.000000Z',
      subscriptions: [{ id: 1, accession_date: '2025-03-01', expiration_date: null, cancel_date: '2025-02-28T15:00:00.000000Z' }],
    });
    expect(Object.keys(body.data)).toEqual(['birth', 'created_at', 'subscriptions']);
  });
});

describe('local times (TZ=UTC in tests)', () => {
  it('shows instants in the local zone and wall-clock times as sent', () => {
    expect(localDateTime('2024-06-10T01:49:00.000000Z')).toBe('2024-06-10 01:49');
    expect(localDateTime('2024-06-09T22:49:00-03:00')).toBe('2024-06-10 01:49');
    expect(localDateTime('2024-06-09 22:49:00')).toBe('2024-06-09 22:49');
    expect(localDate('2024-06-10T01:49:00.000000Z')).toBe('2024-06-10');
    expect(localDate('2024-06-10')).toBe('2024-06-10');
  });
});
