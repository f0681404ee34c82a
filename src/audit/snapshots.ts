/** The flat pictures of resources that the record keeps: what undo needs to restore or to check them. */
import type { Student, Subscription } from '../api/endpoints/schemas.js';
import type { Snapshot } from './log.js';

/** What undo needs of a subscription: to re-grant it after a revoke, or to check it before revoking a grant. */
export function subscriptionSnapshot(subscription: Subscription): Snapshot {
  return {
    id: subscription.id ?? null,
    product_id: subscription.product_id,
    accession_date: subscription.accession_date ?? null,
    expiration_date: subscription.expiration_date ?? null,
    status: subscription.status ?? null,
    active: subscription.active ?? null,
  };
}

/** What undo needs to create a deleted student again. */
export function studentSnapshot(student: Student): Snapshot {
  return {
    id: student.id,
    first_name: student.first_name ?? null,
    last_name: student.last_name ?? null,
    email: student.email ?? null,
    phone: student.phone ?? null,
    birth: student.birth ?? null,
    document: student.document ?? null,
    reference_id: student.reference_id ?? null,
  };
}
