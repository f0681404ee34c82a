/**
 * `members students transfer FROM TO [--delete-source]` (contract §10.10): a
 * purchase made under a mistyped e-mail, a student who changed e-mail. Two
 * lookups (each returns the student's subscriptions), the plan
 * (domain/transfer.ts) shown before anything is sent, then, under one audit
 * run: every product granted to TO with FROM's dates, then revoked from FROM
 * (only once TO has it), then FROM deleted when asked and nothing with access
 * stays behind. `members undo RUN_ID` reverses the whole run.
 */
import type { Api } from '../../api/client.js';
import type { Student } from '../../api/endpoints/schemas.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { studentProducts } from '../../api/endpoints/students.js';
import { openRun, studentSnapshot, type RunJournal } from '../../audit/index.js';
import { BulkFailedError, CliError, ExitCode, UsageError } from '../../lib/errors.js';
import { nameAndEmail } from '../../lib/people.js';
import { plural, today } from '../../lib/values.js';
import { deleteSourceBlocker, planTransfer, type Move, type Staying, type TransferPlan } from '../../domain/transfer.js';
import { lookUpStudent } from '../../domain/resolve.js';
import { sendChange } from '../../domain/send-change.js';
import { stateText } from '../../domain/subscription-state.js';
import type { JsonRecord } from '../../output/index.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { withOutput } from '../../session/run-kit.js';
import { takeLease, waitMs } from '../shared/lease.js';
import type { Session } from '../../session/session.js';
import { TRANSFER_PLAN_VIEW, transferResultView } from '../shared/views/subscriptions.js';

export interface TransferFlags {
  deleteSource?: boolean;
  dryRun?: boolean;
  includeStatusChanges?: boolean;
  reason?: string;
  wait?: string;
}

const PLAN_FIELDS = ['action', 'product_id', 'product_title', 'accession_date', 'expiration_date', 'status', 'note'];

function planRows(plan: TransferPlan): JsonRecord[] {
  const move = (item: Move): JsonRecord => ({
    action: 'move', product_id: item.productId, product_title: item.title ?? null, accession_date: item.accession ?? null,
    expiration_date: item.expiration ?? null, status: item.held.status ?? null, note: item.notes.length > 0 ? item.notes.join('; ') : null,
  });
  const stay = (item: Staying): JsonRecord => ({
    action: 'stays', product_id: item.productId, product_title: item.title ?? null, accession_date: null, expiration_date: null, status: item.status ?? null, note: item.why,
  });
  return [...plan.moves.map(move), ...plan.conflicts.map(stay), ...plan.statusChanges.map(stay), ...plan.withoutAccess.map(stay)];
}

const label = (student: Student) => nameAndEmail(student) || `student ${student.id}`;

/**
 * The student with its subscriptions: the lookups send them; a server that
 * does not is asked for them. "Not found" says which student was probably meant.
 */
async function withSubscriptions(api: Api, input: string): Promise<Student> {
  const student = await lookUpStudent(api, parseStudentKey(input), input);
  return student.subscriptions ? student : { ...student, subscriptions: await studentProducts(api, student.id) };
}

export async function transferStudent(session: Session, fromInput: string, toInput: string, flags: TransferFlags): Promise<void> {
  parseStudentKey(fromInput);
  parseStudentKey(toInput);
  const { io, globals } = session;
  const dryRun = flags.dryRun === true;
  const wait = waitMs(flags.wait);
  assertFieldsBeforeChange(globals.fields, dryRun ? PLAN_FIELDS : ['step', 'student', 'student_id', 'product_id', 'result', 'message'], dryRun ? TRANSFER_PLAN_VIEW : transferResultView(new Map()));
  if (!dryRun && !globals.yes && !io.stdin.isTTY) {
    throw new UsageError('a transfer needs confirmation, but stdin is not a terminal; pass --yes to proceed (or --dry-run to see the plan)');
  }
  const api = await session.api();
  const messages = await session.messages();
  const from = await withSubscriptions(api, fromInput);
  const to = await withSubscriptions(api, toInput);
  const plan = planTransfer(from, to, today(), { includeStatusChanges: flags.includeStatusChanges === true });
  const blocker = flags.deleteSource ? deleteSourceBlocker(plan) : undefined;
  if (blocker) throw new CliError(`${blocker}; nothing sent`, ExitCode.rejected);

  const rows = planRows(plan);
  if (dryRun || (io.stdout.isTTY && !globals.out && rows.length > 0)) await withOutput(session, (output) => output.list(rows, TRANSFER_PLAN_VIEW));
  messages.notice(planSummary(plan, from, to, flags.deleteSource === true));
  messages.warn(`progress and score stay with ${label(from)}: the API has no way to move them`);
  if (dryRun) return;
  if (plan.moves.length === 0 && !flags.deleteSource) {
    messages.notice('Nothing to transfer.');
    return;
  }

  await session.announceChange();
  if (flags.deleteSource) {
    await session.confirm(`Transfer ${plural(plan.moves.length, 'product')} from ${label(from)} to ${label(to)}, then delete ${label(from)}?`, from.email || from.id);
  } else {
    await session.confirm(`Transfer ${plural(plan.moves.length, 'product')} from ${label(from)} to ${label(to)}?`);
  }
  // Taken once the person said yes (a lease held across a question would stop the nightly runs); every revoke
  // compares with the state read above before it is sent, so nothing planned from a changed state is destroyed.
  const lease = await takeLease(session, { products: plan.moves.map((move) => move.productId), command: 'students transfer', waitMs: wait });
  let steps: Step[];
  let run: RunJournal;
  try {
    run = await openRun(session, { command: 'students transfer', reason: flags.reason });
    steps = await applyTransfer(api, run, plan, { from, fromInput, to, toInput, deleteSource: flags.deleteSource === true });
  } finally {
    await lease.release().catch(() => undefined);
  }
  const titles = new Map(plan.moves.flatMap((move) => (move.title ? [[move.productId, move.title] as const] : [])));
  await withOutput(session, (output) => output.list(steps, transferResultView(titles)));
  const counts = { granted: 0, revoked: 0, deleted: 0, stale: 0, failed: 0 };
  for (const step of steps) counts[step.result as keyof typeof counts]++;
  const runId = await run.finish({ counts });
  const recorded = runId ? `; recorded as run ${runId} (\`members undo ${runId}\` reverses it)` : '';
  if (counts.stale > 0 && counts.failed === 0) {
    throw new BulkFailedError(`the transfer from ${label(from)} to ${label(to)} is partial: ${plural(counts.stale, 'revoke')} ${counts.stale === 1 ? 'was' : 'were'} stale `
      + `(the subscription changed since the transfer read it; see their messages)${recorded}`);
  }
  if (counts.failed > 0) {
    throw new BulkFailedError(`the transfer from ${label(from)} to ${label(to)} is partial: ${plural(counts.failed, 'step')} failed (see their messages); `
      + `a product whose grant failed stays with ${label(from)}${recorded}`);
  }
  messages.notice(`✓ Transferred ${plural(counts.granted, 'product')} from ${label(from)} to ${label(to)}${counts.deleted > 0 ? `, and deleted ${label(from)}` : ''}${recorded}`);
}

function planSummary(plan: TransferPlan, from: Student, to: Student, deleteSource: boolean): string {
  const parts = [`Transfer ${plural(plan.moves.length, 'product')} from ${label(from)} to ${label(to)}, with their accession and expiration dates`];
  if (plan.conflicts.length > 0) parts.push(`${plural(plan.conflicts.length, 'product')} TO already holds ${plan.conflicts.length === 1 ? 'stays' : 'stay'} with FROM`);
  const reset = plan.statusChanges.length;
  if (reset > 0) {
    parts.push(`${plural(reset, 'subscription')} with access ${reset === 1 ? 'stays' : 'stay'} with FROM: the grant would reset ${reset === 1 ? 'its' : 'their'} status `
      + `(${[...new Set(plan.statusChanges.map((stay) => stay.status))].join(', ')} → active; --include-status-changes to move ${reset === 1 ? 'it' : 'them'})`);
  }
  if (plan.withoutAccess.length > 0) parts.push(`${plural(plan.withoutAccess.length, 'subscription')} without access ${plan.withoutAccess.length === 1 ? 'stays' : 'stay'} with FROM`);
  if (deleteSource) parts.push(`then FROM is deleted${plan.withoutAccess.length > 0 ? ', with what stays' : ''}`);
  return `${parts.join('; ')}.`;
}

interface Parties {
  from: Student;
  fromInput: string;
  to: Student;
  toInput: string;
  deleteSource: boolean;
}

type Step = JsonRecord & { step: string; result: string };

/**
 * The changes, each recorded under the run as it is made; a product whose
 * grant failed is not revoked, and FROM is not deleted. A revoke reads FROM's
 * subscription again first: changed since the lookups (a desk's renewal), it
 * is `stale`, not revoked.
 */
async function applyTransfer(api: Api, run: RunJournal, plan: TransferPlan, parties: Parties): Promise<Step[]> {
  const { from, to } = parties;
  const [source, target] = [{ input: parties.fromInput, id: from.id }, { input: parties.toInput, id: to.id }];
  const steps: Step[] = [];
  const step = (fields: Step) => steps.push(fields);
  const moved: Move[] = [];
  for (const move of plan.moves) {
    const request = { product_id: move.productId, accession_date: move.accession ?? today(), expiration_date: move.expiration };
    const base = { step: 'grant', student: parties.toInput, student_id: to.id, product_id: move.productId };
    try {
      const sent = await sendChange({ action: 'grant', api, journal: run, student: target, request });
      moved.push(move);
      step({ ...base, result: 'granted', request_id: sent.requestId ?? null, message: `granted ${what(move)} to ${label(to)} (accession ${request.accession_date}, expiration ${request.expiration_date ?? 'none'}, status ${sent.data?.status ?? 'the server\'s'})` });
    } catch (error) {
      step({ ...base, result: 'failed', message: `granting ${what(move)} to ${label(to)} failed: ${(error as Error).message}; it stays with ${label(from)}` });
    }
  }
  for (const move of moved) {
    const base = { step: 'revoke', student: parties.fromInput, student_id: from.id, product_id: move.productId };
    try {
      const sent = await sendChange({ action: 'revoke', api, journal: run, student: source, productId: move.productId, held: move.held, compare: true });
      if (sent.outcome === 'applied') step({ ...base, result: 'revoked', message: `revoked ${what(move)} from ${label(from)}` });
      else {
        step({ ...base, result: 'stale', message: `${what(move)} of ${label(from)} changed since the transfer read it (now ${stateText(sent.now)}); not revoked: `
          + `${label(to)} has it too now; look at both, then revoke it from one by hand` });
      }
    } catch (error) {
      step({ ...base, result: 'failed', message: `revoking ${what(move)} from ${label(from)} failed: ${(error as Error).message}; both students have it now` });
    }
  }
  if (parties.deleteSource) {
    const base = { step: 'delete', student: parties.fromInput, student_id: from.id, product_id: null };
    if (moved.length < plan.moves.length || steps.some((s) => s.result === 'failed' || s.result === 'stale')) {
      step({ ...base, result: 'failed', message: `${label(from)} was not deleted: a step before failed, and deleting it would lose what it still holds` });
    } else {
      try {
        await sendChange({ action: 'delete', api, journal: run, student: source, before: studentSnapshot(from) });
        step({ ...base, result: 'deleted', message: `deleted ${label(from)}` });
      } catch (error) {
        step({ ...base, result: 'failed', message: `deleting ${label(from)} failed: ${(error as Error).message}` });
      }
    }
  }
  return steps;
}

const what = (move: Move) => (move.title ? `"${move.title}" (${move.productId})` : `product ${move.productId}`);
