/**
 * Applying one change of a sync plan, for the bulk engine (engine.ts
 * execute): the plan was made from a snapshot read moments ago, so a change
 * is sent without reading its state again — a grant is one POST, a revoke one
 * DELETE, a restore or an expiration change a DELETE and a POST (changes.ts
 * replaceSubscription) — and the state is read only when the server refuses
 * (someone changed it meanwhile). A saved plan applied later (`verify`) reads
 * each row's state first: changed since it was planned is `stale`, already as
 * planned (an earlier run of the same plan) is `skipped`, nothing sent.
 */
import type { Subscription } from '../../api/endpoints/schemas.js';
import { grantProduct, revokeProduct, studentProduct } from '../../api/endpoints/students.js';
import { BulkFailedError, CliError, ExitCode, InterruptedError, NotFoundError, RejectedError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import type { BulkSummary } from '../bulk/engine.js';
import { hasAccess, productLabel, replaceSubscription } from '../changes.js';
import { subscriptionSnapshot } from '../../audit/snapshots.js';
import { resolveStudent } from '../resolve.js';
import type { BulkOperation, BulkRowOutcome, RowContext } from '../bulk/operations.js';
import type { HeldState, PlannedChange } from './plan.js';

type Outcome = Omit<BulkRowOutcome, 'line'>;

const dateOf = (value: string | null | undefined) => (value ? value.slice(0, 10) : undefined);

/** A held subscription in the shape of HeldState (the plan's), for comparing. */
function stateOf(held: Subscription): HeldState {
  const state: HeldState = { hasAccess: hasAccess(held) };
  if (held.status) state.status = held.status;
  const accession = dateOf(held.accession_date);
  const expiration = dateOf(held.expiration_date);
  if (accession !== undefined) state.accessionDate = accession;
  if (expiration !== undefined) state.expirationDate = expiration;
  return state;
}

/** The subscription is as it was when the change was planned (none: none). */
export function unchangedSince(held: Subscription | undefined, from: HeldState | undefined): boolean {
  if (held === undefined || from === undefined) return held === undefined && from === undefined;
  const now = stateOf(held);
  // Granted again since (another subscription): changed, whatever its dates.
  if (from.id !== undefined && held.id !== undefined && held.id !== null && String(held.id) !== from.id) return false;
  return now.hasAccess === from.hasAccess && now.status === from.status && now.accessionDate === from.accessionDate
    && now.expirationDate === from.expirationDate;
}

/** The subscription is already what the change would leave: revoked (none), or access on with the planned expiration. */
export function asPlanned(held: Subscription | undefined, change: Pick<PlannedChange, 'action' | 'expiration'>): boolean {
  if (change.action === 'revoke') return held === undefined;
  return held !== undefined && hasAccess(held) && dateOf(held.expiration_date) === change.expiration;
}

/** The planned-from state in the API's shape: the audit log's `before` (what undo grants back). */
export function heldSubscription(productId: string, from: HeldState): Subscription {
  return {
    ...(from.id === undefined ? {} : { id: from.id }), product_id: productId, active: from.hasAccess ? 1 : 0, status: from.status ?? null,
    accession_date: from.accessionDate ?? null, expiration_date: from.expirationDate ?? null,
  };
}

const describe = (held: Subscription | undefined) => {
  if (!held) return 'no subscription';
  const parts = [hasAccess(held) ? 'access on' : 'access off', held.status ? `status ${held.status}` : '', `expiration ${dateOf(held.expiration_date) ?? 'none'}`];
  return parts.filter(Boolean).join(', ');
};

/** Found changed: stale (a person decides), unless it is already as planned (then nothing is left to do). */
function foundChanged(change: PlannedChange, base: Outcome, held: Subscription | undefined, when: string, replan: string): Outcome {
  const what = productLabel(change.productId, held);
  if (asPlanned(held, change)) {
    return { ...base, result: 'skipped', message: `${what} of ${change.student} is already as planned (${describe(held)}; ${when}); nothing sent` };
  }
  return { ...base, result: 'stale', message: `${what} of ${change.student} changed since the plan was made (now ${describe(held)}); nothing sent: ${replan}` };
}

export interface SyncApplyOptions {
  /** Read each change's state first (a saved plan): stale when it changed since it was planned. */
  verify: boolean;
  /** The audit log's command: `sync` unless another command plans such changes (`subscriptions extend`). */
  command?: string;
  /** How to plan a stale change again (`plan again: \`members sync --file F --plan-out P\``). */
  replan: string;
}

/** The sync's changes as the bulk engine's operation. */
export function syncOperation(options: SyncApplyOptions): Pick<BulkOperation<PlannedChange>, 'apply' | 'command'> {
  return {
    command: options.command ?? 'sync',
    apply: (context, change) => applyChange(context, change, options),
  };
}

async function applyChange(context: RowContext, change: PlannedChange, options: SyncApplyOptions): Promise<Outcome> {
  const { api } = context;
  if (change.action === 'not-found') {
    return { action: change.action, student: change.student, product_id: change.productId, result: 'failed', message: change.notes.join('; '), reason: context.reason };
  }
  const studentId = change.studentId ?? (await resolveStudent(api, change.student, { cache: context.cache, fetch: true })).id;
  const base: Outcome = { action: change.action, student: change.student, student_id: studentId, product_id: change.productId, result: 'failed', message: '', reason: context.reason };
  if (options.verify) {
    const held = await studentProduct(api, studentId, change.productId);
    if (!unchangedSince(held, change.from)) return foundChanged(change, base, held, 'an earlier run of this plan, or someone else', options.replan);
  }
  const before = change.from && heldSubscription(change.productId, change.from);
  const about = { student: change.student, student_id: studentId, product_id: change.productId };
  switch (change.action) {
    case 'grant': {
      const dates = { product_id: change.productId, accession_date: change.accession as string, expiration_date: change.expiration };
      const pending = await context.journal?.begin({ action: 'grant', result: 'granted', ...about, after: { ...dates, expiration_date: dates.expiration_date ?? null } });
      let granted: Awaited<ReturnType<typeof grantProduct>>;
      try {
        granted = await grantProduct(api, studentId, dates);
      } catch (error) {
        // Refused: the student has the product now (someone granted it since the snapshot).
        const now = error instanceof RejectedError ? await studentProduct(api, studentId, change.productId) : undefined;
        if (!now) {
          await pending?.failed(error);
          throw error;
        }
        pending?.dropped();
        return foundChanged(change, base, now, 'granted meanwhile by someone else', options.replan);
      }
      const { data, requestId, recovered } = granted;
      await pending?.applied({ request_id: requestId, after: subscriptionSnapshot(data) });
      return {
        ...base, result: 'granted', requestId, recovered,
        message: `granted ${productLabel(change.productId, data)} to ${change.student}${datesText(change)}${recoveredNote(recovered)}`,
      };
    }
    case 'revoke': {
      const pending = await context.journal?.begin({ action: 'revoke', result: 'revoked', ...about, before: before && subscriptionSnapshot(before) });
      let requestId: string | undefined;
      let gone = '';
      try {
        ({ requestId } = await revokeProduct(api, studentId, change.productId));
      } catch (error) {
        // A retried DELETE whose first attempt went through finds nothing left to delete (or it was revoked meanwhile).
        if (!(error instanceof NotFoundError) || (await studentProduct(api, studentId, change.productId))) {
          await pending?.failed(error);
          throw error;
        }
        gone = ' (it was already gone when the server answered: a retried request, or revoked meanwhile)';
      }
      await pending?.applied({ request_id: requestId });
      return {
        ...base, result: 'revoked', requestId, message: `revoked ${productLabel(change.productId)} from ${change.student}${gone}`,
      };
    }
    case 'restore':
    case 'change-expiration': {
      const dates = change.expiration === undefined ? { accession: change.accession as string } : { accession: change.accession as string, expiration: change.expiration };
      // The renewal's guarantee: a grant refused after the revoke puts the planned-from subscription back.
      const replaced = before ?? heldSubscription(change.productId, { hasAccess: true });
      const result = change.action === 'restore' ? 'restored' : 'expiration-changed';
      const { data, requestId, recovered } = await replaceSubscription(api, { input: change.student, id: studentId }, change.productId, replaced, dates, {
        journal: context.journal, label: change.student, result,
      });
      const what = change.action === 'restore'
        ? `restored ${productLabel(change.productId, data)} for ${change.student}`
        : `changed the expiration of ${productLabel(change.productId, data)} for ${change.student} from ${change.from?.expirationDate ?? 'none'} to ${change.expiration ?? 'none'}`;
      return {
        ...base, result, requestId, recovered,
        message: `${what}: revoked and granted again${datesText(change)}${change.notes.length > 0 ? `; ${change.notes.join('; ')}` : ''}${recoveredNote(recovered)}`,
      };
    }
  }
}

const datesText = (change: PlannedChange) => `, accession ${change.accession}, expiration ${change.expiration ?? 'none'}`;
const recoveredNote = (recovered: boolean | undefined) => (recovered ? ' (an uncertain response was checked: applied once, not resent)' : '');

/**
 * How an applied sync ends: its fatal error, an interruption (130), changes
 * that failed or were stale (7; 6 when every failure was transient), else
 * undefined. `again` says how to finish the work; `replan`, how to when a
 * change was stale (applying the same plan again would find it stale again).
 */
export function syncRunError(summary: BulkSummary, fatal: unknown, again: string, replan = again): unknown {
  if (fatal !== undefined) return fatal;
  const of = `${summary.processed} of ${plural(summary.rows, 'change')}`;
  if (summary.interrupted) return new InterruptedError(`interrupted after ${of}; ${again} to apply the rest`);
  if (summary.tripped) {
    return new CliError(`stopped after ${of}: the last changes all failed for a transient reason (the server is down or rate limiting); ${again} later`, ExitCode.transient);
  }
  const failed = summary.counts.failed;
  const stale = summary.counts.stale ?? 0;
  if (failed > 0 && stale === 0 && summary.transientOnly) {
    return new CliError(`${failed} of ${plural(summary.rows, 'change')} failed, all for a transient reason (429, 5xx, network, timeout); ${again} later`, ExitCode.transient);
  }
  if (failed + stale === 0) return undefined;
  const what = [failed > 0 ? `${failed} failed` : '', stale > 0 ? `${stale} ${stale === 1 ? 'was' : 'were'} stale (changed since it was planned)` : ''].filter(Boolean).join(' and ');
  return new BulkFailedError(`of ${plural(summary.rows, 'change')}, ${what}; see their results for the reasons, fix the cause, then ${stale > 0 ? replan : again}`);
}
