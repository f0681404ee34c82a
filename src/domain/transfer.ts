/**
 * `students transfer FROM TO` (issue 30): a purchase made under a mistyped
 * e-mail, a student who changed e-mail. Every product FROM holds with access
 * is granted to TO with the same accession and expiration dates, then revoked
 * from FROM. What cannot move is said before anything is sent: a product TO
 * holds already (a person must choose which subscription stays), and one FROM
 * holds without access (the API cannot grant a subscription without access),
 * and one whose status the grant would reset (canceled with access left →
 * active: grant-status.ts), unless the operator said so.
 * Progress and score stay with FROM: the API has no way to move them.
 * Pure: the caller reads both students and sends the changes.
 */
import type { Student, Subscription } from '../api/endpoints/schemas.js';
import { UsageError } from '../lib/errors.js';
import { hasAccess } from './changes.js';
import { resetsStatus, statusResetNote } from './grant-status.js';

export interface Move {
  productId: string;
  title?: string;
  /** FROM's subscription, as it is revoked. */
  held: Subscription;
  accession?: string;
  expiration?: string;
  /** A status the grant resets, an expiration already past. */
  notes: string[];
}

export interface Staying {
  productId: string;
  title?: string;
  /** The status it keeps with FROM, when that is why it stays. */
  status?: string;
  why: string;
}

export interface TransferPlan {
  moves: Move[];
  /** Products TO holds already: they stay with FROM (a person decides). */
  conflicts: Staying[];
  /** Products FROM holds without access: they stay with FROM (and go with it on --delete-source). */
  withoutAccess: Staying[];
  /** Products whose status the grant to TO would reset: they stay with FROM unless --include-status-changes. */
  statusChanges: Staying[];
}

const day = (value: string | null | undefined) => (value ? value.slice(0, 10) : undefined);

/** `access until 2026-05-01 (status canceled)` */
function described(subscription: Subscription): string {
  const expiration = day(subscription.expiration_date);
  const access = hasAccess(subscription) ? (expiration ? `access until ${expiration}` : 'access without end') : 'no access';
  return `${access}${subscription.status ? ` (status ${subscription.status})` : ''}`;
}

export function planTransfer(from: Student, to: Student, today: string, options: { includeStatusChanges?: boolean } = {}): TransferPlan {
  if (from.id === to.id) throw new UsageError('FROM and TO are the same student: nothing to transfer');
  const plan: TransferPlan = { moves: [], conflicts: [], withoutAccess: [], statusChanges: [] };
  const toHolds = new Map((to.subscriptions ?? []).map((subscription) => [subscription.product_id, subscription]));
  for (const held of from.subscriptions ?? []) {
    const productId = held.product_id;
    const title = held.product?.title ?? undefined;
    if (!hasAccess(held)) {
      plan.withoutAccess.push({ productId, title, why: `${described(held)}: the API cannot grant a subscription without access` });
      continue;
    }
    const theirs = toHolds.get(productId);
    if (theirs) {
      plan.conflicts.push({ productId, title, why: `TO already holds it, ${described(theirs)}` });
      continue;
    }
    const accession = day(held.accession_date);
    const expiration = day(held.expiration_date);
    const notes: string[] = [];
    if (resetsStatus(held.status)) {
      if (!options.includeStatusChanges) {
        plan.statusChanges.push({ productId, title, status: held.status, why: `${described(held)}: TO would get it with ${statusResetNote(held.status)}; pass --include-status-changes to move it` });
        continue;
      }
      notes.push(statusResetNote(held.status));
    }
    if (expiration !== undefined && expiration < today) notes.push(`its expiration ${expiration} is past`);
    plan.moves.push({ productId, title, held, accession, expiration, notes });
  }
  return plan;
}

const names = (stays: readonly Staying[]) => stays.map((stay) => (stay.title ? `"${stay.title}" (${stay.productId})` : stay.productId)).join(', ');

/** --delete-source deletes FROM only when nothing with access stays behind. */
export function deleteSourceBlocker(plan: TransferPlan): string | undefined {
  if (plan.conflicts.length > 0) {
    return `--delete-source would delete FROM with ${names(plan.conflicts)}, which TO already holds: settle ${plan.conflicts.length === 1 ? 'it' : 'them'} first `
      + '(revoke from one of the two), then transfer again';
  }
  if (plan.statusChanges.length > 0) {
    const one = plan.statusChanges.length === 1;
    return `--delete-source would delete FROM with ${names(plan.statusChanges)}, still with access, whose status the grant to TO would reset: `
      + `pass --include-status-changes to move ${one ? 'it' : 'them'} anyway, or settle ${one ? 'it' : 'them'} first`;
  }
  return undefined;
}
