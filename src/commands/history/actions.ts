/** `members history`: the change record in force (the local audit log, or the team's), filtered, newest first. */
import { auditLogPath } from '../../config/paths.js';
import { locatedAuditSource, readAuditAt, type AuditRecord } from '../../audit/log.js';
import { selectHistory, selectHistoryPositions, type HistoryFilter, type StudentAliases } from '../../audit/select.js';
import type { ChangeRecord } from '../../audit/record.js';
import type { Messages } from '../../output/messages.js';
import { UsageError } from '../../lib/errors.js';
import { HISTORY_VIEW, historyRecord } from '../shared/views/history.js';
import type { Session } from '../../session/session.js';
import { parseDate, parseInteger, plural } from '../../lib/values.js';
import { printList } from '../../session/run-kit.js';

export interface HistoryFlags {
  student?: string;
  run?: string;
  since?: string;
  limit?: string;
  forget?: string;
  reason?: string;
}

/** Validates the flags before anything is read (exit 2). */
export function historyFilter(flags: HistoryFlags): HistoryFilter {
  const filter: HistoryFilter = {};
  if (flags.student !== undefined) {
    const student = flags.student.trim();
    if (student === '') throw new UsageError('--student cannot be empty');
    filter.student = student;
  }
  if (flags.run !== undefined) {
    const run = flags.run.trim();
    if (run === '') throw new UsageError('--run cannot be empty; `members history` lists the runs (action bulk) with their ids');
    if (filter.student !== undefined) throw new UsageError('--run and --student go apart: --run lists every change of one run');
    filter.run = run;
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
    const [{ findStudent }, { parseStudentKey }] = await Promise.all([import('../../api/endpoints/students.js'), import('../../api/endpoints/student-key.js')]);
    return await findStudent(api, parseStudentKey(student));
  } catch {
    // No credentials, no network: the log alone still answers for the keys it holds.
    return undefined;
  }
}

export async function history(session: Session, flags: HistoryFlags): Promise<number> {
  if (flags.forget !== undefined) {
    const others = (['student', 'run', 'since', 'limit'] as const).filter((flag) => flags[flag] !== undefined);
    if (others.length > 0) throw new UsageError(`--forget cannot be combined with ${others.map((flag) => `--${flag}`).join(', ')}: it erases, it does not list`);
    const { forgetDeleted } = await import('../shared/forget.js');
    await forgetDeleted(session, flags.forget, flags.reason);
    return 0;
  }
  if (flags.reason !== undefined) throw new UsageError('--reason goes with --forget: a history changes nothing');
  const filter = historyFilter(flags);
  const dir = await session.configDir();
  const messages = await session.messages();
  const left = await session.checkInterruptedChanges();
  if (left > 0) {
    messages.warn(`${plural(left, 'change')} of an interrupted run could not be checked on the server yet (no token, or no network); `
      + `${left === 1 ? 'it is' : 'they are'} not shown, and will be checked by the next command that reaches the server`);
  }
  const known = filter.student === undefined ? undefined : await lookUp(session, filter.student);
  const record = await session.changeRecord();
  const { chosen, found, where } = record.home === 'local' ? await localHistory(dir, filter, known, messages) : await teamHistory(record, filter, known);
  if (filter.run !== undefined && !found && filter.since === undefined) {
    throw new UsageError(`no change recorded under run ${filter.run} in ${where}; \`members history\` lists the runs (action bulk) with their ids`);
  }
  // The log holds product ids: titles cost one read of the products list, so only tables and --fields that ask for them get them.
  const { output, fields } = session.globals;
  const titles = output === 'table' || fields?.includes('product_title') ? await titlesFor(session, chosen()) : undefined;
  return printList(session, HISTORY_VIEW, printed(chosen(), titles));
}

interface Chosen {
  /** The records to print, newest first, read again each time it is called. */
  chosen: () => AsyncIterable<AuditRecord>;
  found: boolean;
  where: string;
}

async function localHistory(dir: string, filter: HistoryFilter, known: StudentAliases | undefined, messages: Messages): Promise<Chosen> {
  const where = auditLogPath(dir);
  const source = locatedAuditSource(dir, ({ line }) => messages.warn(`skipped line ${line} of ${where}: not a valid audit record`));
  // Where the chosen records lie, not the records: they are read again one by one as they are printed
  // (a table still holds its rows, to fit the columns).
  const positions = await selectHistoryPositions(source, filter, known);
  return { chosen: () => readAuditAt(dir, positions), found: positions.length > 0, where };
}

/** A team record's history: its rows, every machine's changes. */
async function teamHistory(record: ChangeRecord, filter: HistoryFilter, known: StudentAliases | undefined): Promise<Chosen> {
  const records = await record.records();
  const selected = await selectHistory(() => records, filter, known);
  return { chosen: async function* chosen() { yield* selected; }, found: selected.length > 0, where: record.name };
}

async function* printed(records: AsyncIterable<AuditRecord>, titles: Map<string, string> | undefined): AsyncGenerator<ReturnType<typeof historyRecord>> {
  for await (const record of records) yield historyRecord(record, titles);
}

/** Product titles, from one read of the products list; none offline. */
async function titlesFor(session: Session, records: AsyncIterable<AuditRecord>): Promise<Map<string, string> | undefined> {
  if (!(await someNamesAProduct(records))) return undefined;
  try {
    const [{ productTitles }, api] = await Promise.all([import('../../domain/names.js'), session.api()]);
    return await productTitles(api);
  } catch {
    return undefined;
  }
}

async function someNamesAProduct(records: AsyncIterable<AuditRecord>): Promise<boolean> {
  for await (const record of records) if (record.product_id) return true;
  return false;
}
