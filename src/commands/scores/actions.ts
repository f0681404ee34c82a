/** `members scores get|set|add`. */
import { Score } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { getScores } from '../../api/endpoints/students.js';
import { changeScore } from '../../domain/scores.js';
import { SCORE_VIEW } from '../shared/views/scores.js';
import { reasonFlag } from '../shared/command-kit.js';
import { fileWaitMs } from '../shared/lease.js';
import type { Session } from '../../session/session.js';
import { UsageError } from '../../lib/errors.js';
import { parseInteger } from '../../lib/values.js';
import { withOutput } from '../../session/run-kit.js';
import { resolveStudent, studentLabel } from '../../domain/resolve.js';

export async function getScore(session: Session, input: string): Promise<void> {
  parseStudentKey(input);
  await withOutput(session, async (output) => {
    const api = await session.api();
    const student = await resolveStudent(api, input, { cache: session.lookups });
    await output.one(await getScores(api, student.id), SCORE_VIEW);
  });
}

interface ScoreFlags {
  reason?: string;
  file?: string;
  wait?: string;
}

export async function setScore(session: Session, input: string | undefined, rawScore: string | undefined, opts: ScoreFlags): Promise<void> {
  const wait = fileWaitMs(opts.wait, opts.file);
  if (opts.file !== undefined) return scoresFromFile(session, 'set', { input, value: rawScore, reason: opts.reason, file: opts.file, waitMs: wait });
  const [student, score] = oneStudent('set', input, rawScore, 'SCORE');
  await recordScore(session, { input: student, command: 'scores set', reason: opts.reason, next: () => score, told: (label) => `✓ Set the score of ${label} to ${score}` });
}

export async function addScore(session: Session, input: string | undefined, rawPoints: string | undefined, opts: ScoreFlags): Promise<void> {
  const wait = fileWaitMs(opts.wait, opts.file);
  if (opts.file !== undefined) return scoresFromFile(session, 'add', { input, value: rawPoints, reason: opts.reason, file: opts.file, waitMs: wait });
  const [student, points] = oneStudent('add', input, rawPoints, 'POINTS');
  await recordScore(session, {
    input: student, command: 'scores add', reason: opts.reason, next: (before) => before + points, floor: true,
    told: (label, before, after) => `✓ ${points < 0 ? 'Took' : 'Added'} ${Math.abs(points)} ${points < 0 ? 'from' : 'to'} the score of ${label}: ${before} → ${after}`,
  });
}

/** STUDENT and the integer, checked before anything is sent. */
function oneStudent(verb: 'set' | 'add', input: string | undefined, raw: string | undefined, what: string): [string, number] {
  if (input === undefined || raw === undefined) {
    throw new UsageError(`missing ${input === undefined ? `STUDENT and ${what}` : what} (or --file FILE for a CSV of rows); see \`members scores ${verb} --help\``);
  }
  parseStudentKey(input);
  return [input, parseInteger(raw, what)];
}

/** The change recorded intent first with the score before (undo puts it back); `floor`: a total below 0 is refused before it is sent. */
async function recordScore(session: Session, change: {
  input: string; command: string; reason?: string; floor?: boolean; next(before: number): number; told(label: string, before: number, after: number): string;
}): Promise<void> {
  assertFieldsBeforeChange(session.globals.fields, Object.keys(Score.shape), SCORE_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const student = await resolveStudent(api, change.input, { cache: session.lookups });
    // Loaded here: `scores get` does not pay for the audit log.
    const { openJournal } = await import('../../audit/index.js');
    const journal = await openJournal(session, { command: change.command, reason: change.reason });
    const label = studentLabel(student);
    const { score: answered, previous } = await changeScore(api, student, (before) => change.next(before ?? 0), {
      journal,
      beforeChange: async (before, next) => {
        // A set is the server's to judge; an add that would go below 0 is refused before the change (the user asked for a difference).
        if (change.floor && next < 0) throw new UsageError(`the score of ${label} would be ${next} (it is ${before ?? 0}); a score is 0 or more`);
        await session.announceChange();
      },
    });
    await output.one(answered, SCORE_VIEW);
    (await session.messages()).notice(change.told(label, previous ?? 0, change.next(previous ?? 0)));
  }));
}

/** `scores set|add --file F`: a members each run of the single command, its columns found by their headers. */
async function scoresFromFile(session: Session, verb: 'set' | 'add', opts: { input?: string; value?: string; file: string; reason?: string; waitMs: number }): Promise<void> {
  if (opts.input !== undefined || opts.value !== undefined) throw new UsageError(`give either STUDENT ${verb === 'set' ? 'SCORE' : 'POINTS'} or --file FILE, not both`);
  const { runShorthand, STUDENT_COLUMN, SCORE_COLUMN, POINTS_COLUMN } = await import('../shared/each/shorthand.js');
  await runShorthand(session, {
    file: opts.file, command: ['scores', verb], columns: [STUDENT_COLUMN, verb === 'set' ? SCORE_COLUMN : POINTS_COLUMN], flags: reasonFlag(opts.reason), waitMs: opts.waitMs,
  });
}
