/**
 * Recording changes in the audit log from a command: who (OS user), where
 * (profile, base URL) and when are filled in here. A failed write never hides
 * the change: the record goes to stderr instead and the command keeps its
 * exit code.
 */
import os from 'node:os';
import type { Student, Subscription } from '../api/endpoints/schemas.js';
import { auditLogPath } from '../config/paths.js';
import type { Io } from '../lib/io.js';
import type { Settings } from '../config/settings.js';
import { appendAudit, newAuditId, type AuditEntry, type AuditRecord, type Snapshot } from './log.js';

export * from './log.js';

/** The OS user; some containers run under a uid without a name. */
export function osUser(env: Record<string, string | undefined>): string {
  try {
    return os.userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || env.USERNAME || `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** The base URL as recorded and compared: no credentials, query, fragment or trailing slash. */
export function auditBaseUrl(raw: string | undefined): string {
  if (!raw) return '';
  try {
    const url = new URL(raw);
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.origin}${path}`;
  } catch {
    return '';
  }
}

/** Replaces every occurrence of a secret in the strings of `value` with `***` (a token pasted into --reason). */
function scrub<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return secrets.reduce((text: string, secret) => text.split(secret).join('***'), value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrub(item, secrets)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, secrets)])) as T;
  }
  return value;
}

/** What recording needs of a run: who and where it works, and where the log lives (a Session fits). */
export interface AuditContext {
  io: Pick<Io, 'env' | 'stderr'>;
  settings(): Promise<Pick<Settings, 'profile' | 'baseUrl' | 'token' | 'developerToken' | 'platformToken'>>;
  configDir(): Promise<string>;
}

/** Who, where and when, for records made now by this run. */
async function stamper(session: AuditContext): Promise<(entry: AuditEntry, id?: string) => AuditRecord> {
  let profile = '';
  let baseUrl = '';
  let secrets: string[] = [];
  try {
    const settings = await session.settings();
    profile = settings.profile;
    baseUrl = auditBaseUrl(settings.baseUrl);
    secrets = [settings.token, settings.developerToken, settings.platformToken].filter((s): s is string => Boolean(s && s.length >= 4));
  } catch {
    // Settings were resolved before the change was sent; this cannot fail twice. Record what we have.
  }
  const user = osUser(session.io.env);
  return (entry, id = newAuditId()) => scrub({
    id, time: new Date().toISOString(), user, profile, base_url: baseUrl, ...entry,
  }, secrets);
}

/**
 * Appends records; on failure says so on stderr, with the records
 * themselves (they hold no secret), even with --quiet: they exist nowhere else.
 */
async function write(session: AuditContext, records: AuditRecord[]): Promise<void> {
  let dir = '';
  try {
    dir = await session.configDir();
    appendAudit(dir, records);
  } catch (error) {
    const where = dir ? auditLogPath(dir) : 'the audit log';
    const { stderr } = session.io;
    stderr.write(`warning: the change was made, but it could not be recorded in ${where}: ${(error as Error).message}\n`);
    for (const record of records) stderr.write(`warning: audit record: ${JSON.stringify(record)}\n`);
  }
}

/** Records one change; resolves to its audit id (also when the write failed: the record was then printed). */
export async function recordChange(session: AuditContext, entry: AuditEntry): Promise<string> {
  const record = (await stamper(session))(entry);
  await write(session, [record]);
  return record.id;
}

/** What undo needs of a subscription: to re-grant it after a revoke, or to check it before revoking a grant. */
export function subscriptionSnapshot(subscription: Subscription): Snapshot {
  return {
    id: subscription.id ?? null,
    product_id: subscription.product_id,
    accession_date: subscription.accession_date ?? null,
    expiration_date: subscription.expiration_date ?? null,
    status: subscription.status ?? null,
    active: subscription.active ?? null,
  };
}

/** What undo needs to create a deleted student again. */
export function studentSnapshot(student: Student): Snapshot {
  return {
    id: student.id,
    first_name: student.first_name ?? null,
    last_name: student.last_name ?? null,
    email: student.email ?? null,
    phone: student.phone ?? null,
    birth: student.birth ?? null,
    document: student.document ?? null,
    reference_id: student.reference_id ?? null,
  };
}

/** One row of a bulk run, as the bulk commands report it (their BulkRowOutcome fits). */
export interface BulkRowOutcome {
  /** The row's line in the file, the header being line 1. */
  line: number;
  student: string;
  student_id?: string;
  /** Empty for `students import` rows. */
  product_id?: string;
  /** Only `granted`, `revoked`, `renewed` and `created` are changes; the others are not recorded. */
  result: string;
  requestId?: string;
  /** granted: the new subscription; revoked: the one removed (here, or in `change`, the grant/revoke core's outcome). */
  subscription?: Subscription;
  change?: { subscription?: Subscription; replaced?: Subscription };
  /** Rows of a dry run are never recorded. */
  dryRun?: boolean;
}

/** A bulk run as the bulk commands report it (their BulkReport fits). */
export interface BulkRun {
  /** `students grant`, `students revoke`, `students import`. */
  command: string;
  /** The file as given, or `stdin`. */
  source?: string;
  reason?: string;
  dryRun?: boolean;
  outcomes: readonly BulkRowOutcome[];
  /** `counts`: rows by result, e.g. `{ granted: 3, skipped: 1, failed: 0 }`, kept as the run record's `counts`. */
  summary: { counts: Readonly<Record<string, number>>; interrupted?: boolean };
}

const ROW_ACTIONS: Record<string, AuditEntry['action']> = { granted: 'grant', revoked: 'revoke', renewed: 'renew', created: 'create' };

/** `students grant --file`: the bulk forms of grant and revoke, as the contract writes them. */
const bulkCommand = (command: string) => (command === 'students grant' || command === 'students revoke' ? `${command} --file` : command);

export interface BulkRecorder {
  /** Records one row as soon as it is applied (a row that changed nothing, or a dry run's, is not recorded). */
  row(outcome: BulkRowOutcome): Promise<void>;
  /** Records the run itself, if any row was recorded; resolves to the run's audit id. */
  finish(summary: BulkRun['summary']): Promise<string | undefined>;
}

/**
 * A bulk run's records, written as the rows are applied: a run killed
 * halfway (SIGKILL, a power cut) leaves every applied row in the log, so
 * that history, undo and the next run's `skipped` agree with the server.
 */
export async function bulkRecorder(session: AuditContext, run: Omit<BulkRun, 'outcomes' | 'summary'>): Promise<BulkRecorder> {
  const stamp = await stamper(session);
  const runId = newAuditId();
  const command = bulkCommand(run.command);
  let recorded = 0;
  return {
    async row(outcome) {
      const action = ROW_ACTIONS[outcome.result];
      if (run.dryRun || outcome.dryRun || action === undefined) return;
      const subscription = outcome.subscription ?? outcome.change?.subscription;
      const snapshot = subscription ? subscriptionSnapshot(subscription) : undefined;
      recorded++;
      await write(session, [stamp({
        command, action, student: outcome.student, student_id: outcome.student_id, product_id: outcome.product_id || undefined,
        result: outcome.result, request_id: outcome.requestId, reason: run.reason, run_id: runId, line: outcome.line,
        before: action === 'revoke' ? snapshot : outcome.change?.replaced ? subscriptionSnapshot(outcome.change.replaced) : undefined,
        after: action === 'grant' || action === 'renew' ? snapshot : undefined,
      })]);
    },
    async finish(summary) {
      if (recorded === 0) return undefined;
      const failed = summary.counts.failed ?? 0;
      const result = summary.interrupted ? 'interrupted' : failed > 0 ? 'partial' : 'completed';
      await write(session, [stamp({ command, action: 'bulk', result, reason: run.reason, source: run.source, counts: { ...summary.counts } }, runId)]);
      return runId;
    },
  };
}
