/**
 * Completes the changes that earlier runs began and never finished recording
 * (journal.ts): each intent of this server whose run is gone is checked on
 * the server — the state a bulk re-run checks too — and recorded as applied
 * (with what the server holds now), `not applied`, or, for a renewal stopped
 * between its revoke and its grant, `revoked` (undo grants it back).
 */
import { hostname } from 'node:os';
import type { Api } from '../api/client.js';
import { auditLogPath } from '../config/paths.js';
import type { Subscription } from '../api/endpoints/schemas.js';
import { findStudent, getScores, studentProduct } from '../api/endpoints/students.js';
import { plural } from '../lib/values.js';
import { claimIntent, listIntents, releaseIntent, removeIntent, type FoundIntent, type Intent } from './intents.js';
import { logLines, type AuditEntry, type AuditRecord } from './log.js';
import { studentSnapshot, subscriptionSnapshot } from './snapshots.js';
import { auditBaseUrl, write, type AuditContext } from './stamp.js';
import type { IntentRows } from './record.js';

/** What the check found: the fields that complete the record; none when it was applied as intended. */
type Completion = Partial<AuditEntry>;
type Check = (api: Api, record: AuditRecord) => Promise<Completion>;

const NOT_APPLIED: Completion = { result: 'not applied' };

/** The very subscription seen before the change (a server without subscription ids: never). */
const sameId = (held: Subscription, before: AuditRecord['before']) => held.id != null && String(held.id) === String(before?.id);

// A subscription change's intent names both (docs/audit-and-undo.md).
const held = (client: Api, record: AuditRecord) => studentProduct(client, record.student_id as string, record.product_id as string);

/** Granted: the student holds the product now, and not the subscription that was there before (a renewal's). */
const grantCheck: Check = async (client, record) => {
  const now = await held(client, record);
  return now && !sameId(now, record.before) ? { after: subscriptionSnapshot(now) } : NOT_APPLIED;
};

/** Revoked: the product is gone, or held again under another subscription (granted since). */
const revokeCheck: Check = async (client, record) => {
  const now = await held(client, record);
  return !now || (record.before?.id != null && !sameId(now, record.before)) ? {} : NOT_APPLIED;
};

/** Renewed: a new subscription; still the old one: not applied; none: the revoke went through and the grant did not. */
const renewCheck: Check = async (client, record) => {
  const now = await held(client, record);
  if (!now) return { result: 'revoked' };
  return sameId(now, record.before) ? NOT_APPLIED : { after: subscriptionSnapshot(now) };
};

const createCheck: Check = async (client, record) => {
  const found = await findStudent(client, { kind: 'email', value: record.student as string });
  return found ? { student_id: found.id, after: studentSnapshot(found) } : NOT_APPLIED;
};

const deleteCheck: Check = async (client, record) =>
  (await findStudent(client, { kind: 'id', value: record.student_id as string })) ? NOT_APPLIED : {};

const scoreCheck: Check = async (client, record) => {
  const { score } = await getScores(client, record.student_id as string);
  return score === record.score ? { after: { score } } : NOT_APPLIED;
};

/** A magic link leaves nothing the API shows. */
const cannotCheck: Check = async () => ({ result: 'unknown' });

const CHECKS = new Map<string | undefined, Check>([
  ['grant', grantCheck], ['revoke', revokeCheck], ['renew', renewCheck], ['create', createCheck], ['delete', deleteCheck], ['scores.set', scoreCheck],
]);
/** An undo does what its result says. */
const UNDONE_BY: Record<string, string> = { granted: 'grant', revoked: 'revoke', renewed: 'renew', created: 'create', updated: 'scores.set' };

export function checkFor(record: AuditRecord): Check {
  const kind = record.action === 'undo' ? UNDONE_BY[record.result] : record.action;
  return CHECKS.get(kind) ?? cannotCheck;
}

/** An intent no longer written by a live run: its writer (or the run that claimed it) is gone. */
function orphaned(found: FoundIntent, intent: Intent, context: AuditContext, host: string, now: number): boolean {
  const { pid: self = 0, isRunning = () => false } = context.io;
  const running = (pid: number) => pid !== self && isRunning(pid);
  if (found.claimedBy !== undefined) return !running(found.claimedBy);
  // Another machine's run (a shared config directory) cannot be asked: after a day it is gone.
  if (intent.host !== host) return now - Date.parse(intent.record.time) > DAY_MS;
  return !running(intent.pid);
}

const DAY_MS = 24 * 3600 * 1000;

export interface Resolution {
  /** Changes checked, by how they turned out: `applied`, `not applied`, `unknown`, `half applied`. */
  counts: Record<string, number>;
  /** The records of renewals found half done (their subscription is gone). */
  halves: AuditRecord[];
  /** Changes not found applied while their request may still be on its way (intent.deadline): left for a later run. */
  pending: Intent[];
}

/** A check that did not find the change done: before the deadline, the server may not have reached it yet. */
const UNFINISHED = new Set(['not applied', 'revoked']);

/** Whether `completion` may still turn out otherwise: the change found not (or half) done, its request maybe still on its way. */
export function mayBeInFlight(intent: Intent, completion: Completion, now: number): boolean {
  return intent.deadline !== undefined && now < Date.parse(intent.deadline) && UNFINISHED.has(completion.result as string);
}

/** The intents of the server in force whose runs are gone: what is left to check. */
export async function orphanedIntents(context: AuditContext, now = Date.now()): Promise<Array<FoundIntent & { intent: Intent }>> {
  const found = listIntents(await context.configDir());
  if (found.length === 0) return [];
  const here = auditBaseUrl((await context.settings()).baseUrl);
  const host = hostname();
  return found.filter((item): item is FoundIntent & { intent: Intent } =>
    item.intent !== undefined && item.intent.record.base_url === here && orphaned(item, item.intent, context, host, now));
}

/**
 * Checks and records every orphaned intent of the server `client` talks to.
 * An intent whose check fails (the network) stays for a later run.
 */
export async function resolveInterrupted(context: AuditContext, client: Api, now = Date.now()): Promise<Resolution> {
  const resolution: Resolution = { counts: {}, halves: [], pending: [] };
  const found = await orphanedIntents(context, now);
  const dir = await context.configDir();
  for (const { intent, ...item } of found) {
    const claimed = claimIntent(dir, item, context.io.pid ?? 0);
    if (claimed === undefined) continue;
    if (await recordedSince(dir, intent.record.id, intent.log_offset)) {
      removeIntent(claimed);
      continue;
    }
    let completion: Completion;
    try {
      completion = await checkFor(intent.record)(client, intent.record);
    } catch {
      continue;
    }
    // Found done by a change recorded since (a re-run did it again): not this one's doing, deadline or not.
    if (completion.result === undefined && await doneByLater(dir, intent, completion)) completion = NOT_APPLIED;
    else if (mayBeInFlight(intent, completion, now)) {
      releaseIntent(dir, claimed, intent.record.id);
      resolution.pending.push(intent);
      continue;
    }
    const record: AuditRecord = { ...intent.record, ...completion, checked: new Date(now).toISOString() };
    await write(context, [record]);
    removeIntent(claimed);
    count(resolution, intent, record);
  }
  return resolution;
}

/** `1 change from an interrupted run was checked: applied`; `3 changes from interrupted runs were checked: 2 applied, 1 not applied`. */
export function resolutionNotice(resolution: Resolution): string | undefined {
  const entries = Object.entries(resolution.counts);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return undefined;
  const how = total === 1 ? (entries[0] as [string, number])[0] : entries.map(([label, count]) => `${count} ${label}`).join(', ');
  return `${plural(total, 'change')} from ${total === 1 ? 'an interrupted run was' : 'interrupted runs were'} checked: ${how}`;
}

/** `1 change from an interrupted run is still in flight on the server and will be checked later (in at most 42 s)`. */
export function pendingNotice(resolution: Resolution, now = Date.now()): string | undefined {
  const { pending } = resolution;
  if (pending.length === 0) return undefined;
  const latest = Math.max(...pending.map((intent) => Date.parse(intent.deadline as string)));
  const one = pending.length === 1;
  return `${plural(pending.length, 'change')} from ${one ? 'an interrupted run is' : 'interrupted runs are'} still in flight on the server `
    + `and will be checked later (by a command run in ${Math.ceil((latest - now) / 1000)} s or more); until then ${one ? 'it is' : 'they are'} pending, not recorded`;
}

/** What a renewal stopped halfway lost, and the command that gives it back. */
export function halfRenewalWarning(record: AuditRecord): string {
  const before = record.before ?? {};
  const what = ['accession', 'expiration'].map((field) => `${field} ${String(before[`${field}_date`] ?? 'none').slice(0, 10)}`).join(', ');
  const status = typeof before.status === 'string' ? `, status ${before.status}` : '';
  return `change ${record.id} (renewing product ${record.product_id} of ${record.student ?? record.student_id}) was interrupted between its revoke and its grant: `
    + `the student no longer has the subscription (${what}${status}); \`members undo ${record.id}\` grants it again with those dates`;
}

/** The same id, both known. */
const idsMatch = (a: unknown, b: unknown) => a != null && String(a) === String(b);

/**
 * Whether the state found is another change's doing, recorded since the
 * intent was written: the same kind of change to the same student and
 * product, which made the very subscription (or student) found (`after.id`),
 * or removed the very one the intent meant to remove (`before.id`). A run
 * that did again what an interrupted one left pending (a re-run of the same
 * file) is then the one that applied it; the interrupted change was not.
 */
export async function doneByLater(dir: string, intent: Intent, completion: Completion): Promise<boolean> {
  const doneBy = laterDoer(intent, completion);
  for await (const line of logLines(auditLogPath(dir), intent.log_offset)) {
    let other: AuditRecord;
    try {
      other = JSON.parse(line.text) as AuditRecord;
    } catch {
      continue; // a torn line (a full disk): no change of anyone's
    }
    if (doneBy(other)) return true;
  }
  return false;
}

/** Whether a record other than the intent's own outcome did what the check found done (doneByLater). */
function laterDoer(intent: Intent, completion: Completion): (other: AuditRecord) => boolean {
  const { record } = intent;
  const studentId = completion.student_id ?? record.student_id;
  const made = completion.after?.id;
  return (other) => other.id !== record.id && other.student_id === studentId && other.product_id === record.product_id && checkFor(other) === checkFor(record)
    && (made != null ? idsMatch(other.after?.id, made) : idsMatch(other.before?.id, record.before?.id));
}

/**
 * The team record's intents (audit/postgres-record.ts), checked as
 * resolveInterrupted checks the files: from any machine. An intent of a
 * process of this machine is orphaned once that process is gone; another
 * machine's, once its deadline has passed (its requests can no longer be on
 * their way, and a live run would have recorded the outcome). A claim is a
 * row update, so of two machines one checks it.
 */
export async function resolveTeamIntents(context: AuditContext, client: Api, rows: IntentRows, now = Date.now()): Promise<Resolution> {
  const resolution: Resolution = { counts: {}, halves: [], pending: [] };
  const here = auditBaseUrl((await context.settings()).baseUrl);
  const host = hostname();
  const { pid: self = 0, isRunning = () => false } = context.io;
  const orphan = (intent: Intent) => (intent.host === host ? intent.pid !== self && !isRunning(intent.pid) : now > Date.parse(intent.deadline ?? intent.record.time));
  for (const intent of await rows.list()) {
    const { id } = intent.record;
    if (intent.record.base_url !== here || !orphan(intent) || !await rows.claim(id, `${host}:${self}`)) continue;
    if (await rows.recorded(id)) {
      await rows.remove(id);
      continue;
    }
    let completion: Completion;
    try {
      completion = await checkFor(intent.record)(client, intent.record);
    } catch {
      await rows.release(id);
      continue;
    }
    if (completion.result === undefined && (await rows.since(intent.record.time)).some(laterDoer(intent, completion))) completion = NOT_APPLIED;
    else if (mayBeInFlight(intent, completion, now)) {
      await rows.release(id);
      resolution.pending.push(intent);
      continue;
    }
    const record: AuditRecord = { ...intent.record, ...completion, checked: new Date(now).toISOString() };
    await write(context, [record]);
    await rows.remove(id);
    count(resolution, intent, record);
  }
  return resolution;
}

/** Counts a checked change by how it turned out. */
function count(resolution: Resolution, intent: Intent, record: AuditRecord): void {
  const label = record.result === intent.record.result ? 'applied' : record.result === 'revoked' ? 'half applied' : record.result;
  resolution.counts[label] = (resolution.counts[label] ?? 0) + 1;
  if (label === 'half applied') resolution.halves.push(record);
}

/**
 * Whether the log holds a record `id` after `offset`: the outcome was written
 * but the run ended before it removed the intent.
 */
export async function recordedSince(dir: string, id: string, offset: number): Promise<boolean> {
  for await (const line of logLines(auditLogPath(dir), offset)) if (line.text.startsWith(`{"id":${JSON.stringify(id)},`)) return true;
  return false;
}
