/**
 * The local audit trail (contract §8.1): `audit.jsonl` in the config
 * directory, one JSON record per line, mode 0600.
 *
 * Concurrent runs never interleave or lose lines: the file is opened with
 * O_APPEND and each record goes out in ONE write(2) of less than 4 KiB (POSIX
 * makes such an append atomic on a regular file). Reading is tolerant: a torn
 * or invalid line is skipped and reported, never fatal.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, createReadStream, fchmodSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import * as z from 'zod';
import { acquireFileLock, type LockOptions } from '../config/lock.js';
import { auditLockPath, auditLogPath } from '../config/paths.js';

export const AUDIT_ACTIONS = ['create', 'delete', 'grant', 'revoke', 'renew', 'scores.set', 'magic-link', 'bulk', 'undo', 'forget', 'lock.break'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A flat picture of a resource: what undo needs to restore or to check it. */
export type Snapshot = Record<string, string | number | boolean | null>;

/** What a command knows of its change; the journal adds who, when and where (stamp.ts). */
export interface AuditEntry {
  /** `students grant`, `students grant --file`, `undo`… */
  command: string;
  action: AuditAction;
  /** The STUDENT as given (an id, an e-mail, doc:…, ref:…, or a CSV cell). */
  student?: string;
  /** Its resolved id, when known. */
  student_id?: string;
  product_id?: string;
  /**
   * `granted`, `revoked`, `renewed`, `created`, `deleted`, `updated`; `not applied` (an interrupted change the
   * server never applied), `unknown` (one that cannot be checked: a magic link); for a bulk run `completed`,
   * `partial`, `interrupted`.
   */
  result: string;
  /** The server's X-Request-Id of the change, if it sent one. */
  request_id?: string;
  reason?: string;
  /** `mcp`: made through an assistant (members mcp), confirmed by a person in the client's form. */
  via?: 'mcp';
  /** With `via`: the assistant's client as it named itself (`Claude Desktop 1.2.3`). */
  client?: string;
  /** Undo: the id of the record it reverses. */
  undoes?: string;
  /** Bulk rows: the id of the run record, and the row's line in the file. */
  run_id?: string;
  line?: number;
  /** Bulk run: the file as given, or `stdin`. */
  source?: string;
  /** Bulk run: rows by result. */
  counts?: Record<string, number>;
  /** Revoke: the subscription as it was; delete: the student's fields. */
  before?: Snapshot;
  /** Grant: the subscription created. */
  after?: Snapshot;
  /** scores set: the new score. */
  score?: number;
  /** magic-link: the life of the link in seconds (never the URL: it is a credential). */
  expire_in?: number;
  /**
   * When the run that made the change ended before it could record the
   * outcome (a kill, a crash), the time a later run checked it on the server
   * (journal.ts, resolve.ts).
   */
  checked?: string;
  /**
   * The personal data of a student erased from this record (forget.ts): when,
   * and which fields (`student`, `before.email`, `reason`…) lost it.
   */
  forgotten?: { at: string; fields: string[] };
}

export interface AuditRecord extends AuditEntry {
  /** Unique and short: usable as `members undo ID`. */
  id: string;
  /** ISO 8601, UTC. */
  time: string;
  /** The OS user who ran the command. */
  user: string;
  /** The machine it ran on (a team record holds the changes of every machine). Records written before issue 36 have none. */
  host?: string;
  profile: string;
  base_url: string;
}

/** Under PIPE_BUF (4096) with the newline: an append of this size is one atomic write. */
export const MAX_RECORD_BYTES = 4000;
/** A longer --reason is cut to this many characters, with `…`. */
export const MAX_REASON_CHARS = 1000;

/** `m5k2x1ab-3f9c2e4d7a01`: milliseconds in base 36 (sorts by time until 2059), then 48 random bits (unique among the ids of one millisecond). */
export function newAuditId(now: number = Date.now()): string {
  return `${now.toString(36).padStart(8, '0')}-${randomBytes(6).toString('hex')}`;
}

/** The order of the keys in a line, so that the log reads the same way throughout. */
const KEY_ORDER: ReadonlyArray<keyof AuditRecord> = [
  'id', 'time', 'user', 'host', 'profile', 'base_url', 'command', 'action', 'student', 'student_id', 'product_id', 'result',
  'request_id', 'reason', 'via', 'client', 'undoes', 'run_id', 'line', 'source', 'counts', 'score', 'expire_in', 'checked', 'forgotten', 'before', 'after',
];

function ordered(record: AuditRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

const cut = (text: string, chars: number) => {
  const points = [...text];
  return points.length <= chars ? text : `${points.slice(0, Math.max(chars - 1, 0)).join('')}…`;
};

/**
 * One record as one line (with its newline) of at most MAX_RECORD_BYTES:
 * the reason is cut to MAX_REASON_CHARS, then the longest strings are halved
 * until the line fits.
 */
export function auditLine(record: AuditRecord): string {
  const out = structuredClone(ordered(record));
  if (typeof out.reason === 'string') out.reason = cut(out.reason, MAX_REASON_CHARS);
  for (;;) {
    const line = `${JSON.stringify(out)}\n`;
    if (Buffer.byteLength(line) <= MAX_RECORD_BYTES) return line;
    const longest = longestString(out);
    if (!longest || longest.length <= 16) throw new Error(`audit record ${record.id} does not fit in ${MAX_RECORD_BYTES} bytes`);
    longest.holder[longest.key] = cut(longest.value, Math.floor(longest.length / 2));
  }
}

function longestString(object: Record<string, unknown>): { holder: Record<string, unknown>; key: string; value: string; length: number } | undefined {
  let best: ReturnType<typeof longestString>;
  const visit = (holder: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(holder)) {
      // The identity of the record stays whole.
      if (holder === object && ['id', 'time', 'action', 'undoes', 'run_id'].includes(key)) continue;
      if (typeof value === 'string') {
        const length = [...value].length;
        if (!best || length > best.length) best = { holder, key, value, length };
      } else if (value && typeof value === 'object' && !Array.isArray(value)) {
        visit(value as Record<string, unknown>);
      }
    }
  };
  visit(object);
  return best;
}

/**
 * The audit log's lock: an append holds it for microseconds, a rewrite
 * (forget.ts) for as long as it reads and writes the log, refreshing it
 * meanwhile; a waiter outlasts a lock left by a crash.
 */
export const AUDIT_LOCK: LockOptions = { timeoutMs: 20_000, staleMs: 10_000, guards: 'the audit log' };

/**
 * Appends records to `audit.jsonl` in `dir`, one write(2) per record on one
 * O_APPEND descriptor, under the log's lock (a rewrite replaces the file:
 * an append to the old one would be lost). The directory is created 0700 and
 * the file 0600, whatever the umask; a file found looser is tightened before
 * anything is written to it. Throws on any failure (the caller decides what to say).
 */
export function appendAudit(dir: string, records: AuditRecord | readonly AuditRecord[]): void {
  const list = Array.isArray(records) ? records : [records as AuditRecord];
  if (list.length === 0) return;
  const lines = list.map(auditLine);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = acquireFileLock(auditLockPath(dir), AUDIT_LOCK);
  try {
    appendLines(auditLogPath(dir), lines);
  } finally {
    lock.release();
  }
}

/** The lines, each in one write(2), to the end of the file at `path` (created 0600). */
export function appendLines(path: string, lines: readonly string[]): void {
  // O_NOFOLLOW: a log replaced by a symlink is refused (ELOOP), never followed and its target chmod'ed.
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if ((fstatSync(fd).mode & 0o777) !== 0o600) fchmodSync(fd, 0o600);
    for (const line of lines) {
      const bytes = Buffer.from(line);
      const written = writeSync(fd, bytes);
      if (written !== bytes.length) throw new Error(`short write to ${path} (${written} of ${bytes.length} bytes)`);
    }
  } finally {
    closeSync(fd);
  }
}

const RecordShape = z.looseObject({
  id: z.string().min(1),
  time: z.string().min(1),
  command: z.string(),
  action: z.string(),
  result: z.string(),
});

/** A line that is not a record; `line` counts from 1. */
export interface SkippedLine {
  line: number;
  text: string;
}

function parseRecord(text: string): AuditRecord | undefined {
  try {
    const parsed = RecordShape.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as unknown as AuditRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** A whole record after a torn one on the same line: the first tail that parses (a nested `{"id":` does not), and where it starts. */
function rescue(text: string): { record: AuditRecord; at: number } | undefined {
  for (let at = text.indexOf('{"id":', 1); at > 0; at = text.indexOf('{"id":', at + 1)) {
    const record = parseRecord(text.slice(at));
    if (record) return { record, at };
  }
  return undefined;
}

/** Where a record lies in `audit.jsonl`: bytes, so that it can be read again alone. */
export interface AuditPosition {
  offset: number;
  length: number;
}

/** A record and where it lies. */
export interface LocatedRecord {
  record: AuditRecord;
  at: AuditPosition;
}

/**
 * The records of `audit.jsonl` in `dir`, in file order; nothing when there is
 * no log yet. A line that is not a record (a write cut short by a full disk,
 * a hand edit) is reported to `onSkip` and skipped; when a torn line was
 * followed by a whole record on the same line, that record is kept.
 */
export async function* readAudit(dir: string, onSkip: (skipped: SkippedLine) => void = () => undefined): AsyncGenerator<AuditRecord> {
  for await (const { record } of readLocatedAudit(dir, onSkip)) yield record;
}

/** readAudit, with where each record lies (a history of a 100 MB log holds positions, not records). */
export async function* readLocatedAudit(dir: string, onSkip: (skipped: SkippedLine) => void = () => undefined): AsyncGenerator<LocatedRecord> {
  let number = 0;
  for await (const { text, offset } of logLines(auditLogPath(dir))) {
    number++;
    if (text.trim() === '') continue;
    const record = parseRecord(text);
    if (record) {
      yield { record, at: { offset, length: Buffer.byteLength(text) } };
      continue;
    }
    onSkip({ line: number, text });
    const rescued = rescue(text);
    if (rescued) {
      const skipped = Buffer.byteLength(text.slice(0, rescued.at));
      yield { record: rescued.record, at: { offset: offset + skipped, length: Buffer.byteLength(text) - skipped } };
    }
  }
}

/** The lines of a file (LF or CRLF) from byte `start`, with the byte offset where each starts; none when there is no file. */
export async function* logLines(path: string, start = 0): AsyncGenerator<{ text: string; offset: number }> {
  const stream = createReadStream(path, { start });
  const opened = new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!(await opened)) return;
  let carry = Buffer.alloc(0);
  let base = start;
  const line = (bytes: Buffer, offset: number) => ({ text: bytes.toString('utf8').replace(/\r$/, ''), offset });
  try {
    for await (const chunk of stream) {
      const buffer = carry.length === 0 ? (chunk as Buffer) : Buffer.concat([carry, chunk as Buffer]);
      let start = 0;
      for (let end = buffer.indexOf(LF); end !== -1; end = buffer.indexOf(LF, start)) {
        yield line(buffer.subarray(start, end), base + start);
        start = end + 1;
      }
      carry = Buffer.from(buffer.subarray(start));
      base += start;
    }
    if (carry.length > 0) yield line(carry, base);
  } finally {
    stream.destroy();
  }
}

const LF = 0x0a;

/**
 * The records at `positions`, in that order, read one by one: what a history
 * prints, without holding the log. The log only grows, so a position stays
 * true; one that no longer holds a record is left out. A record held already
 * (a run derived from its changes, runs.ts) is given as it is.
 */
export async function* readAuditAt(dir: string, positions: Iterable<AuditPosition | AuditRecord>): AsyncGenerator<AuditRecord> {
  let fd: number;
  try {
    fd = openSync(auditLogPath(dir), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    for (const position of positions) {
      if ('id' in position) {
        yield position;
        continue;
      }
      const { offset, length } = position;
      const bytes = Buffer.alloc(length);
      const read = readSync(fd, bytes, 0, length, offset);
      const record = parseRecord(bytes.subarray(0, read).toString('utf8'));
      if (record) yield record;
    }
  } finally {
    closeSync(fd);
  }
}

/** The log as a source that can be read again from the start; lines that are not records are reported on the first reading only. */
export function auditSource(dir: string, onSkip: (skipped: SkippedLine) => void): () => AsyncGenerator<AuditRecord> {
  let readings = 0;
  return () => readAudit(dir, readings++ === 0 ? onSkip : undefined);
}

/** auditSource, with where each record lies. */
export function locatedAuditSource(dir: string, onSkip: (skipped: SkippedLine) => void): () => AsyncGenerator<LocatedRecord> {
  let readings = 0;
  return () => readLocatedAudit(dir, readings++ === 0 ? onSkip : undefined);
}

/** Every record, in file order. */
export async function readAllAudit(dir: string, onSkip?: (skipped: SkippedLine) => void): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  for await (const record of readAudit(dir, onSkip)) records.push(record);
  return records;
}
