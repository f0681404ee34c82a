/**
 * `members undo AUDIT_ID`: reverses one recorded change, only if the state it
 * left is still there. What the log alone refuses (unknown id, a change that
 * cannot be undone, one already undone, another server) is a usage error,
 * exit 2, before any request. What the server's current state refuses (the
 * subscription changed, the product is back, the e-mail is taken) is
 * UndoConflictError, exit 5: nothing is sent, and a person must look.
 */
import type { Subscription } from '../../api/endpoints/schemas.js';
import { createStudent, findStudent, getScores, setScore, type NewStudent } from '../../api/endpoints/students.js';
import {
  auditBaseUrl, readAllAudit, recordChange, studentSnapshot, subscriptionSnapshot, type AuditRecord, type Snapshot,
} from '../../audit/index.js';
import { auditLogPath } from '../../config/paths.js';
import { CliError, ExitCode, UsageError } from '../../lib/errors.js';
import { nameAndEmail } from '../../lib/people.js';
import type { Session } from '../../session/session.js';
import { withOutput } from '../../session/list-flags.js';
import { AccessNotHeldError, grantToStudent, revokeFromStudent } from '../../domain/changes.js';
import type { ResolvedStudent } from '../../domain/resolve.js';
import { STUDENT_VIEW, SUBSCRIPTION_VIEW } from '../../views/students.js';

/** The state changed since the recorded change: nothing was sent (exit 5, like a server refusal). */
export class UndoConflictError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.rejected);
  }
}

/**
 * After undoing a renewal's grant: the replaced subscription had access, so it
 * is granted again with its dates. (One that had no access is left revoked:
 * the API cannot create a subscription without access, and no access is what
 * the student had.)
 */
export interface RestorePlan {
  accession: string;
  expiration?: string;
}

/** What undoing a record takes, decided from the log alone. */
export type UndoPlan =
  | { kind: 'revoke'; studentId: string; productId: string; granted: Snapshot; restore?: RestorePlan }
  | { kind: 'grant'; studentId: string; productId: string; accession: string; expiration?: string }
  | { kind: 'recreate'; body: NewStudent; oldId?: string }
  | { kind: 'score'; studentId: string; previous: number; set: number };

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
  const done = records.find((record) => record.action === 'undo' && record.undoes === id);
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
  if (target.action === 'renew' && target.result === 'renewed') {
    const before = needs(target.before, 'replaced subscription');
    const accession = dateOnly(before.accession_date);
    const hadAccess = [1, '1', true].includes(before.active as never);
    return {
      kind: 'revoke', studentId: needs(target.student_id, 'student id'), productId: needs(target.product_id, 'product id'),
      granted: needs(target.after, 'renewed subscription'),
      restore: hadAccess && accession ? { accession, expiration: dateOnly(before.expiration_date) ?? undefined } : undefined,
    };
  }
  if (target.result === 'revoked' && (target.action === 'revoke' || target.action === 'undo')) {
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
    case 'bulk':
      return `change ${id} is a bulk run; undo its rows one at a time: \`members history -o json\` lists them with "run_id": "${id}"`;
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

function question(id: string, plan: UndoPlan, label: string): string {
  switch (plan.kind) {
    case 'revoke':
      return plan.restore
        ? `Undo ${id}: revoke the renewed product ${plan.productId} of ${label} and grant it with its former dates (${dates(plan.restore.accession, plan.restore.expiration)})?`
        : `Undo ${id}: revoke product ${plan.productId} from ${label}?`;
    case 'grant':
      return `Undo ${id}: grant product ${plan.productId} to ${label} again (${dates(plan.accession, plan.expiration)})?`;
    case 'score':
      return `Undo ${id}: set the score of ${label} back from ${plan.set} to ${plan.previous}?`;
    case 'recreate':
      return `Undo ${id}: create student ${nameAndEmail(plan.body)} again, with a new id?`;
  }
}

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

export async function undo(session: Session, rawId: string, opts: { reason?: string }): Promise<void> {
  const id = rawId.trim();
  if (id === '') throw new UsageError('empty AUDIT_ID; `members history` lists the ids of the changes');
  const dir = await session.configDir();
  const messages = await session.messages();
  const records = await readAllAudit(dir, ({ line }) => messages.warn(`skipped line ${line} of ${auditLogPath(dir)}: not a valid audit record`));
  const target = records.find((record) => record.id === id);
  if (!target) throw new UsageError(`no change with id ${id} in ${auditLogPath(dir)}; \`members history\` lists the ids of the changes`);
  const plan = planUndo(target, records);

  // The change must be undone where it was made.
  const settings = await session.settings();
  const here = auditBaseUrl(settings.baseUrl);
  if (target.base_url && here !== target.base_url) {
    throw new UsageError(
      `change ${id} was made on ${target.base_url} (profile ${target.profile}), but the profile in force is ${settings.profile} `
        + `(${here || 'no base URL'}); run again with --profile ${target.profile}`,
    );
  }
  const label = target.student ?? (plan.kind === 'recreate' ? plan.body.email : `student ${target.student_id}`);
  const ask = question(id, plan, label);
  // Off a terminal without --yes the answer is known already: fail before any request.
  if (!session.globals.yes && !session.io.stdin.isTTY) await session.confirm(ask);

  const confirm = async () => {
    await session.announceChange();
    await session.confirm(ask);
  };
  const base = { command: 'undo', action: 'undo' as const, undoes: id, reason: opts.reason };
  await withOutput(session, async (output) => {
    const api = await session.api();
    switch (plan.kind) {
      case 'revoke': {
        const student = byId(plan.studentId, label);
        const outcome = await revokeFromStudent(api, student, plan.productId, {
          beforeChange: async (held) => {
            const changes = held ? changesSince(plan.granted, held) : [];
            if (changes.length > 0) {
              throw new UndoConflictError(
                `cannot undo ${id}: the subscription of ${label} to product ${plan.productId} changed since it was granted `
                  + `(${changes.join('; ')}); nothing was sent. Look at \`members students products ${target.student ?? plan.studentId}\` and revoke by hand if it is still wanted`,
              );
            }
            await confirm();
          },
        });
        if (outcome.result === 'skipped') {
          throw new UndoConflictError(`cannot undo ${id}: ${label} no longer has product ${plan.productId}; nothing was sent`);
        }
        const revoked = outcome.subscription ? subscriptionSnapshot(outcome.subscription) : undefined;
        if (plan.restore) {
          const { accession, expiration } = plan.restore;
          const regrant = await grantToStudent(api, student, plan.productId, { accession, expiration });
          await recordChange(session, {
            ...base, student: target.student, student_id: plan.studentId, product_id: plan.productId, result: 'renewed',
            request_id: regrant.requestId, before: revoked, after: regrant.subscription ? subscriptionSnapshot(regrant.subscription) : undefined,
          });
          if (regrant.subscription) await output.one(regrant.subscription, SUBSCRIPTION_VIEW);
          // The API sets no status on a grant: say so when the former one differed.
          const was = target.before?.status;
          const now = regrant.subscription?.status;
          const status = typeof was === 'string' && now && was !== now ? `; its status is ${now}, not ${was} as before: the API sets no status on a grant` : '';
          messages.notice(`✓ Undid ${id}: product ${plan.productId} of ${label} is back to its former dates (${dates(accession, expiration)})${status}`);
          return;
        }
        await recordChange(session, {
          ...base, student: target.student, student_id: plan.studentId, product_id: plan.productId, result: 'revoked',
          request_id: outcome.requestId, before: revoked,
        });
        messages.notice(target.action === 'renew'
          ? `✓ Undid ${id}: revoked the renewed product ${plan.productId} from ${label}; without access again, as before the renewal `
            + '(the API cannot recreate a subscription without access)'
          : `✓ Undid ${id}: revoked product ${plan.productId} from ${label}`);
        return;
      }
      case 'grant': {
        const student = byId(plan.studentId, label);
        const outcome = await grantToStudent(api, student, plan.productId, { accession: plan.accession, expiration: plan.expiration }, {
          beforeChange: confirm,
        }).catch((error: unknown) => {
          // Held again, whatever its access: a person must look, undo never renews.
          if (error instanceof AccessNotHeldError) return { result: 'skipped' as const, subscription: error.held, requestId: undefined };
          throw error;
        });
        if (outcome.result === 'skipped') {
          const held = outcome.subscription;
          throw new UndoConflictError(
            `cannot undo ${id}: ${label} has product ${plan.productId} again since it was revoked `
              + `(${dates(dateOnly(held?.accession_date), dateOnly(held?.expiration_date))}); nothing was sent`,
          );
        }
        await recordChange(session, {
          ...base, student: target.student, student_id: plan.studentId, product_id: plan.productId, result: 'granted',
          request_id: outcome.requestId, after: outcome.subscription ? subscriptionSnapshot(outcome.subscription) : undefined,
        });
        if (outcome.subscription) await output.one(outcome.subscription, SUBSCRIPTION_VIEW);
        messages.notice(`✓ Undid ${id}: granted product ${plan.productId} to ${label} again (${dates(plan.accession, plan.expiration)}); `
          + 'it is a new subscription, with the status and access the server gives a grant');
        return;
      }
      case 'score': {
        const now = await getScores(api, plan.studentId);
        if (now.score !== plan.set) {
          throw new UndoConflictError(`cannot undo ${id}: the score of ${label} is ${now.score ?? 'unset'} now, not ${plan.set} as that change left it; nothing was sent`);
        }
        await confirm();
        const { data, requestId } = await setScore(api, plan.studentId, plan.previous);
        await recordChange(session, {
          ...base, student: target.student, student_id: plan.studentId, result: 'updated', request_id: requestId,
          score: plan.previous, before: { score: plan.set }, after: { score: data.data.score ?? plan.previous },
        });
        messages.notice(`✓ Undid ${id}: the score of ${label} is ${plan.previous} again`);
        return;
      }
      case 'recreate': {
        const existing = await findStudent(api, { kind: 'email', value: plan.body.email });
        if (existing) {
          throw new UndoConflictError(`cannot undo ${id}: a student with e-mail ${plan.body.email} exists again (id ${existing.id}); nothing was sent`);
        }
        await confirm();
        const { data, requestId } = await createStudent(api, plan.body);
        await recordChange(session, {
          ...base, student: plan.body.email, student_id: data.id, result: 'created', request_id: requestId, after: studentSnapshot(data),
        });
        await output.one(data, STUDENT_VIEW);
        messages.notice(`✓ Undid ${id}: created ${nameAndEmail(plan.body)} again as a new student, `
          + `id ${data.id}${plan.oldId ? ` (was ${plan.oldId})` : ''}; its products, scores and progress are not restored`);
        return;
      }
    }
  });
}

const byId = (id: string, input: string): ResolvedStudent => ({ input, key: { kind: 'id', value: id }, id });

