/**
 * `members subscriptions extend --product P (--days N | --until DATE)
 * [--student S]` (contract §14.2): every subscription of P with access (or
 * one student's) gets a later expiration. The API has no update, so each is
 * renewed — revoked, then granted again with its accession and the new
 * expiration — through the changes `members sync` applies (bulk engine,
 * one audit run, undoable as a whole with `members undo RUN_ID`). The plan
 * (domain/extend.ts) shows each row as `old → new`, leaves out a status the
 * grant would reset unless --include-status-changes, and flags a new
 * expiration still in the past.
 */
import type { Api } from '../../api/client.js';
import { parseStudentKey, type StudentKey } from '../../api/endpoints/student-key.js';
import { CliError, ExitCode, UsageError } from '../../lib/errors.js';
import { parseDate, parseInteger, plural, today } from '../../lib/values.js';
import { nameAndEmail, personName } from '../../lib/people.js';
import { checkProductId, hasAccess } from '../../domain/changes.js';
import { planExtension, type ExtendBy, type ExtendPlan, type Extension, type Holding } from '../../domain/extend.js';
import { resolveProduct, type Named } from '../../domain/names.js';
import { lookUpStudent } from '../../domain/resolve.js';
import type { HeldState, PlannedChange } from '../../domain/sync/plan.js';
import type { BulkSummary } from '../../domain/bulk/engine.js';
import type { JsonRecord } from '../../output/index.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import type { Messages } from '../../output/messages.js';
import { withOutput } from '../../session/run-kit.js';
import { applyPlan } from '../shared/apply-plan.js';
import { readState } from '../shared/read-state.js';
import type { Session } from '../../session/session.js';
import { takeLease, waitMs } from '../shared/lease.js';
import { EXTEND_PLAN_VIEW, EXTEND_RESULT_VIEW } from '../shared/views/subscriptions.js';

export interface ExtendFlags {
  product?: string;
  days?: string;
  until?: string;
  student?: string;
  includeStatusChanges?: boolean;
  dryRun?: boolean;
  reason?: string;
  wait?: string;
}

interface ExtendRequest {
  product: string;
  by: ExtendBy;
  student?: StudentKey & { input: string };
  includeStatusChanges: boolean;
  dryRun: boolean;
  reason?: string;
}

/** Checks the flags before anything is read (exit 2). */
export function extendRequest(flags: ExtendFlags): ExtendRequest {
  if (flags.product === undefined) throw new UsageError('missing --product PRODUCT: the product whose subscriptions are extended');
  const product = checkProductId(flags.product, '--product');
  if ((flags.days === undefined) === (flags.until === undefined)) {
    throw new UsageError('give either --days N (added to each expiration) or --until DATE (the new expiration of every one)');
  }
  const by: ExtendBy = flags.days !== undefined
    ? { days: parseInteger(flags.days, '--days', { min: 1, max: 36_500 }) }
    : { until: parseDate(flags.until as string, '--until') };
  const request: ExtendRequest = { product, by, includeStatusChanges: flags.includeStatusChanges === true, dryRun: flags.dryRun === true, reason: flags.reason };
  if (flags.student !== undefined) request.student = { ...parseStudentKey(flags.student), input: flags.student };
  return request;
}

const PLAN_FIELDS = ['action', 'student', 'student_id', 'email', 'product_id', 'status', 'accession_date', 'expiration_date', 'new_expiration_date', 'note'];

/** One row of the plan: `extend`, or `left out` (a status the grant would reset). */
function planRow(extension: Extension, productId: string, action: 'extend' | 'left out'): JsonRecord {
  const { holding } = extension;
  const notes = action === 'left out' ? [...extension.notes, 'left out: pass --include-status-changes to extend it'] : extension.notes;
  return {
    action, student: nameAndEmail({ full_name: holding.name, email: holding.email }) || holding.studentId, student_id: holding.studentId, email: holding.email ?? null,
    product_id: productId, status: holding.status ?? null, accession_date: holding.accessionDate ?? null,
    expiration_date: extension.from, new_expiration_date: extension.to, note: notes.length > 0 ? notes.join('; ') : null,
  };
}

export async function extendSubscriptions(session: Session, flags: ExtendFlags): Promise<void> {
  const request = extendRequest(flags);
  const wait = waitMs(flags.wait);
  const { io, globals } = session;
  if (request.dryRun) assertFieldsBeforeChange(globals.fields, PLAN_FIELDS, EXTEND_PLAN_VIEW);
  // Off a terminal the answer is known before anything is read.
  if (!request.dryRun && !globals.yes && !io.stdin.isTTY) {
    throw new UsageError('extending subscriptions needs confirmation, but stdin is not a terminal; pass --yes to proceed (or --dry-run to see the plan)');
  }
  const api = await session.api();
  const product = await resolveProduct(api, request.product, { argument: '--product', check: true });
  // Before the holders are read: another run changing this product would make the plan stale.
  const lease = request.dryRun ? undefined : await takeLease(session, { products: [product.id], command: 'subscriptions extend', waitMs: wait });
  try {
    await extendUnderLease(session, api, request, product);
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

async function extendUnderLease(session: Session, api: Api, request: ExtendRequest, product: Named): Promise<void> {
  const { io, globals } = session;
  const messages = await session.messages();
  const holdings = request.student ? await holdingOf(api, request.student, product.id) : await holdersOf(session, api, product.id, messages);
  const plan = planExtension(holdings, request.by, { today: today(), includeStatusChanges: request.includeStatusChanges });
  if (request.student) refuseNothingFor(request.student.input, product, plan);
  const rows = [...plan.extensions.map((e) => planRow(e, product.id, 'extend')), ...plan.statusChanges.map((e) => planRow(e, product.id, 'left out'))];
  // The plan is the result of a dry run; before a change it is shown on a terminal. Unshown, what is left out is said on stderr.
  if (request.dryRun || (io.stdout.isTTY && !globals.out && rows.length > 0)) await withOutput(session, (output) => output.list(rows, EXTEND_PLAN_VIEW));
  else for (const change of plan.statusChanges) messages.warn(`left out: ${String(planRow(change, product.id, 'left out').student)}: ${change.notes[0] as string}`);
  messages.notice(planSummary(plan, product, request.by));
  if (request.dryRun) return;
  const what = productText(product);
  await applyPlan(session, api, plan.extensions.map((extension) => changeOf(extension, product.id)), {
    source: `product ${product.id}`, reason: request.reason, concurrency: 4, verify: false,
    as: {
      command: 'subscriptions extend',
      question: `Extend ${plural(plan.extensions.length, 'subscription')} of ${what} (revoked and granted again with the new expiration)?`,
      summaryLine,
      view: EXTEND_RESULT_VIEW,
      again: 'extend those that failed one by one (--student STUDENT --until DATE: their dates are in the plan); another --days run would extend the others twice',
    },
  });
}

const productText = (product: Named) => (product.title ? `"${product.title}" (${product.id})` : `product ${product.id}`);

/** The change each extension sends: a renewal keeping the accession (sync's expiration change). */
function changeOf(extension: Extension, productId: string): PlannedChange {
  const { holding } = extension;
  const from: HeldState = { hasAccess: holding.hasAccess };
  if (holding.status !== undefined) from.status = holding.status;
  if (holding.accessionDate !== undefined) from.accessionDate = holding.accessionDate.slice(0, 10);
  from.expirationDate = extension.from;
  return {
    action: 'change-expiration', student: holding.email ?? holding.studentId, studentId: holding.studentId, productId,
    accession: holding.accessionDate?.slice(0, 10) ?? extension.from, expiration: extension.to, from, notes: extension.notes,
  };
}

/** One student's subscription to the product (one lookup: the lookups return the subscriptions; "not found" says who was probably meant). */
async function holdingOf(api: Api, key: StudentKey & { input: string }, productId: string): Promise<Holding[]> {
  const student = await lookUpStudent(api, key, key.input);
  const held = (student.subscriptions ?? []).find((subscription) => subscription.product_id === productId);
  if (!held) return [];
  const holding: Holding = { studentId: student.id, name: personName(student), hasAccess: hasAccess(held) };
  if (student.email) holding.email = student.email;
  if (held.status) holding.status = held.status;
  if (held.accession_date) holding.accessionDate = held.accession_date;
  if (held.expiration_date) holding.expirationDate = held.expiration_date;
  return [holding];
}

/**
 * Every subscription of the product, from one walk of the student list with
 * subscriptions (domain/snapshot.ts): the API lists no holders of a product,
 * and the student list is shorter than the subscriptions list.
 */
async function holdersOf(session: Session, api: Api, productId: string, messages: Messages): Promise<Holding[]> {
  const snapshot = await readState(session, api, messages);
  return snapshot.holders(productId).map((held) => {
    const student = snapshot.findStudent({ kind: 'id', value: held.studentId });
    const holding: Holding = { studentId: held.studentId, name: student?.name ?? '', hasAccess: held.hasAccess };
    if (student?.email) holding.email = student.email;
    if (held.status !== undefined) holding.status = held.status;
    if (held.accessionDate !== undefined) holding.accessionDate = held.accessionDate;
    if (held.expirationDate !== undefined) holding.expirationDate = held.expirationDate;
    return holding;
  });
}

/** One student named: nothing to extend is an answer the ticket needs (exit 5, nothing sent). */
function refuseNothingFor(input: string, product: Named, plan: ExtendPlan): void {
  if (plan.extensions.length > 0) return;
  const what = productText(product);
  const left = plan.statusChanges[0];
  const why = left ? `has ${what}, but extending it would change it: ${left.notes.join('; ')}; pass --include-status-changes to extend it anyway`
    : plan.withoutAccess > 0 ? `has ${what} without access: restore it with \`members students grant ${input} ${product.id} --renew --expiration DATE\``
    : plan.unchanged[0] ? `has ${what} with nothing to extend: ${plan.unchanged[0].why}`
      : `has no subscription to ${what}: grant it with \`members students grant ${input} ${product.id} --expiration DATE\``;
  throw new CliError(`${input} ${why}; nothing sent`, ExitCode.rejected);
}

/** `Extend 3 subscriptions of "Python Pro" (...) by 30 days: 1 left out (…); 2 unchanged (…); 4 without access.` */
function planSummary(plan: ExtendPlan, product: Named, by: ExtendBy): string {
  const how = 'days' in by ? `by ${plural(by.days, 'day')}` : `until ${by.until}`;
  const parts = [`Extend ${plural(plan.extensions.length, 'subscription')} of ${productText(product)} ${how}`];
  const past = plan.extensions.filter((extension) => extension.stillPast).length;
  if (past > 0) parts.push(`${past} still in the past after it (flagged)`);
  const left = plan.statusChanges.length;
  if (left > 0) parts.push(`${left} left out: the grant would reset ${left === 1 ? 'its' : 'their'} status (--include-status-changes to extend ${left === 1 ? 'it' : 'them'})`);
  const unchanged = plan.unchanged.length;
  if (unchanged > 0) parts.push(`${unchanged} left as ${unchanged === 1 ? 'it is' : 'they are'} (no expiration, or already as late)`);
  if (plan.withoutAccess > 0) parts.push(`${plan.withoutAccess} without access, not extended`);
  return `${parts.join('; ')}.`;
}

/** `3 subscriptions: 3 extended, 0 failed in 1.2s` */
function summaryLine(summary: BulkSummary): string {
  const { counts } = summary;
  const done = summary.processed === summary.rows ? plural(summary.rows, 'subscription') : `${summary.processed} of ${plural(summary.rows, 'subscription')}`;
  const stale = counts.stale ?? 0;
  const parts = [`${counts['expiration-changed'] ?? 0} extended`, ...(stale > 0 ? [`${stale} changed meanwhile`] : []), `${counts.failed} failed`];
  const note = summary.tripped ? ' (stopped: the server kept failing)' : summary.interrupted ? ' (interrupted)' : '';
  return `${done}: ${parts.join(', ')} in ${summary.seconds.toFixed(1)}s${note}`;
}
