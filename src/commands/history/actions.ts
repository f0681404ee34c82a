/** `members history`: the local audit log, filtered, newest first. */
import { auditLogPath } from '../../config/paths.js';
import { readAllAudit, type AuditRecord } from '../../audit/log.js';
import { UsageError } from '../../errors.js';
import type { JsonRecord, View } from '../../output/view.js';
import type { Session } from '../../session.js';
import { parseDate, parseInteger } from '../../values.js';
import { printList } from '../list-options.js';

export interface HistoryFlags {
  student?: string;
  since?: string;
  limit?: string;
}

export interface HistoryFilter {
  /** As given: matched against the recorded STUDENT and student id, no request sent. */
  student?: string;
  /** The first instant kept: the start of the DATE, local time. */
  since?: Date;
  limit?: number;
}

/** Validates the flags before anything is read (exit 2). */
export function historyFilter(flags: HistoryFlags): HistoryFilter {
  const filter: HistoryFilter = {};
  if (flags.student !== undefined) {
    const student = flags.student.trim();
    if (student === '') throw new UsageError('--student cannot be empty');
    filter.student = student;
  }
  if (flags.since !== undefined) {
    const [year, month, day] = parseDate(flags.since, '--since').split('-').map(Number) as [number, number, number];
    filter.since = new Date(year, month - 1, day);
  }
  if (flags.limit !== undefined) filter.limit = parseInteger(flags.limit, '--limit', { min: 1 });
  return filter;
}

/** The student as the server knows it, to match changes made by any of its keys; undefined offline or when it is gone. */
async function lookUp(session: Session, student: string): Promise<StudentAliases | undefined> {
  try {
    const api = await session.api();
    const [{ findStudent }, { parseStudentKey }] = await Promise.all([import('../../api/students.js'), import('../../api/student-key.js')]);
    return await findStudent(api, parseStudentKey(student));
  } catch {
    // No credentials, no network: the log alone still answers for the keys it holds.
    return undefined;
  }
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

/** The same leading keys on every record, null when absent, so csv columns line up. */
const LEADING_KEYS = [
  'id', 'time', 'user', 'profile', 'base_url', 'command', 'action', 'student', 'student_id', 'product_id', 'result', 'request_id', 'reason',
] as const;

export function historyRecord(record: AuditRecord, titles?: ReadonlyMap<string, string>): JsonRecord {
  const out: JsonRecord = {};
  for (const key of LEADING_KEYS) out[key] = record[key] ?? null;
  if (titles && record.product_id) out.product_title = titles.get(record.product_id) ?? null;
  for (const [key, value] of Object.entries(record)) if (!(key in out)) out[key] = value;
  return out;
}

export const HISTORY_VIEW: View = {
  noun: 'audit records',
  columns: [
    { header: 'time', path: 'time', format: 'datetime' },
    { header: 'user', path: 'user' },
    { header: 'profile', path: 'profile' },
    { header: 'command', path: 'command' },
    { header: 'student', path: 'student' },
    { header: 'product', path: 'product_title' },
    { header: 'product id', path: 'product_id' },
    { header: 'result', path: 'result' },
    { header: 'reason', path: 'reason' },
    { header: 'id', path: 'id' },
  ],
};

export async function history(session: Session, flags: HistoryFlags): Promise<number> {
  const filter = historyFilter(flags);
  const dir = await session.configDir();
  const messages = await session.messages();
  const records = await readAllAudit(dir, ({ line }) => messages.warn(`skipped line ${line} of ${auditLogPath(dir)}: not a valid audit record`));
  const known = filter.student === undefined ? undefined : await lookUp(session, filter.student);
  const selected = selectHistory(records, filter, known);
  const titles = session.globals.output === 'table' ? await titlesFor(session, selected) : undefined;
  return printList(session, HISTORY_VIEW, selected.map((record) => historyRecord(record, titles)));
}

/** Product titles for the table, from one read of the products list; none offline. */
async function titlesFor(session: Session, records: readonly AuditRecord[]): Promise<Map<string, string> | undefined> {
  if (!records.some((record) => record.product_id)) return undefined;
  try {
    const [{ productTitles }, api] = await Promise.all([import('../../domain/names.js'), session.api()]);
    return await productTitles(api);
  } catch {
    return undefined;
  }
}
