/** `members scores get|set`. */
import { Score } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { getScores } from '../../api/endpoints/students.js';
import { changeScore } from '../../domain/scores.js';
import { SCORE_VIEW } from '../shared/views/scores.js';
import type { Session } from '../../session/session.js';
import { parseInteger } from '../../lib/values.js';
import { withOutput } from '../../session/run-kit.js';
import { resolveStudent, studentLabel } from '../../domain/resolve.js';

export async function getScore(session: Session, input: string): Promise<void> {
  parseStudentKey(input);
  await withOutput(session, async (output) => {
    const api = await session.api();
    const student = await resolveStudent(api, input);
    await output.one(await getScores(api, student.id), SCORE_VIEW);
  });
}

export async function setScore(session: Session, input: string, rawScore: string, opts: { reason?: string }): Promise<void> {
  parseStudentKey(input);
  const score = parseInteger(rawScore, 'SCORE');
  assertFieldsBeforeChange(session.globals.fields, Object.keys(Score.shape), SCORE_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const student = await resolveStudent(api, input);
    // Loaded here: `scores get` does not pay for the audit log.
    const { openJournal } = await import('../../audit/index.js');
    const journal = await openJournal(session, { command: 'scores set', reason: opts.reason });
    const { score: answered } = await changeScore(api, student, () => score, { journal, beforeChange: () => session.announceChange() });
    await output.one(answered, SCORE_VIEW);
    (await session.messages()).notice(`✓ Set the score of ${studentLabel(student)} to ${score}`);
  }));
}
