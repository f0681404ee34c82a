import { describe, expect, it } from 'vitest';
import { parseFilters } from '../../../src/domain/subscription-filter.js';
import { accessFilter } from '../../../src/commands/courses/actions.js';

const NOW = new Date(2026, 10, 25, 20, 30); // 25 November 2026, 20:30 local time

describe('subscriptions list --expiring and --expired', () => {
  it('--expiring 7d keeps access ending from today to 7 days on, both included', () => {
    expect(parseFilters({ expiring: '7d' }, NOW)).toEqual({ access: 'active', expiration: { from: '2026-11-25', to: '2026-12-02' } });
  });

  it('a duration in hours ends on the day it reaches', () => {
    expect(parseFilters({ expiring: '4h' }, NOW)?.expiration).toEqual({ from: '2026-11-25', to: '2026-11-26' });
  });

  it('--expired keeps expirations up to yesterday: an expiration of today still gives access today', () => {
    expect(parseFilters({ expired: true }, NOW)).toEqual({ expiration: { to: '2026-11-24' } });
    expect(parseFilters({ expired: true }, new Date(2026, 2, 1))?.expiration).toEqual({ to: '2026-02-28' });
  });

  it('refuses a bad duration, both flags, and --access with --expiring (exit 2)', () => {
    expect(() => parseFilters({ expiring: 'soon' })).toThrow(/invalid --expiring "soon"/);
    expect(() => parseFilters({ expiring: '7d', expired: true })).toThrow('--expiring and --expired cannot be combined');
    expect(() => parseFilters({ expiring: '7d', access: 'inactive' })).toThrow(/drop --access/);
  });

  it('--expired goes with --access', () => {
    expect(parseFilters({ expired: true, access: 'active' }, NOW)).toEqual({ access: 'active', expiration: { to: '2026-11-24' } });
  });
});

describe('courses accesses flags', () => {
  it('one of --finished, --not-finished and --never; --never needs --product, and --product needs --never', () => {
    expect(accessFilter({})).toEqual({});
    expect(accessFilter({ finished: true })).toEqual({ completion: 'finished' });
    expect(accessFilter({ notFinished: true })).toEqual({ completion: 'not-finished' });
    expect(accessFilter({ never: true, product: ' Yoga ' })).toEqual({ never: 'Yoga' });
    expect(() => accessFilter({ finished: true, notFinished: true })).toThrow('--finished and --not-finished cannot be combined');
    expect(() => accessFilter({ never: true, finished: true })).toThrow('--finished and --never cannot be combined');
    expect(() => accessFilter({ never: true })).toThrow('--never needs --product PRODUCT');
    expect(() => accessFilter({ never: true, product: ' ' })).toThrow('--never needs --product PRODUCT');
    expect(() => accessFilter({ product: 'Yoga' })).toThrow('--product goes with --never');
  });
});
