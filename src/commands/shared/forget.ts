/**
 * Erasing a deleted student's personal data from this machine's audit log
 * (LGPD; audit/forget.ts), as `students delete --forget` and
 * `history --forget STUDENT_ID` do it and say it.
 */
import type { Student } from '../../api/endpoints/schemas.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { CliError, ExitCode, UsageError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import type { Session } from '../../session/session.js';
import type { ErasableRecord } from '../../audit/forget-team.js';

/** The STUDENT_ID of `history --forget`: an id (the student is gone, the log knows it by id). */
export function forgottenId(input: string): string {
  const id = input.trim();
  if (id === '') throw new UsageError('--forget needs the id of a deleted student (`members history --student KEY -o json` shows it as student_id)');
  if (parseStudentKey(id).kind !== 'id') {
    throw new UsageError(`--forget takes the student's id, not ${JSON.stringify(id)}: \`members history --student ${id} -o json\` shows it as student_id`);
  }
  return id;
}

/** A student still on the platform keeps its data there: forgetting the log alone would erase the record of what was done to it. */
export class StudentStillExistsError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.rejected);
  }
}

export interface ForgetRequest {
  command: string;
  reason?: string;
  /** The student as the server sent it before the delete. */
  known?: Student;
}

/** Erases the student's data from the log and the intents, and says what was done. */
export async function forgetInLog(session: Session, id: string, request: ForgetRequest): Promise<void> {
  const { forgetStudent } = await import('../../audit/forget.js');
  const messages = await session.messages();
  const outcome = await forgetStudent(session, id, request);
  const where = "this machine's audit log";
  if (outcome.id === undefined) {
    messages.notice(`${where} holds no personal data of student ${id}; nothing to forget`);
  } else {
    const intents = outcome.intents > 0 ? ` and ${plural(outcome.intents, 'change')} of interrupted runs` : '';
    messages.notice(`✓ Forgot student ${id} in ${where}: ${plural(outcome.records, 'record')}${intents} no longer hold its name, e-mail, phone, birth, document or reference `
      + `(ids, actions, times and reasons stay; recorded as ${outcome.id})`);
  }
  await forgetInTeamRecord(session, id, request);
  if (outcome.inFlight > 0) {
    messages.warn(`${plural(outcome.inFlight, 'change')} of a run still going ${outcome.inFlight === 1 ? 'names' : 'name'} this student: `
      + `run \`members history --forget ${id}\` again once it has ended`);
  }
}

/** With a team record, the student is erased from the team's rows too (audit/forget-team.ts). */
async function forgetInTeamRecord(session: Session, id: string, request: ForgetRequest): Promise<void> {
  const record = await session.changeRecord();
  if (!('replace' in record)) return;
  const { forgetInTeam } = await import('../../audit/forget-team.js');
  const outcome = await forgetInTeam(session, record as ErasableRecord, id, request);
  const messages = await session.messages();
  if (outcome.id === undefined) messages.notice(`${record.name} holds no personal data of student ${id}; nothing to forget there`);
  else messages.notice(`✓ Forgot student ${id} in ${record.name}: ${plural(outcome.records, 'record')} no longer hold its personal data (recorded as ${outcome.id})`);
}

/** `history --forget STUDENT_ID`: for a student deleted earlier (the server is asked first, when it can be). */
export async function forgetDeleted(session: Session, input: string, reason?: string): Promise<void> {
  const id = forgottenId(input);
  const messages = await session.messages();
  // Off a terminal without --yes the answer is known already: fail before reading anything.
  const question = `Erase every personal data of student ${id} from this machine's audit log? This cannot be undone.`;
  if (!session.globals.yes && !session.io.stdin.isTTY) await session.confirm(question);
  const [{ findStudent }, api] = await Promise.all([import('../../api/endpoints/students.js'), session.api().catch(() => undefined)]);
  const found = api ? await findStudent(api, { kind: 'id', value: id }).then((student) => student ?? null, () => undefined) : undefined;
  if (found) {
    throw new StudentStillExistsError(`student ${id} still exists on the platform (${found.email ?? 'no e-mail'}): delete it and forget it at once with `
      + `\`members students delete ${id} --forget\``);
  }
  if (found === undefined) messages.warn(`could not check on the server that student ${id} was deleted (no credentials or no network); going on`);
  await session.confirm(question);
  await forgetInLog(session, id, { command: 'history --forget', reason });
}
