/**
 * The pure rules of domain/changes.ts: grant dates, whether a held
 * subscription already gives what a grant asks, and the dates of a renewal.
 */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src/api/endpoints/schemas.js';
import { UsageError } from '../../../src/lib/errors.js';
import { accessGap, checkProductId, grantDates, hasAccess, renewalDates } from '../../../src/domain/changes.js';

const NOW = new Date(2025, 5, 15, 12); // 2025-06-15, local time
const held = (fields: Partial<Subscription>): Subscription => ({ product_id: 'p1', active: 1, ...fields });

describe('grantDates', () => {
  it('defaults the accession to today, not given; an empty accession is not given either', () => {
    expect(grantDates(undefined, undefined, undefined, NOW)).toEqual({ accession: '2025-06-15' });
    expect(grantDates('', '', undefined, NOW)).toEqual({ accession: '2025-06-15' });
  });

  it('keeps a given accession and marks it given; an expiration on the same day is allowed', () => {
    expect(grantDates('2025-01-02', undefined, undefined, NOW)).toEqual({ accession: '2025-01-02', accessionGiven: true });
    expect(grantDates('2025-01-02', '2025-01-02', undefined, NOW)).toEqual({ accession: '2025-01-02', expiration: '2025-01-02', accessionGiven: true });
    expect(grantDates(undefined, '2025-07-01', undefined, NOW)).toEqual({ accession: '2025-06-15', expiration: '2025-07-01' });
  });

  it('refuses an expiration before the accession, naming both values and their flags', () => {
    expect(() => grantDates('2025-01-02', '2025-01-01', undefined, NOW)).toThrow(new UsageError(
      '--expiration 2025-01-01 is before --accession 2025-01-02; the expiration cannot precede the accession',
    ));
    expect(() => grantDates(undefined, '2025-06-14', undefined, NOW)).toThrow(new UsageError(
      '--expiration 2025-06-14 is before today (2025-06-15), the accession date when --accession is not given; the expiration cannot precede the accession',
    ));
  });

  it('names the CSV columns instead of the flags when told to, also for a date that is not one', () => {
    const names = { accession: 'accession_date', expiration: 'expiration_date' };
    expect(() => grantDates('2025-02-30', undefined, names, NOW)).toThrow(/^invalid accession_date "2025-02-30"/);
    expect(() => grantDates(undefined, '2025-13-01', names, NOW)).toThrow(/^invalid expiration_date "2025-13-01"/);
    expect(() => grantDates(undefined, '2025-13-01', undefined, NOW)).toThrow(/^invalid --expiration "2025-13-01"/);
  });
});

describe('checkProductId', () => {
  it('trims the id, and refuses an empty one naming where it came from', () => {
    expect(checkProductId('  p1 ')).toBe('p1');
    expect(() => checkProductId('  ')).toThrow(new UsageError('empty PRODUCT_ID; give the id of a product (see `members products list`)'));
    expect(() => checkProductId('', 'product_id')).toThrow(/^empty product_id;/);
  });
});

describe('hasAccess', () => {
  it.each([[0], ['0'], [false]])('is off for active %j', (active) => {
    expect(hasAccess(held({ active: active as never }))).toBe(false);
  });

  it.each([[1], ['1'], [true], [null], [undefined]])('is on for active %j (absent means on)', (active) => {
    expect(hasAccess(held({ active: active as never }))).toBe(true);
  });
});

describe('accessGap', () => {
  it('is nothing when access is on and no expiration was asked, or the same one', () => {
    expect(accessGap(held({ expiration_date: '2025-12-31 00:00:00' }), undefined)).toBeUndefined();
    expect(accessGap(held({ expiration_date: '2025-12-31 00:00:00' }), '2025-12-31')).toBeUndefined();
  });

  it('says access is off, with the status and the expiration date when known', () => {
    expect(accessGap(held({ active: 0, status: 'canceled', expiration_date: '2024-01-31T10:00:00Z' }), undefined))
      .toBe('its access is off (status canceled, expiration 2024-01-31)');
    expect(accessGap(held({ active: 0, status: 'inactive' }), undefined)).toBe('its access is off (status inactive)');
    expect(accessGap(held({ active: 0, expiration_date: '2024-01-31' }), undefined)).toBe('its access is off (expiration 2024-01-31)');
    expect(accessGap(held({ active: 0, status: '', expiration_date: null }), '2025-01-01')).toBe('its access is off');
  });

  it('names the other expiration, or its absence, when another one was asked', () => {
    expect(accessGap(held({ expiration_date: '2025-12-31 00:00:00' }), '2026-01-31')).toBe('it expires 2025-12-31, not 2026-01-31');
    expect(accessGap(held({ expiration_date: null }), '2026-01-31')).toBe('it has no expiration, not 2026-01-31');
  });
});

describe('renewalDates', () => {
  const asked = { accession: '2025-06-15' };

  it('keeps the original accession (its date part) unless one was given', () => {
    expect(renewalDates(held({ accession_date: '2020-03-04 08:00:00' }), asked, NOW)).toEqual({ accession: '2020-03-04' });
    expect(renewalDates(held({ accession_date: '2020-03-04' }), { accession: '2025-06-01', accessionGiven: true }, NOW))
      .toEqual({ accession: '2025-06-01' });
    expect(renewalDates(held({ accession_date: null }), asked, NOW)).toEqual({ accession: '2025-06-15' });
  });

  it('uses the asked expiration, else the original one while it has not passed (today counts), else none', () => {
    const original = (expiration_date: string | null) => held({ accession_date: '2020-03-04', expiration_date });
    expect(renewalDates(original('2025-01-01'), { ...asked, expiration: '2026-01-01' }, NOW)).toEqual({ accession: '2020-03-04', expiration: '2026-01-01' });
    expect(renewalDates(original('2025-06-15 23:59:59'), asked, NOW)).toEqual({ accession: '2020-03-04', expiration: '2025-06-15' });
    expect(renewalDates(original('2025-06-14'), asked, NOW)).toEqual({ accession: '2020-03-04' });
    expect(renewalDates(original(null), asked, NOW)).toEqual({ accession: '2020-03-04' });
  });
});

describe('grantDates for a row that may be renewed', () => {
  it('leaves an expiration before today unchecked when no accession is given (the renewal keeps its own), checks it otherwise', () => {
    const now = new Date(2026, 10, 25);
    expect(grantDates(undefined, '2025-03-01', undefined, now, { mayRenew: true })).toEqual({ accession: '2026-11-25', expiration: '2025-03-01' });
    expect(() => grantDates(undefined, '2025-03-01', undefined, now)).toThrow('--expiration 2025-03-01 is before today (2026-11-25)');
    expect(() => grantDates('2025-06-01', '2025-03-01', undefined, now, { mayRenew: true })).toThrow('--expiration 2025-03-01 is before --accession 2025-06-01');
  });
});
