/**
 * Which audit records a `history` asks for: about one student (by any key
 * it was named by), the changes of one run, since a date, newest first; a run
 * is one entry otherwise. Pure: the log is read by the caller.
 */
import type { AuditPosition, AuditRecord, LocatedRecord } from './log.js';
import { RunsOfLog } from './runs.js';

export interface HistoryFilter {
  /** As given: matched against the recorded STUDENT and student id, no request sent. */
  student?: string;
  /** Only the changes recorded under this run id (`--run`). */
  run?: string;
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

/** Every key a change may have named the student by: id, e-mail, document (both spellings, with and without `doc:`), `ref:`. */
export function aliasesOf(student: StudentAliases): string[] {
  const { id, email, document, reference_id: reference } = student;
  const documents = document ? [document, `doc:${document}`, document.replace(/\D/g, ''), `doc:${document.replace(/\D/g, '')}`] : [];
  return [id, email ?? '', ...documents, reference ? `ref:${reference}` : ''].filter(Boolean);
}

/** E-mails are compared without case; every other key exactly. */
const normalise = (student: string) => (student.includes('@') ? student.trim().toLowerCase() : student.trim());

/** Reads the log from its start, each time it is called: a history may need two passes. */
export type AuditSource<T = AuditRecord> = () => AsyncIterable<T> | Iterable<T>;

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
async function studentMatcher<T>(source: AuditSource<T>, recordOf: (item: T) => AuditRecord, student: string, known?: StudentAliases): Promise<(record: AuditRecord) => boolean> {
  const direct = directMatcher(student, known);
  const ids = new Set<string>();
  for await (const item of source()) {
    const record = recordOf(item);
    if (direct(record) && record.student_id) ids.add(record.student_id);
  }
  return (record) => direct(record) || (record.student_id !== undefined && ids.has(record.student_id));
}

/**
 * A run (a sync, a bulk file, an undo of a run) is one entry: its own record
 * stands for its changes (`--run ID` lists them). A run that left no record
 * of its own (killed) is one entry too, derived from its changes (runs.ts),
 * shown in place of its newest change. Keeps a record, drops it (undefined),
 * or gives the record shown in its place.
 */
async function runCollapser<T>(source: AuditSource<T>, recordOf: (item: T) => AuditRecord): Promise<(record: AuditRecord) => AuditRecord | undefined> {
  const runs = new RunsOfLog();
  for await (const item of source()) runs.add(recordOf(item));
  return (record) => (record.run_id === undefined || record.action === 'bulk' ? record : runs.shownAt(record));
}

const instant = (record: AuditRecord) => {
  const time = Date.parse(record.time);
  return Number.isNaN(time) ? -Infinity : time;
};

interface Entry<H> { held: H; index: number; time: number }
const newestFirst = <H>(a: Entry<H>, b: Entry<H>) => (b.time === a.time ? b.index - a.index : b.time - a.time);

/**
 * The newest records added (by time, then by position in the file); with a
 * limit it holds at most 2 × limit + 64 at any time. What it holds of each is
 * the caller's choice: the record, or only where it lies in the log.
 */
export class NewestRecords<H = AuditRecord> {
  private readonly entries: Array<Entry<H>> = [];
  private added = 0;

  constructor(private readonly limit?: number) {}

  add(record: AuditRecord, held: H = record as H): void {
    this.entries.push({ held, index: this.added++, time: instant(record) });
    if (this.limit !== undefined && this.entries.length >= 2 * this.limit + 64) this.trim(this.limit);
  }

  get size(): number {
    return this.entries.length;
  }

  newest(): H[] {
    this.trim(this.limit ?? this.entries.length);
    return this.entries.map(({ held }) => held);
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
  return select(source, (record) => record, (_record, shown) => shown, filter, known);
}

/**
 * selectHistory holding only where each record lies: a whole history of a
 * 100 MB log costs a few bytes a record. A run derived from its changes
 * (runs.ts) lies nowhere: it is held as a record.
 */
export function selectHistoryPositions(source: AuditSource<LocatedRecord>, filter: HistoryFilter, known?: StudentAliases): Promise<Array<AuditPosition | AuditRecord>> {
  return select<LocatedRecord, AuditPosition | AuditRecord>(source, (item) => item.record, (item, shown) => (shown === item.record ? item.at : shown), filter, known);
}

const when = (test: (record: AuditRecord) => boolean) => (record: AuditRecord) => (test(record) ? record : undefined);

async function select<T, H>(
  source: AuditSource<T>, recordOf: (item: T) => AuditRecord, hold: (item: T, shown: AuditRecord) => H, filter: HistoryFilter, known?: StudentAliases,
): Promise<H[]> {
  const shows = filter.run !== undefined ? when((record) => record.run_id === filter.run)
    : filter.student !== undefined ? when(await studentMatcher(source, recordOf, filter.student, known))
      : await runCollapser(source, recordOf);
  const since = filter.since?.getTime();
  const kept = new NewestRecords<H>(filter.limit);
  for await (const item of source()) {
    const shown = shows(recordOf(item));
    if (shown && (since === undefined || instant(shown) >= since)) kept.add(shown, hold(item, shown));
  }
  return kept.newest();
}
