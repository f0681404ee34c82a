/**
 * Which audit records a `history` asks for: about one student (by any key
 * it was named by), since a date, newest first. Pure: the log is read by the caller.
 */
import type { AuditRecord } from './log.js';

export interface HistoryFilter {
  /** As given: matched against the recorded STUDENT and student id, no request sent. */
  student?: string;
  /** The first instant kept: the start of the DATE, local time. */
  since?: Date;
  limit?: number;
}

/** What the server knows of a student: every key a change may have named it by. */
export interface StudentAliases {
  id: string;
  email?: string | null;
  document?: string | null;
  reference_id?: string | null;
}

function aliasesOf(student: StudentAliases): string[] {
  const { id, email, document, reference_id: reference } = student;
  const documents = document ? [document, `doc:${document}`, document.replace(/\D/g, ''), `doc:${document.replace(/\D/g, '')}`] : [];
  return [id, email ?? '', ...documents, reference ? `ref:${reference}` : ''].filter(Boolean);
}

/** E-mails are compared without case; every other key exactly. */
const normalise = (student: string) => (student.includes('@') ? student.trim().toLowerCase() : student.trim());

/** Reads the log from its start, each time it is called: a history may need two passes. */
export type AuditSource = () => AsyncIterable<AuditRecord> | Iterable<AuditRecord>;

/** The records naming the student as given, or by one of the keys the server knows it by. */
function directMatcher(student: string, known?: StudentAliases): (record: AuditRecord) => boolean {
  // Every way the student may have been named in a change: as given, and, when the server told us, by id, e-mail, document, reference.
  const names = new Set([student, ...(known ? aliasesOf(known) : [])].map(normalise));
  return (record) => (record.student !== undefined && names.has(normalise(record.student)))
    || (record.student_id !== undefined && names.has(record.student_id))
    || (typeof record.before?.email === 'string' && names.has(normalise(record.before.email)));
}

/**
 * Records about one student, without asking the server: those naming it as
 * given or by id, and those naming by id a student the first ones resolved
 * (so `--student maria@example.com` also finds the changes made by her id).
 * A first pass over the log collects those ids.
 */
async function studentMatcher(source: AuditSource, student: string, known?: StudentAliases): Promise<(record: AuditRecord) => boolean> {
  const direct = directMatcher(student, known);
  const ids = new Set<string>();
  for await (const record of source()) if (direct(record) && record.student_id) ids.add(record.student_id);
  return (record) => direct(record) || (record.student_id !== undefined && ids.has(record.student_id));
}

const instant = (record: AuditRecord) => {
  const time = Date.parse(record.time);
  return Number.isNaN(time) ? -Infinity : time;
};

interface Entry { record: AuditRecord; index: number; time: number }
const newestFirst = (a: Entry, b: Entry) => (b.time === a.time ? b.index - a.index : b.time - a.time);

/** The newest records added (by time, then by position in the file); with a limit it holds at most 2 × limit + 64 at any time. */
export class NewestRecords {
  private readonly entries: Entry[] = [];
  private added = 0;

  constructor(private readonly limit?: number) {}

  add(record: AuditRecord): void {
    this.entries.push({ record, index: this.added++, time: instant(record) });
    if (this.limit !== undefined && this.entries.length >= 2 * this.limit + 64) this.trim(this.limit);
  }

  get size(): number {
    return this.entries.length;
  }

  newest(): AuditRecord[] {
    this.trim(this.limit ?? this.entries.length);
    return this.entries.map(({ record }) => record);
  }

  private trim(count: number): void {
    this.entries.sort(newestFirst);
    this.entries.length = Math.min(this.entries.length, count);
  }
}

/**
 * Filters, then orders newest first (by time, then by position in the file),
 * then keeps `limit`. The log is read as a stream: only the matching records
 * are held, and with a limit only about the newest `limit` of them, so a
 * 100 MB log costs the memory of what is shown, not of the log.
 */
export async function selectHistory(source: AuditSource, filter: HistoryFilter, known?: StudentAliases): Promise<AuditRecord[]> {
  const matches = filter.student === undefined ? () => true : await studentMatcher(source, filter.student, known);
  const since = filter.since?.getTime();
  const kept = new NewestRecords(filter.limit);
  for await (const record of source()) {
    if (matches(record) && (since === undefined || instant(record) >= since)) kept.add(record);
  }
  return kept.newest();
}
