/** `students show`: why access is on or off, in words, the telling part first. */
import { describe, expect, it } from 'vitest';
import { accessWhy } from '../../../src/domain/student-view.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const sub = (active: number, status: string, expiration: string | null) => ({ active, status, product_id: 'p1', expiration_date: expiration });

describe('accessWhy', () => {
  it('access on: active with its end, or kept though the status says otherwise', () => {
    expect(accessWhy(sub(1, 'active', '2026-05-01'), NOW)).toBe('active, until 2026-05-01');
    expect(accessWhy(sub(1, 'active', null), NOW)).toBe('active, no expiration');
    expect(accessWhy(sub(1, 'refunded', null), NOW)).toBe('access kept though refunded, no expiration');
  });

  it('access off: says so first, then the status and the date', () => {
    expect(accessWhy(sub(0, 'canceled', '2024-01-01'), NOW)).toBe('access off: canceled, expired 2024-01-01');
    expect(accessWhy(sub(0, 'active', '2027-01-01'), NOW)).toBe('access off: active, until 2027-01-01');
  });
});
