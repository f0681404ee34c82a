/**
 * Applying one change of a sync plan, for the bulk engine (engine.ts
 * execute): the plan was made from a snapshot read moments ago, so a grant is
 * sent without reading its state again (one POST); a revoke (one DELETE), a
 * restore or an expiration change (a DELETE and a POST) reads the
 * subscription once more right before it destroys anything, and is `stale`,
 * nothing sent, when someone changed it since the plan was made (a desk's
 * renewal during a nightly sync). Every change goes through sendChange
 * (send-change.ts), which records it. A saved plan applied later (`verify`)
 * reads a grant's state first too: changed since it was planned is `stale`,
 * already as planned (an earlier run of the same plan) is `skipped`.
 */
import type { Subscription } from '../../api/endpoints/schemas.js';
import { studentProduct } from '../../api/endpoints/students.js';
import { BulkFailedError, CliError, ExitCode, InterruptedError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import type { BulkSummary } from '../bulk/engine.js';
import { sendChange } from '../send-change.js';
import { dateOf, hasAccess, productLabel, sameSubscription, stateText } from '../subscription-state.js';
import { resolveStudent } from '../resolve.js';
import type { BulkOperation, BulkRowOutcome, RowContext } from '../bulk/operations.js';
import type { HeldState, PlannedChange } from './plan.js';

type Outcome = Omit<BulkRowOutcome, 'line'>;

/** The subscription is as it was when the change was planned (none: none). */
export function unchangedSince(held: Subscription | undefined, from: HeldState | undefined): boolean {
  return sameSubscription(held, from && heldSubscription(held?.product_id ?? '', from));
}

/** The subscription is already what the change would leave: revoked (none), or access on with the planned expiration. */
export function asPlanned(held: Subscription | undefined, change: Pick<PlannedChange, 'action' | 'expiration'>): boolean {
  if (change.action === 'revoke') return held === undefined;
  return held !== undefined && hasAccess(held) && dateOf(held.expiration_date) === change.expiration;
}

/** The planned-from state in the API's shape: what a destroy compares with before sending. */
export function heldSubscription(productId: string, from: HeldState): Subscription {
  return {
    ...(from.id === undefined ? {} : { id: from.id }), product_id: productId, active: from.hasAccess ? 1 : 0, status: from.status ?? null,
    accession_date: from.accessionDate ?? null, expiration_date: from.expirationDate ?? null,
  };
}

/** Found changed: stale (a person decides), unless it is already as planned (then nothing is left to do). */
function foundChanged(change: PlannedChange, base: Outcome, held: Subscription | undefined, when: string, replan: string): Outcome {
  const what = productLabel(change.productId, held);
  if (asPlanned(held, change)) {
    return { ...base, result: 'skipped', message: `${what} of ${change.student} is already as planned (${stateText(held)}; ${when}); nothing sent` };
  }
  return { ...base, result: 'stale', message: `${what} of ${change.student} changed since the plan was made (now ${stateText(held)}); nothing sent: ${replan}` };
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
  const { api, journal } = context;
  if (change.action === 'not-found') {
    return { action: change.action, student: change.student, product_id: change.productId, result: 'failed', message: change.notes.join('; '), reason: context.reason };
  }
  const studentId = change.studentId ?? (await resolveStudent(api, change.student, { cache: context.cache, fetch: true })).id;
  const base: Outcome = { action: change.action, student: change.student, student_id: studentId, product_id: change.productId, result: 'failed', message: '', reason: context.reason };
  const student = { input: change.student, id: studentId };
  const when = options.verify ? 'an earlier run of this plan, or someone else' : 'changed by someone else since the sync read it';
  if (change.action === 'grant') {
    if (options.verify) {
      const held = await studentProduct(api, studentId, change.productId);
      if (!unchangedSince(held, change.from)) return foundChanged(change, base, held, when, options.replan);
    }
    const request = { product_id: change.productId, accession_date: change.accession as string, expiration_date: change.expiration };
    // Refused: the student has the product now (someone granted it since the snapshot).
    const sent = await sendChange({ action: 'grant', api, journal, student, request, accepts: () => true });
    if (sent.outcome !== 'applied') return foundChanged(change, base, sent.now, 'granted meanwhile by someone else', options.replan);
    const { data, requestId, recovered } = sent;
    return {
      ...base, result: 'granted', requestId, recovered,
      message: `granted ${productLabel(change.productId, data)} to ${change.student}${datesText(change)}${recoveredNote(recovered)}`,
    };
  }
  // What a destroy compares with before sending; the renewal's guarantee: a grant refused after the revoke puts it back.
  const held = heldSubscription(change.productId, change.from ?? { hasAccess: true });
  if (change.action === 'revoke') {
    const sent = await sendChange({ action: 'revoke', api, journal, student, productId: change.productId, held, compare: true });
    if (sent.outcome !== 'applied') return foundChanged(change, base, sent.now, when, options.replan);
    const gone = sent.gone ? ' (it was already gone when the server answered: a retried request, or revoked meanwhile)' : '';
    return { ...base, result: 'revoked', requestId: sent.requestId, message: `revoked ${productLabel(change.productId)} from ${change.student}${gone}` };
  }
  const result = change.action === 'restore' ? 'restored' : 'expiration-changed';
  const request = { product_id: change.productId, accession_date: change.accession as string, expiration_date: change.expiration };
  const sent = await sendChange({ action: 'renew', api, journal, student, productId: change.productId, held, request, compare: true, result, label: change.student });
  if (sent.outcome !== 'applied') return foundChanged(change, base, sent.now, when, options.replan);
  const { data, requestId, recovered } = sent;
  const what = change.action === 'restore'
    ? `restored ${productLabel(change.productId, data)} for ${change.student}`
    : `changed the expiration of ${productLabel(change.productId, data)} for ${change.student} from ${change.from?.expirationDate ?? 'none'} to ${change.expiration ?? 'none'}`;
  return {
    ...base, result, requestId, recovered,
    message: `${what}: revoked and granted again${datesText(change)}${change.notes.length > 0 ? `; ${change.notes.join('; ')}` : ''}${recoveredNote(recovered)}`,
  };
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
