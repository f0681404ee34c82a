/**
 * What history, `students show` and undo read: every record of the change
 * record in force — the team's rows when the profile uses a team record (so
 * a colleague's change, from any machine, is there), else the local log,
 * whose lines that are not records are warned about and skipped.
 */
import type { AuditRecord } from '../../audit/log.js';
import type { AuditSource } from '../../audit/select.js';
import type { Messages } from '../../output/messages.js';
import type { Session } from '../../session/session.js';

export interface RecordSource {
  /** Reads the records from the first, each time it is called (a history may need two passes). */
  source: AuditSource;
  /** For messages: the log file, or the team record. */
  where: string;
  team: boolean;
}

/** The records in force as a source: the local log is streamed (a 100 MB log is never held), a team's rows are read once. */
export async function recordSource(session: Session, messages: Messages): Promise<RecordSource> {
  const record = await session.changeRecord();
  if (record.home !== 'local') {
    const records = await record.records();
    return { source: () => records, where: record.name, team: true };
  }
  const [dir, { auditSource }, { auditLogPath }] = await Promise.all([session.configDir(), import('../../audit/log.js'), import('../../config/paths.js')]);
  const where = auditLogPath(dir);
  return { source: auditSource(dir, ({ line }) => messages.warn(`skipped line ${line} of ${where}: not a valid audit record`)), where, team: false };
}

/** Every record in force, oldest first. */
export async function readRecords(session: Session, messages: Messages): Promise<Omit<RecordSource, 'source'> & { records: AuditRecord[] }> {
  const { source, where, team } = await recordSource(session, messages);
  const records: AuditRecord[] = [];
  for await (const record of source()) records.push(record);
  return { records, where, team };
}
