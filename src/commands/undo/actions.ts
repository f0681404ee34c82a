/**
 * `members undo AUDIT_ID`, `members undo RUN_ID`, `members undo --last
 * [--student STUDENT]`: reverses one recorded change, or every change of a
 * run, only where the state it left is still there (domain/undo.ts). What
 * the log alone refuses (unknown id, a change that cannot be undone, one
 * already undone, another server) is a usage error, exit 2, before any
 * request. What the server's current state refuses is UndoConflictError,
 * exit 5 (in a run: that change is `conflict`, the others go on, exit 7).
 */
import { auditBaseUrl, openJournal, openRun, type AuditRecord } from '../../audit/index.js';
import { listIntents } from '../../audit/intents.js';
import { findRun } from '../../audit/runs.js';
import { BulkFailedError, InterruptedError, UsageError } from '../../lib/errors.js';
import { localDateTime } from '../../lib/time/zones.js';
import { plural } from '../../lib/values.js';
import type { Session } from '../../session/session.js';
import { withOutput } from '../../session/run-kit.js';
import { TYPE_TO_CONFIRM_ABOVE } from '../shared/bulk/run.js';
import { UndoConflictError, UndoStaleError, applyUndo, undoLabel, planRunUndo, planUndo, refusalCounts, undoCaveat, undoQuestion, withNewIds, type ProductTitles, type RunStep, type UndoPlan } from '../../domain/undo.js';
import { productLabel } from '../../domain/changes.js';
import { productTitlesOf } from '../shared/product-titles.js';
import type { JsonRecord } from '../../output/index.js';
import { STUDENT_VIEW } from '../shared/views/students.js';
import { SUBSCRIPTION_VIEW } from '../shared/views/subscriptions.js';
import { RUN_UNDO_VIEW } from '../shared/views/history.js';
import { readRecords } from '../shared/records.js';
import { takeLease, waitMs } from '../shared/lease.js';
import type { Api } from '../../api/client.js';

export interface UndoFlags {
  reason?: string;
  last?: boolean;
  student?: string;
  /** A run's undo: how long to wait for another run's lease on its products. */
  wait?: string;
}

export async function undo(session: Session, rawId: string | undefined, opts: UndoFlags): Promise<void> {
  const id = rawId?.trim();
  if (opts.last && id !== undefined) throw new UsageError('give either an AUDIT_ID (or a RUN_ID) or --last, not both');
  if (!opts.last && opts.student !== undefined) throw new UsageError('--student goes with --last: `members undo --last --student STUDENT`');
  if (!opts.last && !id) throw new UsageError('missing AUDIT_ID (or RUN_ID, or --last); `members history` lists the ids of the changes');
  const wait = waitMs(opts.wait);
  const dir = await session.configDir();
  const messages = await session.messages();
  // A change of an interrupted run is in the log once checked: `members undo ID` right after the message that named it.
  await session.checkInterruptedChanges();
  const { records, where } = await readRecords(session, messages);
  const settings = await session.settings();
  const here = auditBaseUrl(settings.baseUrl);
  // A run killed before its end left no record of its own: it is derived from its changes.
  const target = opts.last ? await lastChange(session, records, { profile: settings.profile, here, student: opts.student })
    : records.find((record) => record.id === id) ?? findRun(records, id as string);
  if (!target) throw new UsageError(pendingChange(dir, id) ?? `no change with id ${id} in ${where}; \`members history\` lists the ids of the changes`);

  // The change must be undone where it was made.
  if (target.base_url && here !== target.base_url) {
    throw new UsageError(
      `change ${target.id} was made on ${target.base_url} (profile ${target.profile}), but the profile in force is ${settings.profile} `
        + `(${here || 'no base URL'}); run again with --profile ${target.profile}`,
    );
  }
  if (target.action === 'bulk') {
    if (opts.last) messages.notice(`The last change is run ${target.id}: ${describe(target, new Map())}`);
    return undoRun(session, target, records, { ...opts, waitMs: wait });
  }
  const plan = planUndo(target, records);
  // Off a terminal without --yes the answer is known already: fail before any request (titles from the cache only).
  const answerable = session.globals.yes || session.io.stdin.isTTY;
  const titles = await productTitlesOf(session, target.product_id ? [target.product_id] : [], { read: answerable });
  if (opts.last) messages.notice(`The last change${opts.student ? ` to ${opts.student}` : ''}: ${describe(target, titles)}`);
  const label = undoLabel(target, plan);
  const ask = undoQuestion(target.id, plan, label, titles);
  if (!answerable) await session.confirm(ask);
  await session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const journal = await openJournal(session, { command: 'undo', reason: opts.reason });
    const result = await applyUndo({
      api, journal, titles,
      confirm: async () => {
        await session.announceChange();
        await session.confirm(ask);
      },
    }, target, plan, label);
    if (result.subscription) await output.one(result.subscription, SUBSCRIPTION_VIEW);
    if (result.created) await output.one(result.created, STUDENT_VIEW);
    messages.notice(`✓ Undid ${target.id}: ${result.message}`);
  }));
}

/** `2026-11-25 10:31 by ana: students grant maria@example.com, product "Python Pro" (5f1c…) granted (reason "ticket 4411"), id m7u0…` */
function describe(record: AuditRecord, titles: ProductTitles): string {
  const who = record.student ?? record.student_id;
  const parts = [`${localDateTime(record.time).slice(0, 16)} by ${record.user}: ${record.command}${who ? ` ${who}` : ''}`];
  if (record.product_id) parts.push(productLabel(record.product_id, undefined, titles.get(record.product_id)));
  return `${parts.join(', ')} ${record.result}${record.reason ? ` (reason ${JSON.stringify(record.reason)})` : ''}, id ${record.id}`;
}

/**
 * The newest change of the profile and base URL in force that can be undone,
 * as history lists them: a run (a transfer, a sync, an extension, a bulk
 * file) is one entry, undone as a whole. About a student (by any of its keys),
 * the newest change to that student, alone even when a run made it. An undo
 * (or an undo's run), a magic link or a change already undone is passed over.
 */
async function lastChange(
  session: Session, records: readonly AuditRecord[], where: { profile: string; here: string; student?: string },
): Promise<AuditRecord> {
  const [{ selectHistory }] = await Promise.all([import('../../audit/select.js')]);
  const student = where.student?.trim();
  if (student === '') throw new UsageError('--student cannot be empty');
  const known = student === undefined ? undefined : await lookUp(session, student);
  const newest = await selectHistory(() => records, student === undefined ? {} : { student }, known);
  const found = newest.find((record) => record.profile === where.profile && record.base_url === where.here && record.action !== 'undo'
    && record.undoes === undefined && undoable(record, records));
  if (found) return found;
  throw new UsageError(`no change${student ? ` to ${student}` : ''} made with profile ${where.profile} (${where.here || 'no base URL'}) is left to undo in this machine's audit log; `
    + `\`members history${student ? ` --student ${student}` : ''}\` lists the changes`);
}

const undoable = (record: AuditRecord, records: readonly AuditRecord[]) => {
  try {
    if (record.action === 'bulk') planRunUndo(record, records);
    else planUndo(record, records);
    return true;
  } catch {
    return false;
  }
};

/** The student as the server knows it, to find the changes made by any of its keys; undefined offline or when it is gone. */
async function lookUp(session: Session, student: string) {
  try {
    const [api, { findStudent }, { parseStudentKey }] = await Promise.all([session.api(), import('../../api/endpoints/students.js'), import('../../api/endpoints/student-key.js')]);
    return await findStudent(api, parseStudentKey(student));
  } catch {
    return undefined;
  }
}

/** Why `id` is not in the log yet: the change of an interrupted run still in flight on the server (audit/resolve.ts). */
function pendingChange(dir: string, id: string | undefined): string | undefined {
  const intent = listIntents(dir).find((found) => found.id === id)?.intent;
  if (intent === undefined) return undefined;
  const wait = Math.ceil((Date.parse(intent.deadline ?? '') - Date.now()) / 1000);
  return `change ${id} (from an interrupted run) is still in flight on the server, not recorded yet: `
    + `${wait > 0 ? `it is checked by a command run in ${wait} s or more` : 'the next command that reaches the server checks it'}; run \`members undo ${id}\` again then`;
}

/**
 * Every change of a run, newest first, each checked against the state first
 * (as a single undo checks it): the plan, one confirmation, then — under a
 * lease on the run's products, as the run itself held — one record per
 * change and one run of its own (`undoes: RUN_ID`).
 */
async function undoRun(session: Session, run: AuditRecord, records: readonly AuditRecord[], opts: UndoFlags & { waitMs: number }): Promise<void> {
  const { io, globals } = session;
  const messages = await session.messages();
  const steps = planRunUndo(run, records);
  const doable = steps.filter((step) => step.plan !== undefined);
  const question = `Undo run ${run.id} (${run.command}, ${localDateTime(run.time).slice(0, 16)} by ${run.user}): reverse ${plural(doable.length, 'change')}?`;
  const typed = doable.length > TYPE_TO_CONFIRM_ABOVE ? String(doable.length) : undefined;
  if (!globals.yes && !io.stdin.isTTY) await session.confirm(question, typed);
  const titles = await productTitlesOf(session, [...new Set(steps.flatMap((step) => (step.record.product_id ? [step.record.product_id] : [])))]);
  const planned = (step: RunStep) => plannedRow(step, titles);
  const refused = steps.length - doable.length;
  const removed = doable.filter((step) => undoCaveat(step.record.id, step.plan as UndoPlan) !== undefined).length;
  messages.notice(`Run ${run.id} (${run.command}): ${plural(steps.length, 'change')}; ${doable.length} to undo, newest first`
    + `${refused > 0 ? `; ${refused} cannot be undone: ${refusalCounts(steps)}` : ''}`
    + `${removed > 0 ? `; ${plural(removed, 'restore')} of a subscription without access ${removed === 1 ? 'is' : 'are'} undone by removing the subscription: `
      + 'its former status and dates cannot be recreated through the API (they stay in the audit record)' : ''}.`);
  if (io.stdout.isTTY && !globals.out) await withOutput(session, (output) => output.list(steps.map(planned), RUN_UNDO_VIEW));
  const api = await session.api();
  await session.announceChange();
  await session.confirm(question, typed);
  // Taken once the person said yes, as a transfer does: a lease held across a question would stop the nightly runs.
  const lease = await takeLease(session, { products: runScope(doable), command: 'undo', waitMs: opts.waitMs });
  try {
    // The record read again under the lease: an undo of this run made while this one waited is seen (already undone).
    const { records: now } = await readRecords(session, { ...messages, warn: () => undefined });
    await undoSteps(session, run, planRunUndo(run, now), { reason: opts.reason, titles, api });
  } finally {
    await lease.release().catch(() => undefined);
  }
}

/** What undoing these steps may change: their products, or every product of the platform when none names one (students created again). */
function runScope(steps: readonly RunStep[]): string[] | 'all' {
  const products = steps.flatMap((step) => (step.record.product_id ? [step.record.product_id] : []));
  return products.length > 0 ? products : 'all';
}

/** The steps undone one by one under one run of their own; its results and summary. */
async function undoSteps(session: Session, run: AuditRecord, steps: readonly RunStep[], { reason, titles, api }: { reason?: string; titles: ProductTitles; api: Api }): Promise<void> {
  const { io } = session;
  const messages = await session.messages();
  const planned = (step: RunStep) => plannedRow(step, titles);
  const journal = await openRun(session, { command: 'undo', reason, undoes: run.id });
  const renamed = new Map<string, string>();
  const counts = { undone: 0, skipped: 0, conflict: 0, stale: 0, failed: 0 };
  const results: JsonRecord[] = [];
  let interrupted = false;
  const removers = [io.onInterrupt(() => (interrupted = true)), io.onTerminate?.(() => (interrupted = true))];
  try {
    for (const step of steps) {
      if (interrupted) break;
      const row = planned(step);
      if (!step.plan) {
        counts.skipped++;
        results.push({ ...row, result: 'skipped', message: step.refusal });
        continue;
      }
      const plan = withNewIds(step.plan, renamed);
      try {
        const result = await applyUndo({ api, journal, titles, confirm: async () => undefined }, step.record, plan, undoLabel(step.record, plan));
        if (result.created && step.record.student_id) renamed.set(step.record.student_id, result.created.id);
        counts.undone++;
        results.push({ ...row, result: 'undone', message: result.message });
      } catch (error) {
        const result = error instanceof UndoStaleError ? 'stale' : error instanceof UndoConflictError ? 'conflict' : 'failed';
        counts[result]++;
        results.push({ ...row, result, message: (error as Error).message });
      }
    }
  } finally {
    removers.forEach((remove) => remove?.());
  }
  await withOutput(session, (output) => output.list(results, RUN_UNDO_VIEW));
  const undoneRun = await journal.finish({ counts, interrupted });
  const recorded = undoneRun ? `; recorded as run ${undoneRun}` : '';
  const stale = counts.stale > 0 ? `${counts.stale} changed while this undo ran (stale), ` : '';
  const summary = `${counts.undone} undone, ${counts.skipped} skipped, ${counts.conflict} changed since (conflict), ${stale}${counts.failed} failed`;
  if (interrupted) throw new InterruptedError(`interrupted while undoing run ${run.id}: ${summary}${recorded}`);
  if (counts.conflict + counts.stale + counts.failed > 0) {
    throw new BulkFailedError(`run ${run.id} is partly undone: ${summary}${recorded}; see the messages of the changes not undone`);
  }
  messages.notice(`✓ Undid run ${run.id} (${run.command}): ${summary}${recorded}`);
}

function plannedRow(step: RunStep, titles: ProductTitles): JsonRecord {
  const { record } = step;
  const message = step.refusal ?? (step.plan && undoCaveat(record.id, step.plan)) ?? null;
  return {
    id: record.id, action: record.action, student: record.student ?? record.student_id ?? null,
    product_title: record.product_id ? titles.get(record.product_id) ?? null : null, product_id: record.product_id ?? null,
    result: step.plan ? 'to undo' : 'cannot be undone', message,
  };
}
