/**
 * Undo, apart from any terminal (issue 30: one change, the most recent one,
 * or every change of a run — a bulk file, a transfer, an extension, a sync):
 * how to reverse a recorded change, decided from the log alone (planUndo:
 * a UsageError, exit 2, says why it cannot be), and reversing it only if the
 * state it left is still there (applyUndo: UndoConflictError, exit 5, when
 * the server's current state says no; nothing is sent then). Every change an
 * undo makes is recorded as `action: undo`, `undoes: ID`: its grants, revokes
 * and restores by sendChange, the one path of every command's (its rules:
 * compare before destroy, a DELETE answered 404, a failed renewal put back),
 * its scores and re-created students through the journal.
 */
import type { Api } from '../api/client.js';
import type { Student, Subscription } from '../api/endpoints/schemas.js';
import { createStudent, findStudent, getScores, getStudent, setScore, studentProduct, type NewStudent } from '../api/endpoints/students.js';
import { recorded, studentSnapshot, type AuditRecord, type Journal, type Snapshot } from '../audit/index.js';
import { CliError, ExitCode, UsageError } from '../lib/errors.js';
import { nameAndEmail } from '../lib/people.js';
import { sendChange } from './send-change.js';
import { productLabel, stateText } from './subscription-state.js';

/** The state changed since the recorded change: nothing was sent (exit 5, like a server refusal). */
export class UndoConflictError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.rejected);
  }
}

/**
 * After undoing a renewal's grant: the replaced subscription had access, so it
 * is granted again with its dates. (One that had no access cannot be: the
 * API creates no subscription without access, so the undo removes the
 * subscription, and the former one is `lost`.)
 */
export interface RestorePlan {
  accession: string;
  expiration?: string;
}

/** What undoing a record takes, decided from the log alone. */
export type UndoPlan =
  | { kind: 'revoke'; studentId: string; productId: string; granted: Snapshot; restore?: RestorePlan; lost?: Snapshot }
  | { kind: 'grant'; studentId: string; productId: string; accession: string; expiration?: string }
  | { kind: 'recreate'; body: NewStudent; oldId?: string }
  | { kind: 'score'; studentId: string; previous: number; set: number };

/** The results of a renewal's record: `students grant --renew`, a sync's restore and expiration change (and `subscriptions extend`'s). */
const RENEWED = ['renewed', 'restored', 'expiration-changed'];

/** `2024-03-05 00:00:00` → `2024-03-05`; null when there is no date. */
export function dateOnly(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0] ?? value;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Decides how to undo `target`, or says why it cannot be (UsageError): from
 * its action and result, and from the other records (an undo already made).
 */
export function planUndo(target: AuditRecord, records: readonly AuditRecord[]): UndoPlan {
  const { id } = target;
  if (target.result === 'not applied' || target.result === 'unknown') {
    throw new UsageError(`change ${id} was ${target.result === 'unknown' ? 'never known to have been applied (it could not be checked)' : 'not applied'}; there is nothing to undo`);
  }
  // An undo found not applied (an interrupted run's) undid nothing.
  const done = records.find((record) => record.action === 'undo' && record.undoes === id && record.result !== 'not applied' && record.result !== 'unknown');
  if (done) {
    throw new UsageError(`change ${id} was already undone by ${done.id} (${done.time} by ${done.user}); see \`members history\``);
  }
  const needs = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new UsageError(`change ${id} cannot be undone: its record has no ${what}`);
    return value;
  };
  if (target.result === 'granted' && (target.action === 'grant' || target.action === 'undo')) {
    return {
      kind: 'revoke', studentId: needs(target.student_id, 'student id'), productId: needs(target.product_id, 'product id'),
      granted: needs(target.after, 'granted subscription'),
    };
  }
  // A sync's restore and expiration change, and an extension, are renewals too.
  if (target.action === 'renew' && RENEWED.includes(target.result)) {
    const before = needs(target.before, 'replaced subscription');
    const accession = dateOnly(before.accession_date);
    const hadAccess = [1, '1', true].includes(before.active as never);
    const plan: UndoPlan = {
      kind: 'revoke', studentId: needs(target.student_id, 'student id'), productId: needs(target.product_id, 'product id'),
      granted: needs(target.after, 'renewed subscription'),
      restore: hadAccess && accession ? { accession, expiration: dateOnly(before.expiration_date) ?? undefined } : undefined,
    };
    // A restore's former subscription had no access: nothing can bring it back.
    if (!hadAccess) plan.lost = before;
    return plan;
  }
  // A renewal stopped between its revoke and its grant is a revoke: undo grants the old subscription back.
  if (target.result === 'revoked' && (target.action === 'revoke' || target.action === 'undo' || target.action === 'renew')) {
    const before = needs(target.before, 'revoked subscription');
    const accession = needs(dateOnly(before.accession_date) ?? undefined, 'accession date');
    return {
      kind: 'grant', studentId: needs(target.student_id, 'student id'), productId: needs(target.product_id, 'product id'),
      accession, expiration: dateOnly(before.expiration_date) ?? undefined,
    };
  }
  if (target.action === 'scores.set' && target.result === 'updated' && typeof target.before?.score === 'number') {
    return {
      kind: 'score', studentId: needs(target.student_id, 'student id'), previous: target.before.score,
      set: typeof target.after?.score === 'number' ? target.after.score : needs(target.score as number | undefined, 'score set'),
    };
  }
  if (target.action === 'delete' && target.result === 'deleted') {
    if (target.forgotten) {
      throw new UsageError(`change ${id} deleted a student whose personal data was then erased from this machine's audit log (${target.forgotten.at}): `
        + 'undo cannot recreate the person. If they ask to come back, create them again with `members students create`');
    }
    const before = needs(target.before, "deleted student's fields");
    const body: NewStudent = {
      first_name: needs(text(before.first_name), 'first name'),
      last_name: needs(text(before.last_name), 'last name'),
      email: needs(text(before.email), 'e-mail'),
    };
    const phone = text(before.phone);
    const birth = dateOnly(before.birth);
    const document = text(before.document);
    const reference = text(before.reference_id);
    if (phone) body.phone = phone;
    if (birth) body.birth = birth;
    if (document) body.document = document;
    if (reference) body.reference_id = reference;
    return { kind: 'recreate', body, oldId: target.student_id };
  }
  throw new UsageError(notUndoable(target));
}

function notUndoable(target: AuditRecord): string {
  const { id } = target;
  switch (target.action) {
    case 'create':
      return `change ${id} created a student; creating cannot be undone. If it was a mistake, delete the student: `
        + `\`members students delete ${target.student_id ?? target.student ?? 'STUDENT'}\``;
    case 'scores.set':
      return `change ${id} set a score before scores were recorded for undo; it cannot be undone. `
        + `Set it by hand with \`members scores set ${target.student ?? 'STUDENT'} SCORE\``;
    case 'magic-link':
      return `change ${id} created a magic link; a link cannot be withdrawn, it expires by itself`
        + `${target.expire_in ? ` ${target.expire_in}s after ${target.time}` : ''}`;
    case 'forget':
      return `change ${id} erased the personal data of student ${target.student_id ?? ''} from this machine's audit log; what was erased is gone`;
    case 'undo':
      return target.result === 'created'
        ? `change ${id} created a deleted student again; to remove it, \`members students delete ${target.student_id ?? target.student ?? 'STUDENT'}\``
        : `change ${id} cannot be undone`;
    default:
      return `change ${id} (${target.action}, ${target.result}) cannot be undone`;
  }
}

/**
 * What undoing a renewal of a subscription without access (a restore) cannot
 * give back, from the record `id`; undefined for any other plan.
 */
export function undoCaveat(id: string, plan: UndoPlan): string | undefined {
  if (plan.kind !== 'revoke' || !plan.lost) return undefined;
  const { status, accession_date: accession, expiration_date: expiration } = plan.lost;
  const was = [typeof status === 'string' ? `status ${status}` : '', dates(dateOnly(accession), dateOnly(expiration))].filter(Boolean).join(', ');
  return `the subscription is removed: the one it replaced (without access; ${was}) cannot be recreated through the API, `
    + `which creates no subscription without access; its status and dates stay in the audit record ${id}`;
}

/** The question asked before undoing `id`; products by title with their ids, where `titles` knows them. */
/** How an undo names the student: as the change named it, else by the e-mail it recreates or its id. */
export const undoLabel = (target: AuditRecord, plan: UndoPlan) => target.student ?? (plan.kind === 'recreate' ? plan.body.email : `student ${target.student_id}`);

export function undoQuestion(id: string, plan: UndoPlan, label: string, titles?: ProductTitles): string {
  const product = productOf(plan, titles);
  switch (plan.kind) {
    case 'revoke': {
      if (plan.restore) {
        return `Undo ${id}: revoke the renewed ${product} of ${label} and grant it with its former dates (${dates(plan.restore.accession, plan.restore.expiration)})?`;
      }
      const caveat = undoCaveat(id, plan);
      return caveat ? `Undo ${id}: revoke the renewed ${product} from ${label} (${caveat})?` : `Undo ${id}: revoke ${product} from ${label}?`;
    }
    case 'grant':
      return `Undo ${id}: grant ${product} to ${label} again (${dates(plan.accession, plan.expiration)})?`;
    case 'score':
      return `Undo ${id}: set the score of ${label} back from ${plan.set} to ${plan.previous}?`;
    case 'recreate':
      return `Undo ${id}: create student ${nameAndEmail(plan.body)} again, with a new id?`;
  }
}

/** Product titles by id (the catalog cache, or one read of the products list): messages name a product by title, with its id. */
export type ProductTitles = ReadonlyMap<string, string>;

/** `product "Python Pro" (5f1c…)`, or `product 5f1c…` when the title is not known. */
const productOf = (plan: UndoPlan, titles?: ProductTitles) => ('productId' in plan ? productLabel(plan.productId, undefined, titles?.get(plan.productId)) : '');

const dates = (accession: string | null, expiration: string | null | undefined) =>
  `accession ${accession ?? 'none'}, expiration ${expiration ?? 'none'}`;

/** How the held subscription differs from the one granted; empty when it is the same. */
export function changesSince(granted: Snapshot, held: Subscription): string[] {
  const changes: string[] = [];
  for (const field of ['accession_date', 'expiration_date'] as const) {
    const was = dateOnly(granted[field]);
    const now = dateOnly(held[field]);
    if (was !== now) changes.push(`${field.replace('_date', '')} ${was ?? 'none'} → ${now ?? 'none'}`);
  }
  const heldId = held.id ?? null;
  if (granted.id !== null && granted.id !== undefined && heldId !== null && String(granted.id) !== String(heldId)) {
    changes.push(`subscription ${String(granted.id)} → ${String(heldId)} (granted again since)`);
  }
  return changes;
}


export interface UndoContext {
  api: Api;
  /** Records each change the undo makes (`command: undo`; a run's undo adds its `run_id`). */
  journal: Journal;
  /**
   * Called once the state is checked, right before the first request that
   * changes something: a single undo announces the host and asks here; a
   * run's undo asked before its first row.
   */
  confirm(): Promise<void>;
  /** To name products by title in messages. */
  titles?: ProductTitles;
}

/** What an undo did: its message, and the record it left (the subscription granted, the student created). */
export interface UndoResult {
  message: string;
  subscription?: Subscription;
  /** A deleted student created again: its new id (later changes of a run name the old one). */
  created?: Student;
}

/** The state changed between the undo's check and its send (a question answered, or a run's other rows): nothing was sent. */
export class UndoStaleError extends UndoConflictError {}

/**
 * Reverses `target` as `plan` says, if the state it left is still there
 * (UndoConflictError otherwise, nothing sent). `label` names the student in
 * messages. Grants, revokes and restores go through sendChange: a revoke or
 * restore reads the subscription again right before it is sent (after the
 * question) and sends nothing when it changed since the check (UndoStaleError).
 */
export async function applyUndo(context: UndoContext, target: AuditRecord, plan: UndoPlan, label: string): Promise<UndoResult> {
  const { api, journal, confirm } = context;
  const product = productOf(plan, context.titles);
  const { id } = target;
  // As the change named the student, else by its id (the label is for messages).
  const holder = (studentId: string) => ({ input: target.student ?? studentId, id: studentId });
  const stale = (now: Subscription | undefined) => new UndoStaleError(
    `cannot undo ${id}: the subscription of ${label} to ${product} changed while this undo ran (now ${stateText(now)}); nothing was sent. `
      + `Someone changed it meanwhile: look at \`members students products ${target.student ?? ('studentId' in plan ? plan.studentId : '')}\` before changing it again`,
  );
  switch (plan.kind) {
    case 'revoke': {
      const held = await studentProduct(api, plan.studentId, plan.productId);
      if (!held) {
        // The API answers 404 for an unknown student and for a product not held alike: an unknown student is exit 4.
        await getStudent(api, { kind: 'id', value: plan.studentId });
        throw new UndoConflictError(`cannot undo ${id}: ${label} no longer has ${product}; nothing was sent`);
      }
      const changes = changesSince(plan.granted, held);
      if (changes.length > 0) {
        throw new UndoConflictError(
          `cannot undo ${id}: the subscription of ${label} to ${product} changed since it was granted `
            + `(${changes.join('; ')}); nothing was sent. Look at \`members students products ${target.student ?? plan.studentId}\` and revoke by hand if it is still wanted`,
        );
      }
      await confirm();
      const { restore } = plan;
      const common = { api, journal, student: holder(plan.studentId), productId: plan.productId, held, compare: true, undoes: id };
      // Undoing a renewal is one change: the revoke, then the former dates granted again (a failed grant puts the renewed one back).
      const sent = restore
        ? await sendChange({
          ...common, action: 'renew', label,
          request: { product_id: plan.productId, accession_date: restore.accession, expiration_date: restore.expiration },
        })
        : await sendChange({ ...common, action: 'revoke' });
      if (sent.outcome !== 'applied') throw stale(sent.now);
      if (!restore) {
        const caveat = undoCaveat(id, plan);
        const what = target.action === 'renew' ? `revoked the renewed ${product} from ${label}` : `revoked ${product} from ${label}`;
        return { message: caveat ? `${what}: ${caveat}` : what };
      }
      // The API sets no status on a grant: say so when the former one differed.
      const was = target.before?.status;
      const now = sent.data?.status;
      const status = typeof was === 'string' && now && was !== now ? `; its status is ${now}, not ${was} as before: the API sets no status on a grant` : '';
      return { message: `${product} of ${label} is back to its former dates (${dates(restore.accession, restore.expiration)})${status}`, subscription: sent.data };
    }
    case 'grant': {
      // Held again, whatever its access: a person must look, undo never renews.
      const held = await studentProduct(api, plan.studentId, plan.productId);
      if (held) throw hasAgain(id, `${label} has ${product} again since it was revoked`, held);
      await confirm();
      const sent = await sendChange({
        action: 'grant', api, journal, student: holder(plan.studentId), undoes: id, accepts: () => true,
        request: { product_id: plan.productId, accession_date: plan.accession, expiration_date: plan.expiration },
      });
      // Refused because it is there now: granted while this undo ran.
      if (sent.outcome !== 'applied') throw hasAgain(id, `${label} has ${product} again: it was granted while this undo ran`, sent.now, UndoStaleError);
      return {
        message: `granted ${product} to ${label} again (${dates(plan.accession, plan.expiration)}); it is a new subscription, with the status and access the server gives a grant`,
        subscription: sent.data,
      };
    }
    case 'score': {
      const now = await getScores(api, plan.studentId);
      if (now.score !== plan.set) {
        throw new UndoConflictError(`cannot undo ${id}: the score of ${label} is ${now.score ?? 'unset'} now, not ${plan.set} as that change left it; nothing was sent`);
      }
      await confirm();
      const change = await journal.begin({ action: 'undo', undoes: id, student: target.student, student_id: plan.studentId, result: 'updated', score: plan.previous, before: { score: plan.set } });
      await recorded(change, () => setScore(api, plan.studentId, plan.previous), ({ data, requestId }) => ({ request_id: requestId, after: { score: data.data.score ?? plan.previous } }));
      return { message: `the score of ${label} is ${plan.previous} again` };
    }
    case 'recreate': {
      const existing = await findStudent(api, { kind: 'email', value: plan.body.email });
      if (existing) throw new UndoConflictError(`cannot undo ${id}: a student with e-mail ${plan.body.email} exists again (id ${existing.id}); nothing was sent`);
      await confirm();
      const change = await journal.begin({ action: 'undo', undoes: id, student: plan.body.email, result: 'created' });
      const { data } = await recorded(change, () => createStudent(api, plan.body), (answer) => ({ student_id: answer.data.id, request_id: answer.requestId, after: studentSnapshot(answer.data) }));
      return {
        message: `created ${nameAndEmail(plan.body)} again as a new student, id ${data.id}${plan.oldId ? ` (was ${plan.oldId})` : ''}; its products, scores and progress are not restored`,
        created: data,
      };
    }
  }
}

/** `cannot undo r1: Maria has product p1 again since it was revoked (accession 2025-06-01, expiration none); nothing was sent` */
function hasAgain(id: string, what: string, held: Subscription | undefined, Refusal: typeof UndoConflictError = UndoConflictError): UndoConflictError {
  return new Refusal(`cannot undo ${id}: ${what} (${dates(dateOnly(held?.accession_date), dateOnly(held?.expiration_date))}); nothing was sent`);
}

/** One change of a run, and how to undo it — or why it cannot be (from the log alone). */
export interface RunStep {
  record: AuditRecord;
  plan?: UndoPlan;
  refusal?: string;
}

/**
 * The changes of the run whose record is `run` (`action: bulk`: a bulk file,
 * a transfer, an extension, a sync), newest first — the order that undoes a
 * transfer (the delete first, then the revokes, then the grants) — each
 * planned, or refused with the reason. A UsageError (exit 2) when `run` is
 * not a run or nothing of it is left to undo.
 */
export function planRunUndo(run: AuditRecord, records: readonly AuditRecord[]): RunStep[] {
  if (run.action !== 'bulk') throw new UsageError(`change ${run.id} is not a run`);
  const steps = records.filter((record) => record.run_id === run.id && record.action !== 'bulk').reverse().map((record): RunStep => {
    try {
      return { record, plan: planUndo(record, records) };
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return { record, refusal: error.message };
    }
  });
  if (steps.length === 0) throw new UsageError(`run ${run.id} (${run.command}) recorded no change; there is nothing to undo`);
  if (steps.every((step) => step.plan === undefined)) {
    const reasons = [...new Set(steps.map((step) => (step.refusal as string).replace(/^change \S+ /, '')))].slice(0, 3).join('; ');
    throw new UsageError(`nothing of run ${run.id} (${run.command}, ${steps.length} ${steps.length === 1 ? 'change' : 'changes'}) can be undone: ${reasons}`);
  }
  return steps;
}

/**
 * Why the refused steps of a run cannot be undone, each reason once with
 * how many it refuses: `not applied (2), already undone (1), created a
 * student (1)`. A reason is the clause of the refusal that says why, without
 * what differs from change to change (ids, times, the command to run).
 */
export function refusalCounts(steps: readonly RunStep[]): string {
  const counts = new Map<string, number>();
  for (const { refusal } of steps) {
    if (refusal === undefined) continue;
    const reason = (refusal.replace(/^change \S+ /, '').split(/;|:| \(| by |\. /)[0] as string).replace(/^was /, '');
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => `${reason} (${count})`).join(', ');
}

/**
 * The plan with the ids of students that an earlier step of the same undo
 * created again (`renamed`: old id → new id): a transfer's revokes name the
 * student its delete removed.
 */
export function withNewIds(plan: UndoPlan, renamed: ReadonlyMap<string, string>): UndoPlan {
  if (!('studentId' in plan)) return plan;
  const now = renamed.get(plan.studentId);
  return now === undefined ? plan : { ...plan, studentId: now };
}
