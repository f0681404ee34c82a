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

/**
 * Records about one student, without asking the server: those naming it as
 * given or by id, and those naming by id a student the first ones resolved
 * (so `--student maria@example.com` also finds the changes made by her id).
 */
export function studentMatcher(records: readonly AuditRecord[], student: string, known?: StudentAliases): (record: AuditRecord) => boolean {
  // Every way the student may have been named in a change: as given, and, when the server told us, by id, e-mail, document, reference.
  const names = new Set([student, ...(known ? aliasesOf(known) : [])].map(normalise));
  const direct = (record: AuditRecord) => (record.student !== undefined && names.has(normalise(record.student)))
    || (record.student_id !== undefined && names.has(record.student_id))
    || (typeof record.before?.email === 'string' && names.has(normalise(record.before.email)));
  const ids = new Set(records.filter(direct).map((record) => record.student_id).filter((id): id is string => Boolean(id)));
  return (record) => direct(record) || (record.student_id !== undefined && ids.has(record.student_id));
}

const instant = (record: AuditRecord) => {
  const time = Date.parse(record.time);
  return Number.isNaN(time) ? -Infinity : time;
};

/** Filters, then orders newest first (by time, then by position in the file), then keeps `limit`. */
export function selectHistory(records: readonly AuditRecord[], filter: HistoryFilter, known?: StudentAliases): AuditRecord[] {
  const matches = filter.student === undefined ? () => true : studentMatcher(records, filter.student, known);
  const since = filter.since?.getTime();
  const selected = records
    .map((record, index) => ({ record, index, time: instant(record) }))
    .filter(({ record, time }) => matches(record) && (since === undefined || time >= since))
    .sort((a, b) => (b.time === a.time ? b.index - a.index : b.time - a.time))
    .map(({ record }) => record);
  return filter.limit === undefined ? selected : selected.slice(0, filter.limit);
}

