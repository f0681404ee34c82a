/**
 * Who (OS user), where (profile, base URL) and when, for the records a run
 * makes; and the one writer of finished records, which never hides a change:
 * a failed write puts the record on stderr instead.
 */
import os from 'node:os';
import { auditLogPath } from '../config/paths.js';
import type { GlobalOptions, Io } from '../lib/io.js';
import type { Settings } from '../config/settings.js';
import { appendAudit, newAuditId, type AuditEntry, type AuditRecord } from './log.js';
import type { ChangeRecord } from './record.js';

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
  io: Pick<Io, 'env' | 'stderr' | 'pid' | 'isRunning'>;
  /** --timeout and --retries: how long a request may be on its way (an intent's deadline); none, the defaults. */
  readonly globals?: Pick<GlobalOptions, 'timeoutMs' | 'retries'>;
  /** The signal handling of the command in progress, told when a change begins and ends (journal.ts). */
  readonly gate?: ChangeGate;
  settings(): Promise<Pick<Settings, 'profile' | 'baseUrl' | 'token' | 'developerToken' | 'platformToken'>>;
  configDir(): Promise<string>;
  /** The change record in force (a Session's); none: the local files of configDir. */
  changeRecord?(): Promise<ChangeRecord>;
}

/** The team record a run writes to, when the profile uses one; undefined for the local files. */
export async function teamRecord(context: AuditContext): Promise<ChangeRecord | undefined> {
  const record = await context.changeRecord?.();
  return record?.home === 'local' ? undefined : record;
}

/** Stamps an entry: a new id and the time now, unless given (an intent's outcome keeps the intent's). */
export type Stamp = (entry: AuditEntry, id?: string, time?: string) => AuditRecord;

/**
 * What a command's signal handling (Session.guarded) needs to know: a change
 * is in flight from `opening` to `closed`, and after Ctrl-C no new change
 * may open (`opening` throws), unless it repairs one that failed.
 */
export interface ChangeGate {
  opening(repair: boolean): void;
  closed(): void;
}

/** Who, where and when, for records made by this run. */
export async function stamper(session: AuditContext): Promise<Stamp> {
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
  const host = os.hostname();
  return (entry, id = newAuditId(), time = new Date().toISOString()) => scrub({
    id, time, user, host, profile, base_url: baseUrl, ...entry,
  }, secrets);
}

/**
 * Appends records; on failure says so on stderr, with the records
 * themselves (they hold no secret), even with --quiet: they exist nowhere else.
 * A team record that cannot be written also throws (RecordUnavailableError,
 * exit 11): no further change may be sent.
 */
export async function write(session: AuditContext, records: AuditRecord[]): Promise<void> {
  const team = await teamRecord(session);
  if (team) {
    try {
      await team.append(records);
    } catch (error) {
      // Never a silent fallback to a local file: the run stops (exit 11), and the records are on stderr meanwhile.
      for (const record of records) session.io.stderr.write(`warning: audit record not written to ${team.name}: ${JSON.stringify(record)}\n`);
      throw error;
    }
    return;
  }
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

