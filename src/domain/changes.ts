/**
 * The core of `grant` and `revoke`, shared by the single commands and the
 * bulk CSV runs: check the state first, change only what is missing, and
 * describe what happened in one result record.
 */
import type { Api } from '../api/client.js';
import type { Subscription } from '../api/endpoints/schemas.js';
import { getStudent, studentProduct, type Grant } from '../api/endpoints/students.js';
import type { Journal } from '../audit/journal.js';
import { CliError, ExitCode, UsageError } from '../lib/errors.js';
import { parseDate, today } from '../lib/values.js';
import { studentLabel, type ResolvedStudent } from './resolve.js';
import { resetsStatus, statusResetNote } from './grant-status.js';
import { sendChange } from './send-change.js';
import { dateOf, hasAccess, productLabel, stateText } from './subscription-state.js';

export { RenewalFailedError, RESTORE, type Holder } from './send-change.js';
export { hasAccess, productLabel } from './subscription-state.js';

/** `stale`: a change planned from a snapshot found the subscription changed when it read it again before destroying; nothing sent. */
export type ChangeResultKind = 'granted' | 'revoked' | 'renewed' | 'skipped' | 'stale';

/** One row of a bulk run's output (the bulk command adds `line`). */
export interface ChangeResult {
  /** The STUDENT as given. */
  student: string;
  product_id: string;
  result: ChangeResultKind;
  message: string;
}

/** A ChangeResult and what the single commands and the audit log need besides. */
export interface ChangeOutcome extends ChangeResult {
  /** Resolved id of the student. */
  student_id: string;
  /** Granted or renewed: the new subscription; skipped grant: the one already held; revoked: the one removed. */
  subscription?: Subscription;
  /** Renewed: the subscription it replaced (for the audit log and undo). */
  replaced?: Subscription;
  /** The server's request id of the change, if it sent one. */
  requestId?: string;
  /** `--reason`, for the audit log; never printed. */
  reason?: string;
  /** Nothing was sent because of `dryRun`; `result` says what would have happened. */
  dryRun?: boolean;
  /** A POST whose outcome was unknown was found applied by a lookup instead of being resent. */
  recovered?: boolean;
  /** The change's record in the audit log (`members undo ID`), when a journal recorded it. */
  auditId?: string;
}

/** The words of a refusal that depend on where the change came from; the flags' words unless told otherwise. */
export interface ChangeWording {
  /** How to ask for a renewal: `pass --renew` (a bulk row: its renew column). */
  renew?: string;
  /** How to allow a status change: `pass --include-status-changes`. */
  statusChange?: string;
  /** The names of the dates: the flags (`--accession`), or a bulk row's columns. */
  dates?: DateNames;
}

export interface ChangeOptions {
  reason?: string;
  /** Check and resolve, change nothing. */
  dryRun?: boolean;
  /**
   * Runs after the checks, right before the change is sent; not when the
   * change is skipped or in a dry run. Single commands announce the target
   * and confirm here; a throw cancels the change.
   */
  beforeChange?: (held?: Subscription) => Promise<void>;
  /**
   * A grant over a subscription that exists without access, or with another
   * expiration: may it be renewed (revoked, then granted again)? The command
   * answers from --renew or a question on a terminal. Without it, or on
   * false, the grant fails with AccessNotHeldError and nothing is sent.
   */
  renew?: (held: Subscription, gap: string, statusChange?: string) => Promise<boolean | 'asked'>;
  /**
   * A renewal resets a status other than the grant's (canceled, refunded…:
   * grant-status.ts). It is made only when told so, or when `renew` answered
   * `asked` (a person said yes to a question that named `statusChange`);
   * otherwise StatusResetError (exit 5; a bulk row `skipped`), nothing sent.
   */
  includeStatusChanges?: boolean;
  /** How the caller's user says things (flags, a file's columns, the assistant's tools), for the refusals' messages. */
  wording?: ChangeWording;
  /** The product's title, when the caller knows it (the list was read): messages name a product not held by it too. */
  title?: string;
  /**
   * The state as a snapshot of the platform read it (domain/snapshot.ts):
   * the student exists and holds `held` (or nothing), so no check is sent.
   * The change itself is still checked when the server refuses it.
   */
  known?: { held: Subscription | undefined };
  /** Records each change, intent first (audit/journal.ts); none in a dry run and in tests of the core alone. */
  journal?: Journal;
}

/** The subscription exists but not as asked (no access, another expiration): exit 5, nothing was sent. */
export class AccessNotHeldError extends CliError {
  constructor(message: string, readonly held: Subscription) {
    super(message, ExitCode.rejected);
  }
}

/** A renewal would reset the subscription's status (grant-status.ts), and was not told it may: exit 5, nothing was sent. */
export class StatusResetError extends AccessNotHeldError {}

export interface GrantDates {
  accession: string;
  expiration?: string;
  /** The accession was given, not defaulted to today: a renewal uses it instead of the original one. */
  accessionGiven?: boolean;
}

/**
 * Validates the dates of a grant before anything is sent (UsageError, exit 2):
 * real calendar dates, `accession` defaulting to today, expiration not before
 * accession. `names` label the values in messages (flags, or CSV columns).
 */
export function grantDates(
  accession: string | undefined,
  expiration: string | undefined,
  names: DateNames = DATE_FLAGS,
  now = new Date(),
  options: { mayRenew?: boolean } = {},
): GrantDates {
  const given = !(accession === undefined || accession === '');
  const from = given ? parseDate(accession, names.accession) : today(now);
  const base = given ? { accession: from, accessionGiven: true } : { accession: from };
  if (expiration === undefined || expiration === '') return base;
  const dates = { ...base, expiration: parseDate(expiration, names.expiration) };
  // Without --accession a renewal keeps the original accession date: known once the subscription is read (checkDates).
  if (given || !options.mayRenew) checkDates(dates, names);
  return dates;
}

export interface DateNames {
  accession: string;
  expiration: string;
}

const DATE_FLAGS: DateNames = { accession: '--accession', expiration: '--expiration' };

/**
 * The expiration cannot precede the accession (UsageError, exit 2). `kept`:
 * the accession is a renewal's, kept from the subscription it replaces.
 */
export function checkDates(dates: GrantDates, names: DateNames = DATE_FLAGS, kept = false): void {
  const { accession, expiration } = dates;
  if (expiration === undefined || expiration >= accession) return;
  // Not given, the accession is today's date, or the one a renewal keeps: say so, the user never typed it.
  const accessionText = dates.accessionGiven ? `${names.accession} ${accession}`
    : kept ? `the subscription's accession date ${accession}, which a renewal keeps when ${names.accession} is not given`
      : `today (${accession}), the accession date when ${names.accession} is not given`;
  throw new UsageError(`${names.expiration} ${expiration} is before ${accessionText}; the expiration cannot precede the accession`);
}

/** A product id is one path segment: it cannot be empty. */
export function checkProductId(productId: string, name = 'PRODUCT_ID'): string {
  const id = productId.trim();
  if (id === '') throw new UsageError(`empty ${name}; give the id of a product (see \`members products list\`)`);
  return id;
}

/**
 * Grants `productId` to a resolved student unless the student already has it
 * (then nothing is sent: `skipped`). The POST is never resent blindly.
 */
export async function grantToStudent(
  api: Api, student: ResolvedStudent, productId: string, dates: GrantDates, options: ChangeOptions = {},
): Promise<ChangeOutcome> {
  const label = studentLabel(student);
  const base = { student: student.input, student_id: student.id, product_id: productId, reason: options.reason };
  const held = options.known ? options.known.held : await studentProduct(api, student.id, productId);
  if (held) {
    const gap = accessGap(held, dates.expiration);
    if (gap === undefined) {
      return { ...base, result: 'skipped', message: `${label} already has access to ${productLabel(productId, held, options.title)}; nothing sent`, subscription: held };
    }
    // A renewal keeps the subscription's accession date unless one was given.
    return renew(api, student, productId, held, gap, { ...renewalDates(held, dates), accessionGiven: dates.accessionGiven }, options);
  }
  checkDates(dates, options.wording?.dates);
  if (options.dryRun) {
    if (!student.record && !options.known) await getStudent(api, student.key);
    return { ...base, result: 'granted', dryRun: true, message: `would grant ${productLabel(productId, undefined, options.title)} to ${label} (dry run; nothing sent)` };
  }
  await options.beforeChange?.();
  const sent = await sendChange({
    action: 'grant', api, journal: options.journal, student, request: body(productId, dates), accepts: (now) => accessGap(now, dates.expiration) === undefined,
  });
  if (sent.outcome !== 'applied') {
    return { ...base, result: 'skipped', message: `${label} already has access to ${productLabel(productId, sent.now, options.title)} (granted meanwhile by someone else); nothing changed`, subscription: sent.now };
  }
  const { data, requestId, recovered, auditId } = sent;
  return {
    ...base, result: 'granted', message: `granted ${productLabel(productId, data, options.title)} to ${label}`,
    subscription: data, requestId, recovered, auditId,
  };
}

/** Why a held subscription is not what a grant asks for, or undefined when it is (access on, same expiration if one was asked). */
export function accessGap(held: Subscription, expiration: string | undefined): string | undefined {
  const expires = dateOf(held.expiration_date);
  if (!hasAccess(held)) {
    const why = [held.status ? `status ${held.status}` : '', expires ? `expiration ${expires}` : ''].filter(Boolean).join(', ');
    return `its access is off${why ? ` (${why})` : ''}`;
  }
  if (expiration !== undefined && expires !== expiration) return `${expires ? `it expires ${expires}` : 'it has no expiration'}, not ${expiration}`;
  return undefined;
}

/**
 * The dates of a renewal: the original accession unless one was given; the
 * asked expiration, else the original one if it has not passed, else none.
 */
export function renewalDates(held: Subscription, asked: GrantDates, now = new Date()): GrantDates {
  const original = dateOf(held.expiration_date);
  const expiration = asked.expiration ?? (original !== undefined && original >= today(now) ? original : undefined);
  const accession = asked.accessionGiven ? asked.accession : dateOf(held.accession_date) ?? asked.accession;
  return expiration === undefined ? { accession } : { accession, expiration };
}

/** A renewal asked for (or refused) by the command, then replaceSubscription. */
async function renew(
  api: Api, student: ResolvedStudent, productId: string, held: Subscription, gap: string, dates: GrantDates, options: ChangeOptions,
): Promise<ChangeOutcome> {
  const label = studentLabel(student);
  const base = { student: student.input, student_id: student.id, product_id: productId, reason: options.reason };
  const what = productLabel(productId, held, options.title);
  const plan = `revoke it and grant it again (accession ${dates.accession}, expiration ${dates.expiration ?? 'none'})`;
  // Only a caller that may renew has its dates checked against the accession kept: one that may not is refused because the product is held.
  if (options.renew) checkDates(dates, options.wording?.dates, true);
  const statusChange = resetsStatus(held.status) ? statusResetNote(held.status) : undefined;
  const consent = await options.renew?.(held, gap, statusChange);
  // A status is never reset silently (issue 30): when it would be, the refusal names both flags at once.
  const resetRefused = statusChange !== undefined && consent !== 'asked' && !options.includeStatusChanges;
  const statusHint = options.wording?.statusChange ?? 'pass --include-status-changes';
  const renewHint = options.wording?.renew;
  const refusal = `${label} has ${what} but ${gap}; ${resetRefused ? `renewing it would change it too: ${statusChange}; ` : ''}nothing sent. To ${plan}`;
  if (!consent) {
    if (!resetRefused) throw new AccessNotHeldError(`${refusal}, ${renewHint ?? 'pass --renew'}`, held);
    throw new AccessNotHeldError(`${refusal} all the same, ${renewHint ? `${renewHint}, and ${statusHint}` : 'pass --renew --include-status-changes'}`, held);
  }
  if (resetRefused) throw new StatusResetError(`${refusal} all the same, ${statusHint}`, held);
  if (options.dryRun) {
    return { ...base, result: 'renewed', dryRun: true, message: `would renew ${what} for ${label}: ${gap}; would ${plan} (dry run; nothing sent)`, replaced: held };
  }
  await options.beforeChange?.(held);
  // Planned from a snapshot: read again before the revoke (compare before destroy).
  const sent = await sendChange({
    action: 'renew', api, journal: options.journal, student, productId, held, request: body(productId, dates), compare: options.known !== undefined, label,
  });
  if (sent.outcome !== 'applied') {
    if (sent.now && accessGap(sent.now, dates.expiration) === undefined) {
      return { ...base, result: 'skipped', message: `${label} already has access to ${productLabel(productId, sent.now, options.title)} (renewed meanwhile by someone else); nothing changed`, subscription: sent.now };
    }
    return staleOutcome(base, what, label, sent.now);
  }
  const { data, requestId, recovered, auditId, removed } = sent;
  return {
    ...base, result: 'renewed', message: `renewed ${what} for ${label}: ${gap}; revoked and granted again, accession ${dates.accession}, expiration ${dates.expiration ?? 'none'}`,
    subscription: data, replaced: removed, requestId, recovered, auditId,
  };
}

const body = (productId: string, dates: GrantDates): Grant => ({ product_id: productId, accession_date: dates.accession, expiration_date: dates.expiration });

/** Read again before destroying, the subscription was not the one the run read first: nothing sent (a person looks; exit 7 for the run). */
const staleOutcome = (base: Omit<ChangeOutcome, 'result' | 'message'>, what: string, label: string, now: Subscription | undefined): ChangeOutcome => ({
  ...base, result: 'stale', subscription: now,
  message: `${what} of ${label} changed since the run read it (now ${stateText(now)}); nothing sent: look at it, then run again if the change is still wanted`,
});

/**
 * Revokes `productId` from a resolved student if the student has it;
 * otherwise nothing is sent (`skipped`). An unknown student is a
 * NotFoundError (exit 4), never a skip.
 */
export async function revokeFromStudent(
  api: Api, student: ResolvedStudent, productId: string, options: ChangeOptions = {},
): Promise<ChangeOutcome> {
  const label = studentLabel(student);
  const base = { student: student.input, student_id: student.id, product_id: productId, reason: options.reason };
  const held = options.known ? options.known.held : await studentProduct(api, student.id, productId);
  if (!held) {
    // The API answers 404 for an unknown student and for a product not held alike: tell them apart.
    if (!student.record && !options.known) await getStudent(api, student.key);
    return { ...base, result: 'skipped', message: `${label} does not have ${productLabel(productId, undefined, options.title)}; nothing sent` };
  }
  const what = productLabel(productId, held, options.title);
  if (options.dryRun) {
    return { ...base, result: 'revoked', dryRun: true, message: `would revoke ${what} from ${label} (dry run; nothing sent)`, subscription: held };
  }
  await options.beforeChange?.(held);
  // Planned from a snapshot: read again before the revoke (compare before destroy).
  const sent = await sendChange({ action: 'revoke', api, journal: options.journal, student, productId, held, compare: options.known !== undefined });
  if (sent.outcome !== 'applied') {
    if (!sent.now) return { ...base, result: 'skipped', message: `${label} no longer has ${what} (revoked meanwhile by someone else); nothing sent` };
    return staleOutcome(base, what, label, sent.now);
  }
  const { requestId, auditId, removed } = sent;
  return { ...base, result: 'revoked', message: `revoked ${what} from ${label}`, subscription: removed, requestId, auditId };
}
