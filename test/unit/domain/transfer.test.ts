import { describe, expect, it } from 'vitest';
import type { Student, Subscription } from '../../../src/api/endpoints/schemas.js';
import { deleteSourceBlocker, planTransfer } from '../../../src/domain/transfer.js';

const sub = (productId: string, fields: Partial<Subscription> = {}): Subscription => ({
  id: `sub-${productId}`, product_id: productId, active: 1, status: 'active', accession_date: '2026-01-10', expiration_date: '2027-01-10',
  product: { id: productId, title: `Course ${productId}` }, ...fields,
});
const student = (id: string, subscriptions: Subscription[]): Student => ({ id, email: `${id}@example.com`, subscriptions });
const TODAY = '2026-11-25';

describe('planTransfer', () => {
  it('a subscription whose status the grant would reset stays with FROM, listed, unless includeStatusChanges; --delete-source is refused then', () => {
    const from = student('from', [sub('p1'), sub('p2', { status: 'canceled', expiration_date: null })]);
    const plan = planTransfer(from, student('to', []), TODAY);
    expect(plan.moves.map((move) => move.productId)).toEqual(['p1']);
    expect(plan.statusChanges).toEqual([{
      productId: 'p2', title: 'Course p2', status: 'canceled',
      why: 'access without end (status canceled): TO would get it with status canceled becomes active (the server\'s default for a grant); pass --include-status-changes to move it',
    }]);
    expect(deleteSourceBlocker(plan)).toBe('--delete-source would delete FROM with "Course p2" (p2), still with access, whose status the grant to TO would reset: '
      + 'pass --include-status-changes to move it anyway, or settle it first');
  });

  it('moves every product FROM holds with access, with its dates; notes a status reset (with includeStatusChanges) and a past expiration', () => {
    const from = student('from', [
      sub('p1'),
      sub('p2', { status: 'canceled', expiration_date: null }),
      sub('p3', { expiration_date: '2026-01-31', accession_date: '2025-02-01 00:00:00' }),
    ]);
    const plan = planTransfer(from, student('to', []), TODAY, { includeStatusChanges: true });
    expect(plan.statusChanges).toEqual([]);
    expect(plan.moves.map(({ productId, title, accession, expiration, notes }) => ({ productId, title, accession, expiration, notes }))).toEqual([
      { productId: 'p1', title: 'Course p1', accession: '2026-01-10', expiration: '2027-01-10', notes: [] },
      { productId: 'p2', title: 'Course p2', accession: '2026-01-10', expiration: undefined, notes: ['status canceled becomes active (the server\'s default for a grant)'] },
      { productId: 'p3', title: 'Course p3', accession: '2025-02-01', expiration: '2026-01-31', notes: ['its expiration 2026-01-31 is past'] },
    ]);
    expect(plan.moves[0]?.held).toBe(from.subscriptions?.[0]);
    expect(deleteSourceBlocker(plan)).toBeUndefined();
  });

  it('leaves with FROM what TO holds already and what has no access, saying why', () => {
    const from = student('from', [sub('p1'), sub('p2', { active: 0, status: 'refunded', expiration_date: '2026-02-01' }), sub('p3', { product: null })]);
    const to = student('to', [sub('p1', { status: 'inactive', active: 0 }), sub('p3', { expiration_date: null })]);
    const plan = planTransfer(from, to, TODAY);
    expect(plan.moves).toEqual([]);
    expect(plan.conflicts).toEqual([
      { productId: 'p1', title: 'Course p1', why: 'TO already holds it, no access (status inactive)' },
      { productId: 'p3', title: undefined, why: 'TO already holds it, access without end (status active)' },
    ]);
    expect(plan.withoutAccess).toEqual([{ productId: 'p2', title: 'Course p2', why: 'no access (status refunded): the API cannot grant a subscription without access' }]);
    expect(deleteSourceBlocker(plan)).toBe('--delete-source would delete FROM with "Course p1" (p1), p3, which TO already holds: settle them first (revoke from one of the two), then transfer again');
  });

  it('refuses the same student twice (exit 2), and moves nothing from a student without subscriptions', () => {
    expect(() => planTransfer(student('a', []), student('a', []), TODAY)).toThrow('FROM and TO are the same student');
    expect(planTransfer({ id: 'a' }, { id: 'b' }, TODAY)).toEqual({ moves: [], conflicts: [], withoutAccess: [], statusChanges: [] });
  });
});
