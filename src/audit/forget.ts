/**
 * Erasure means erasure (LGPD, issue 30): once a student is deleted, this
 * machine's audit log keeps no personal data of theirs — name, e-mail,
 * phone, birth, document, reference. Ids, actions, times and reasons stay
 * (a reason loses only the personal values it quotes), and each record that
 * lost something says so in `forgotten`.
 *
 * The log is rewritten into a temporary file beside it, flushed, then renamed
 * over it, under the log's lock (log.ts appends under it too): a reader sees
 * the old log or the new one, an interruption leaves the old one whole, and
 * no append made meanwhile is lost. The intents of changes in flight
 * (intents.ts) hold records too: those of runs that are gone are rewritten
 * first (claimed, so that no run checks one meanwhile); those of a run still
 * going are left, and counted, for a later forget.
 */
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { acquireFileLock, type HeldLock } from '../config/lock.js';
import { auditLockPath, auditLogPath } from '../config/paths.js';
import { openAtomicFile } from '../lib/atomic-file.js';
import { AUDIT_LOCK, auditLine, logLines, type AuditEntry, type AuditRecord, type Snapshot } from './log.js';
import { claimIntent, listIntents, replaceClaimedIntent, type FoundIntent, type Intent } from './intents.js';
import { aliasesOf } from './select.js';
import { stamper, type AuditContext } from './stamp.js';

/** The fields of a student's record that are personal data (api-spec §2.1): the student snapshots of create and delete hold them. */
export const PERSONAL_FIELDS = ['name', 'first_name', 'last_name', 'full_name', 'email', 'phone', 'birth', 'document', 'reference_id'] as const;

/** Fields that name things, never people: a personal value is never looked for in them. */
const STRUCTURAL = new Set([
  'id', 'time', 'user', 'profile', 'base_url', 'command', 'action', 'student_id', 'product_id', 'result', 'request_id', 'undoes', 'run_id',
  'checked', 'forgotten', 'accession_date', 'expiration_date', 'status',
]);

/** What is written instead of a personal value quoted in free text. */
export const FORGOTTEN_TEXT = '[forgotten]';

/**
 * Shorter values are erased only where they stand whole (a `student` key):
 * quoted in a reason, four digits of a phone could be anything.
 */
const MIN_QUOTED = 6;

/** A student to forget: its ids, the keys changes named it by, and the personal values to erase from free text. */
export class Person {
  /** Its id, and those it had before an undo created it again (a delete undone, a transfer's source). */
  private readonly ids = new Set<string>();
  /** `student` as given, as history compares it (e-mails without case). */
  private readonly keys = new Set<string>();
  /** Erased wherever they are quoted. */
  private readonly values = new Set<string>();
  /** Erased as whole words, in the records about the person only: a first name or a date could be anyone's elsewhere. */
  private readonly own = new Set<string>();

  constructor(readonly id: string) {
    this.ids.add(id);
  }

  /** The student's id, or one it had before it was created again. */
  is(id: string | undefined): boolean {
    return id !== undefined && this.ids.has(id);
  }

  /** Learns from a record of the student (a snapshot of it: create, delete; a key it was named by), and the id it had then. */
  learn(record: Pick<AuditRecord, 'student' | 'student_id' | 'before' | 'after'>): void {
    if (record.student_id !== undefined) this.ids.add(record.student_id);
    if (record.student !== undefined && !this.ids.has(record.student)) this.addKey(record.student);
    for (const snapshot of [record.before, record.after]) if (snapshot && holdsPerson(snapshot)) this.learnSnapshot(snapshot);
  }

  /** Learns from the student as the server sent it, or as a record's snapshot kept it. */
  learnSnapshot(student: Partial<Record<(typeof PERSONAL_FIELDS)[number], unknown>>): void {
    const email = text(student.email);
    const document = text(student.document);
    const reference = text(student.reference_id);
    for (const alias of aliasesOf({ id: this.id, email, document, reference_id: reference })) if (!this.ids.has(alias)) this.addKey(alias);
    const first = text(student.first_name);
    const last = text(student.last_name);
    const names = [text(student.full_name), text(student.name), first && last ? `${first} ${last}` : undefined];
    for (const value of [email, document, document?.replace(/\D/g, ''), reference, text(student.phone), ...names]) {
      if (value !== undefined && value.length >= MIN_QUOTED) this.values.add(value);
    }
    for (const value of [first, last, text(student.birth), ...names]) if (value !== undefined && value.length >= 2) this.own.add(value);
  }

  /** The record names this student: by an id it had, by a key it was known by, or by a snapshot of it. */
  isAbout(record: AuditRecord): boolean {
    if (this.is(record.student_id)) return true;
    if (this.holdsSnapshotOf(record)) return true;
    return record.student_id === undefined && record.student !== undefined && this.keys.has(keyOf(record.student));
  }

  /**
   * A snapshot with the student's e-mail or document is the student, whatever
   * id it had then: a delete undone creates it again under a new one.
   */
  holdsSnapshotOf(record: Pick<AuditRecord, 'before' | 'after'>): boolean {
    return [record.before, record.after].some((snapshot) => snapshot !== undefined && holdsPerson(snapshot)
      && [snapshot.email, snapshot.document].some((value) => typeof value === 'string' && value.trim() !== '' && this.keys.has(keyOf(value))));
  }

  /**
   * `text` with every personal value it quotes replaced (e-mails whatever
   * their case); in a record about the person, its names and birth too, and
   * anything shaped like an e-mail, a CPF or a phone (whoever's: the one who
   * asked for the erasure is often named beside the person).
   */
  erase(text: string, about = false): string {
    let out = text;
    for (const value of this.values) out = out.replace(new RegExp(escape(value), value.includes('@') ? 'gi' : 'g'), FORGOTTEN_TEXT);
    if (!about) return out;
    for (const value of this.own) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}])`, 'giu'), FORGOTTEN_TEXT);
    return erasePatterns(out);
  }

  /** A key is quoted too: `doc:070.692.055-46` in a reason is the document. */
  private addKey(key: string): void {
    this.keys.add(keyOf(key));
    const value = key.trim().replace(/^(doc|ref):/, '');
    if (value.length >= MIN_QUOTED) this.values.add(value);
  }
}

/** E-mails; CPFs (`070.692.055-46`, `07069205546`); phones (`+55 (11) 91234-5678`, `11 3456-7890`): eight digits or more, with their separators. */
const PERSONAL_PATTERNS = [
  /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/giu,
  /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g,
  /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,3}\)[\s.-]?|(?<!\d)\d{2,3}[\s.-])?\d{4,5}[\s.-]?\d{4}(?!\d)/g,
];

/** `text` with every e-mail, CPF and phone it holds replaced, whoever's they are. */
export const erasePatterns = (text: string) => PERSONAL_PATTERNS.reduce((out, pattern) => out.replace(pattern, FORGOTTEN_TEXT), text);

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const keyOf = (student: string) => (student.includes('@') ? student.trim().toLowerCase() : student.trim());

/** A snapshot of a student (create's `after`, delete's `before`), not of a subscription or a score. */
const holdsPerson = (snapshot: Snapshot) => PERSONAL_FIELDS.some((field) => snapshot[field] !== undefined);

/**
 * The record with the person's data erased, and a `forgotten` marker naming
 * what was; undefined when it held none. In a record about the person every
 * personal field goes, in its snapshots and whatever they nest; in any record
 * the free text loses the values it quotes.
 */
export function forgetRecord(record: AuditRecord, person: Person, at: string): AuditRecord | undefined {
  const fields: string[] = [];
  const out: AuditRecord = structuredClone(record);
  const about = person.isAbout(record);
  if (about && out.student !== undefined && !person.is(out.student)) {
    delete out.student;
    fields.push('student');
  }
  scrub(out as unknown as Record<string, unknown>, person, about, '', fields);
  if (fields.length === 0) return undefined;
  const earlier = record.forgotten?.fields ?? [];
  out.forgotten = { at, fields: [...new Set([...earlier, ...fields])] };
  return out;
}

/** Erases the person's data from `holder` and the objects it nests: personal fields of a record about them, quoted values from free text. */
function scrub(holder: Record<string, unknown>, person: Person, about: boolean, prefix: string, fields: string[]): void {
  const path = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const nested = prefix !== '';
  for (const [key, value] of Object.entries(holder)) {
    if (about && nested && (PERSONAL_FIELDS as readonly string[]).includes(key)) {
      if (value === undefined || value === null) continue;
      delete holder[key];
      fields.push(path(key));
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (key !== 'forgotten') scrub(value as Record<string, unknown>, person, about, path(key), fields);
    } else if (typeof value === 'string' && !STRUCTURAL.has(key) && !person.is(value)) {
      const erased = person.erase(value, about);
      if (erased === value) continue;
      holder[key] = erased;
      fields.push(path(key));
    }
  }
}

export interface ForgetOptions {
  /** The command that forgets (`students delete --forget`, `history --forget`), for its own record. */
  command: string;
  reason?: string;
  /** The student as the server sent it before it was deleted: keys and values the log may not hold. */
  known?: Partial<Record<(typeof PERSONAL_FIELDS)[number], unknown>>;
}

export interface ForgetOutcome {
  /** Records of the log that held the person's data, now without it. */
  records: number;
  /** Intents of interrupted changes rewritten. */
  intents: number;
  /** Intents of runs still going that name the person: not rewritten (forget again once they end). */
  inFlight: number;
  /** The forget's own record, when anything was erased. */
  id?: string;
}

/**
 * Erases the personal data of student `id` from the audit log and the
 * intents of `context`'s config directory, and records that it did
 * (`action: forget`, with `counts`). Nothing found: nothing is written.
 */
export async function forgetStudent(context: AuditContext, id: string, options: ForgetOptions): Promise<ForgetOutcome> {
  const dir = await context.configDir();
  const stamp = await stamper(context);
  const at = new Date().toISOString();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = acquireFileLock(auditLockPath(dir), AUDIT_LOCK);
  try {
    const person = new Person(id);
    if (options.known) person.learnSnapshot(options.known);
    const found = listIntents(dir);
    for (const { intent } of found) if (intent && intent.record.student_id === id) person.learn(intent.record);
    await learnFromLog(dir, person, lock);
    const outcome: ForgetOutcome = { records: 0, ...forgetIntents(dir, found, person, context, at) };
    const log = await openAtomicFile(auditLogPath(dir));
    try {
      outcome.records = await rewriteLog(dir, person, at, log.write, lock);
      if (outcome.records + outcome.intents === 0) {
        await log.discard();
        return outcome;
      }
      const record = stamp({
        // The request's reason is free text about the person: it loses what their records lose.
        command: options.command, action: 'forget', student_id: id, result: 'forgotten', reason: options.reason && person.erase(options.reason, true),
        counts: { records: outcome.records, intents: outcome.intents },
      } as AuditEntry);
      log.write(auditLine(record));
      outcome.id = record.id;
    } catch (error) {
      await log.discard();
      throw error;
    }
    await log.commit();
    return outcome;
  } finally {
    lock.release();
  }
}

/** Refreshes the lock about once a second, so that waiting appenders never take a long rewrite for a crash. */
function keeper(lock: HeldLock): () => void {
  let last = Date.now();
  return () => {
    if (Date.now() - last < 1000) return;
    lock.refresh();
    last = Date.now();
  };
}

const parse = (text: string): AuditRecord | undefined => {
  try {
    const value = JSON.parse(text) as AuditRecord;
    return value && typeof value === 'object' && typeof value.id === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The first pass: every key and value the log knows the student by. A record
 * of another id holding a snapshot of the student (a delete later undone, a
 * transfer's source created again) is the student under the id it had then:
 * its id and keys are learnt too, until no record is left that adds any.
 */
async function learnFromLog(dir: string, person: Person, lock: HeldLock): Promise<void> {
  const alive = keeper(lock);
  let others: AuditRecord[] = [];
  for await (const { text } of logLines(auditLogPath(dir))) {
    alive();
    const record = parse(text);
    if (!record) continue;
    if (person.is(record.student_id)) person.learn(record);
    else if ([record.before, record.after].some((snapshot) => snapshot && holdsPerson(snapshot))) others.push(record);
  }
  for (let found = true; found;) {
    const rest = others.filter((record) => !person.holdsSnapshotOf(record) && !person.is(record.student_id));
    found = rest.length < others.length;
    for (const record of others) if (!rest.includes(record)) person.learn(record);
    others = rest;
  }
}

/**
 * The second pass: each line as it was, or without the person's data. A line
 * that is not a record (cut short by a full disk) loses the values it quotes.
 * Resolves to the records changed.
 */
async function rewriteLog(dir: string, person: Person, at: string, write: (text: string) => void, lock: HeldLock): Promise<number> {
  const alive = keeper(lock);
  let changed = 0;
  for await (const { text } of logLines(auditLogPath(dir))) {
    alive();
    const record = parse(text);
    const forgotten = record ? forgetRecord(record, person, at) : undefined;
    if (forgotten) changed++;
    write(forgotten ? auditLine(forgotten) : `${record ? text : person.erase(text)}\n`);
  }
  return changed;
}

/** An intent whose run may still complete it (and so write its record as it knows it). */
function inFlight(found: FoundIntent, intent: Intent, context: AuditContext): boolean {
  const { pid: self = 0, isRunning = () => false } = context.io;
  const running = (pid: number) => pid !== self && isRunning(pid);
  if (found.claimedBy !== undefined) return running(found.claimedBy);
  // Another machine's run (a shared config directory) cannot be asked.
  return intent.host !== hostname() || running(intent.pid);
}

/** Rewrites the intents that name the person and whose runs are gone. */
function forgetIntents(dir: string, found: readonly FoundIntent[], person: Person, context: AuditContext, at: string): Pick<ForgetOutcome, 'intents' | 'inFlight'> {
  const counts = { intents: 0, inFlight: 0 };
  for (const item of found) {
    const intent = item.intent;
    const record = intent && forgetRecord(intent.record, person, at);
    if (!intent || !record) continue;
    const claimed = inFlight(item, intent, context) ? undefined : claimIntent(dir, item, context.io.pid ?? 0);
    if (claimed === undefined) {
      counts.inFlight++;
      continue;
    }
    // The log is rewritten: where it ended then is no longer where the outcome would lie.
    replaceClaimedIntent(dir, claimed, { ...intent, record, log_offset: 0 });
    counts.intents++;
  }
  return counts;
}
