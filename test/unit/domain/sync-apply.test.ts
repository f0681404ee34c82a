/** Applying a saved plan's change (domain/sync/apply.ts): is the state still the one planned from, or already the one planned? */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src/api/endpoints/schemas.js';
import { asPlanned, heldSubscription, unchangedSince } from '../../../src/domain/sync/apply.js';

const sub = (fields: Partial<Subscription> = {}): Subscription => ({
  id: 7, product_id: 'p1', active: 1, status: 'active', accession_date: '2024-01-01', expiration_date: '2025-01-01 00:00:00', ...fields,
});
const FROM = { id: '7', hasAccess: true, status: 'active', accessionDate: '2024-01-01', expirationDate: '2025-01-01' };

describe('unchangedSince', () => {
  it('none then and none now; one then and the same one now (dates by day)', () => {
    expect(unchangedSince(undefined, undefined)).toBe(true);
    expect(unchangedSince(sub(), FROM)).toBe(true);
    expect(unchangedSince(sub({ id: null }), FROM)).toBe(true);
    expect(unchangedSince(sub(), { ...FROM, id: undefined })).toBe(true);
  });

  it('anything else is a change', () => {
    expect(unchangedSince(sub(), undefined)).toBe(false);
    expect(unchangedSince(undefined, FROM)).toBe(false);
    expect(unchangedSince(sub({ id: 8 }), FROM)).toBe(false);
    expect(unchangedSince(sub({ active: 0 }), FROM)).toBe(false);
    expect(unchangedSince(sub({ status: 'canceled' }), FROM)).toBe(false);
    expect(unchangedSince(sub({ status: null }), FROM)).toBe(false);
    expect(unchangedSince(sub({ accession_date: '2024-01-02' }), FROM)).toBe(false);
    expect(unchangedSince(sub({ expiration_date: null }), FROM)).toBe(false);
  });
});

describe('asPlanned', () => {
  it('a revoke leaves none; the others, access on with the planned expiration (none: none)', () => {
    expect(asPlanned(undefined, { action: 'revoke' })).toBe(true);
    expect(asPlanned(sub(), { action: 'revoke' })).toBe(false);
    expect(asPlanned(sub(), { action: 'grant', expiration: '2025-01-01' })).toBe(true);
    expect(asPlanned(sub({ expiration_date: null }), { action: 'restore' })).toBe(true);
    expect(asPlanned(sub(), { action: 'change-expiration', expiration: '2026-01-01' })).toBe(false);
    expect(asPlanned(sub({ active: 0 }), { action: 'grant', expiration: '2025-01-01' })).toBe(false);
    expect(asPlanned(undefined, { action: 'grant' })).toBe(false);
  });
});

describe('heldSubscription', () => {
  it('is the planned-from state in the API\'s shape (the record\'s before)', () => {
    expect(heldSubscription('p1', FROM)).toEqual({ id: '7', product_id: 'p1', active: 1, status: 'active', accession_date: '2024-01-01', expiration_date: '2025-01-01' });
    expect(heldSubscription('p1', { hasAccess: false })).toEqual({ product_id: 'p1', active: 0, status: null, accession_date: null, expiration_date: null });
  });
});
