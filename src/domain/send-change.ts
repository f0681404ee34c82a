/**
 * The one path by which a change is sent and recorded (issue 36): a grant, a
 * revoke, a renewal (revoke, then grant again: the only way the API moves an
 * expiration or restores access) and a student's delete. Every command sends
 * them through sendChange — the single commands, bulk files, sync, extend,
 * transfer — so the record's intent (journal.begin, before the request) and
 * outcome are written in one place. Its rules:
 *
 * - Compare before destroy: a revoke or a renewal planned from a state read
 *   earlier (a snapshot, a sync's plan, a transfer's lookups; `compare`)
 *   reads the subscription again right before sending, one GET, and sends
 *   nothing when it is no longer the one planned from (`stale`). The record's
 *   `before` is the subscription really removed.
 * - A DELETE answered 404 — a retried request whose first attempt went
 *   through, or removed meanwhile — is done, once a look says it is gone.
 * - A grant refused (4xx) is looked at when the caller says what would do
 *   (`accepts`): granted meanwhile by someone else, nothing is recorded.
 * - A renewal whose grant fails after its revoke puts the old subscription
 *   back (RenewalFailedError says the state now).
 */
import type { Api } from '../api/client.js';
import type { Subscription } from '../api/endpoints/schemas.js';
import { deleteStudent, grantProduct, revokeProduct, studentProduct, type Grant } from '../api/endpoints/students.js';
import type { Journal, PendingChange } from '../audit/journal.js';
import type { Snapshot } from '../audit/log.js';
import { subscriptionSnapshot } from '../audit/snapshots.js';
import { CliError, ExitCode, NotFoundError, RejectedError } from '../lib/errors.js';
import { dateOf, hasAccess, productLabel, sameSubscription } from './subscription-state.js';

/** Who a change is about: the STUDENT as given (messages, the record) and its id. */
export interface Holder {
  input: string;
  id: string;
}

interface Common {
  api: Api;
  /** Records the change, intent first; none in tests of the core alone. */
  journal?: Journal;
  student: Holder;
  /** The change reverses this record: recorded as `action: undo`, `undoes` (members undo). */
  undoes?: string;
}

export interface GrantChange extends Common {
  action: 'grant';
  request: Grant;
  /** A refused grant is looked at: a subscription found that this accepts was granted meanwhile (`found`, nothing recorded). */
  accepts?: (now: Subscription) => boolean;
}

export interface RevokeChange extends Common {
  action: 'revoke';
  productId: string;
  /** The subscription the change was planned from (and, unless `compare`, read right before). */
  held: Subscription;
  /** `held` was read earlier: read it again first, and send nothing if it changed (`stale`). */
  compare?: boolean;
}

export interface RenewChange extends Omit<RevokeChange, 'action'> {
  action: 'renew';
  request: Grant;
  /** The record's result: `renewed`, or what a sync or an extension calls it (undo treats them all as renewals). */
  result?: 'renewed' | 'restored' | 'expiration-changed';
  /** The student in messages of a renewal that failed half-way. */
  label: string;
}

export interface DeleteChange extends Common {
  action: 'delete';
  /** The student as it was read, for the record (undo creates it again from it). */
  before?: Snapshot;
}

export type Change = GrantChange | RevokeChange | RenewChange | DeleteChange;

export type Sent =
  /** Sent and recorded. `removed`: the subscription a revoke or renewal really removed; `gone`: a DELETE found nothing left. */
  | { outcome: 'applied'; data?: Subscription; requestId?: string; recovered?: boolean; auditId?: string; removed?: Subscription; gone?: boolean }
  /** Compared before destroying: the subscription is not the one planned from (`now`: what it is; none: gone). Nothing sent or recorded. */
  | { outcome: 'stale'; now: Subscription | undefined }
  /** The grant was refused, and the product is held as `accepts` wants: granted meanwhile. Nothing recorded. */
  | { outcome: 'found'; now: Subscription };

/** A renewal that failed after its revoke: what the state is now (the old subscription put back, or lost with the undo that restores it). Exit 5. */
export class RenewalFailedError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.rejected);
  }
}

/** How the put-back of a renewal whose grant failed is named in its record's command. */
export const RESTORE = 'restores the subscription after a failed renewal';

/** A change that was sent and recorded. */
export type Applied = Extract<Sent, { outcome: 'applied' }>;

/** A grant that looks at nothing when refused, and a delete, are applied or throw. */
export async function sendChange(change: DeleteChange | (GrantChange & { accepts?: undefined })): Promise<Applied>;
export async function sendChange(change: Change): Promise<Sent>;
export async function sendChange(change: Change): Promise<Sent> {
  switch (change.action) {
    case 'grant':
      return grant(change);
    case 'revoke':
      return revoke(change);
    case 'renew':
      return renew(change);
    case 'delete':
      return remove(change);
  }
}

/** Who and what a subscription change is about, as its record names them. */
const subject = (student: Holder, productId: string) => ({ student: student.input, student_id: student.id, product_id: productId });

/** The record's action: the change's own, or `undo` with the id of the change it reverses. */
const acting = (change: Change, action: 'grant' | 'revoke' | 'renew' | 'delete') => (change.undoes === undefined ? { action } : { action: 'undo' as const, undoes: change.undoes });

/** A grant about to be sent, as its intent records it. */
const planned = (body: Grant) => ({ product_id: body.product_id, accession_date: body.accession_date, expiration_date: body.expiration_date ?? null });

const lookAt = (api: Api, student: Holder, productId: string) => studentProduct(api, student.id, productId);

/**
 * A DELETE answered 404: a retried request whose first attempt went through,
 * or removed meanwhile. Done, unless `stillThere` (a look) says otherwise.
 */
async function goneAnyway(error: unknown, stillThere?: () => Promise<unknown>): Promise<boolean> {
  return error instanceof NotFoundError && !(stillThere && (await stillThere()));
}

/** Sends `send` under the intent `pending`; a failure is recorded (failed), then thrown again, unless `gone` says a DELETE is done all the same. */
async function settle<T>(pending: PendingChange | undefined, send: () => Promise<T>, gone?: (error: unknown) => Promise<boolean>): Promise<T | undefined> {
  try {
    return await send();
  } catch (error) {
    if (gone && (await gone(error))) return undefined;
    await pending?.failed(error);
    throw error;
  }
}

async function grant(change: GrantChange): Promise<Sent> {
  const { api, student, request } = change;
  const pending = await change.journal?.begin({ ...acting(change, 'grant'), result: 'granted', ...subject(student, request.product_id), after: planned(request) });
  let granted: Awaited<ReturnType<typeof grantProduct>>;
  try {
    granted = await grantProduct(api, student.id, request);
  } catch (error) {
    // Refused because it is there now: another run (the same file twice at once) granted it in between.
    const now = change.accepts && error instanceof RejectedError ? await lookAt(api, student, request.product_id).catch(() => undefined) : undefined;
    if (now && change.accepts?.(now)) {
      pending?.dropped();
      return { outcome: 'found', now };
    }
    await pending?.failed(error);
    throw error;
  }
  const auditId = await pending?.applied({ request_id: granted.requestId, after: subscriptionSnapshot(granted.data) });
  return { outcome: 'applied', ...granted, auditId };
}

/** The subscription a destroy removes: `held`, read again first when it was read earlier; undefined when that one changed (stale). */
async function toRemove(change: RevokeChange | RenewChange): Promise<{ removed: Subscription } | { stale: Subscription | undefined }> {
  if (!change.compare) return { removed: change.held };
  const now = await lookAt(change.api, change.student, change.productId);
  return now !== undefined && sameSubscription(now, change.held) ? { removed: now } : { stale: now };
}

async function revoke(change: RevokeChange): Promise<Sent> {
  const { api, student, productId } = change;
  const target = await toRemove(change);
  if ('stale' in target) return { outcome: 'stale', now: target.stale };
  const pending = await change.journal?.begin({ ...acting(change, 'revoke'), result: 'revoked', ...subject(student, productId), before: subscriptionSnapshot(target.removed) });
  const answer = await settle(pending, () => revokeProduct(api, student.id, productId), (error) => goneAnyway(error, () => lookAt(api, student, productId)));
  const auditId = await pending?.applied({ request_id: answer?.requestId });
  return { outcome: 'applied', requestId: answer?.requestId, auditId, removed: target.removed, gone: answer === undefined };
}

/**
 * Revoke, then grant again: one operation, one intent, so that a kill
 * between the two is found by the next run. When the grant fails after the
 * revoke, the product is looked at, and the old subscription is put back.
 */
async function renew(change: RenewChange): Promise<Sent> {
  const { api, student, productId, request } = change;
  const target = await toRemove(change);
  if ('stale' in target) return { outcome: 'stale', now: target.stale };
  const held = target.removed;
  const pending = await change.journal?.begin({
    ...acting(change, 'renew'), result: change.result ?? 'renewed', ...subject(student, productId), before: subscriptionSnapshot(held), after: planned(request),
  });
  // The grant comes next: a 404 here is a retried DELETE, nothing to look at.
  await settle(pending, () => revokeProduct(api, student.id, productId), (error) => goneAnyway(error));
  let granted: { data: Subscription; requestId?: string; recovered?: boolean };
  try {
    granted = await grantProduct(api, student.id, request);
  } catch (error) {
    // A grant whose answer was lost (a timeout) may have gone through: look before putting anything back.
    const now = await lookAt(api, student, productId).then((found) => found ?? null, () => undefined);
    if (!now) {
      return putBack(api, { student, productId, held, request, what: productLabel(productId, held), label: change.label, change: pending, journal: change.journal, notHeld: now === null }, error);
    }
    granted = { data: now, recovered: true };
  }
  const auditId = await pending?.applied({ request_id: granted.requestId, after: subscriptionSnapshot(granted.data) });
  return { outcome: 'applied', ...granted, auditId, removed: held };
}

async function remove(change: DeleteChange): Promise<Sent> {
  const { api, student } = change;
  const pending = await change.journal?.begin({ ...acting(change, 'delete'), result: 'deleted', student: student.input, student_id: student.id, before: change.before });
  // Just seen, now gone: a retried DELETE whose first attempt went through.
  const answer = await settle(pending, () => deleteStudent(api, student.id), (error) => goneAnyway(error));
  const auditId = await pending?.applied({ request_id: answer?.requestId });
  return { outcome: 'applied', requestId: answer?.requestId, auditId, gone: answer === undefined };
}

interface HalfRenewal {
  student: Holder;
  productId: string;
  held: Subscription;
  request: Grant;
  what: string;
  label: string;
  change?: PendingChange;
  journal?: Journal;
  /** The product was looked at after the failure, and is not held (false: it could not be looked at). */
  notHeld: boolean;
}

/** `accession 2024-01-01, expiration 2024-12-31, status canceled, no access` */
function described(subscription: Subscription): string {
  const parts = [`accession ${dateOf(subscription.accession_date) ?? 'none'}`, `expiration ${dateOf(subscription.expiration_date) ?? 'none'}`];
  if (subscription.status) parts.push(`status ${subscription.status}`);
  if (!hasAccess(subscription)) parts.push('no access');
  return parts.join(', ');
}

/**
 * The renewal's grant failed after its revoke: the old subscription is put
 * back (granted again with its dates) and both steps recorded, and the error
 * says what the state is now; when the put-back fails too, what was lost and
 * the `members undo` that restores it.
 */
async function putBack(api: Api, half: HalfRenewal, error: unknown): Promise<never> {
  const { student, productId, held, what, label, change } = half;
  const why = (error as Error).message;
  const undo = (id: string | undefined, tail: string) => (id ? `; \`members undo ${id}\` ${tail}` : '');
  if (!half.notHeld) {
    // The intent stays: the next run checks whether the student has the product, and says so.
    throw new RenewalFailedError(`the renewal of ${what} for ${label} stopped after its revoke: the new grant failed (${why}) and the product could not be checked. `
      + `The student may have lost the subscription (${described(held)}); the next members command checks it and says so${undo(change?.id, 'then grants it again with those dates')}`);
  }
  if (!hasAccess(held)) {
    await change?.applied({ result: 'revoked' });
    throw new RenewalFailedError(`the renewal failed: ${why}. The old subscription (${described(held)}) was revoked and is not put back: the API cannot create a subscription without access, `
      + `so ${label} has no access to ${what}, as before${undo(change?.id, 'grants it again with its dates, with access')}`);
  }
  const restore = { product_id: productId, accession_date: dateOf(held.accession_date) ?? half.request.accession_date, expiration_date: dateOf(held.expiration_date) };
  // Opened before the revoke's record closes, so that Ctrl-C cannot fall between the two.
  // Its command says what it was: in a history table it would read as a plain grant.
  const repair = await half.journal?.begin({
    action: 'undo', command: `${half.journal.command} (${RESTORE})`, undoes: change?.id, result: 'granted', ...subject(student, productId), after: planned(restore),
  }, { repair: true });
  await change?.applied({ result: 'revoked' });
  let restored: Subscription;
  try {
    const { data, requestId } = await grantProduct(api, student.id, restore);
    restored = data;
    await repair?.applied({ request_id: requestId, after: subscriptionSnapshot(data) });
  } catch (restoreError) {
    await repair?.failed(restoreError);
    throw new RenewalFailedError(`the renewal failed: ${why}; putting the old subscription back failed too: ${(restoreError as Error).message}; `
      + `${label} has lost ${what} (${described(held)})${undo(change?.id, 'grants it again with those dates')}`);
  }
  const until = restore.expiration_date ? `until ${restore.expiration_date}` : 'and no expiration';
  const status = restored.status && held.status && restored.status !== held.status ? ` (it was ${held.status}: the API sets no status on a grant)` : '';
  throw new RenewalFailedError(`the renewal failed: ${why}; the old subscription was restored with access ${until} (accession ${restore.accession_date}); `
    + `its status is now ${restored.status ?? 'the one the server gives a grant'}${status}`);
}
