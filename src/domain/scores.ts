/**
 * A student's community score changed, and recorded so that it can be
 * undone (the record keeps the score before): what `scores set` and the
 * assistant's score tools do. The score is read first, so that a change
 * relative to it (add points) and the question before it know where it stands.
 */
import type { Api } from '../api/client.js';
import type { Score } from '../api/endpoints/schemas.js';
import { getScores, setScore } from '../api/endpoints/students.js';
import { recorded, type Journal } from '../audit/journal.js';
import type { ResolvedStudent } from './resolve.js';

export interface ScoreChangeOptions {
  /**
   * Runs once the score before is known, right before the change is sent:
   * the command announces it, the assistant asks the person; a throw cancels it.
   */
  beforeChange?: (previous: number | null, next: number) => Promise<void>;
  /** Records the change, intent first; read after beforeChange, which may open it. */
  journal?: Journal;
}

export interface ScoreChange {
  /** The score as the server answered the change. */
  score: Score;
  previous: number | null;
  auditId?: string;
}

/** Sets the score `next` computes from the one the student has (null: none yet). */
export async function changeScore(api: Api, student: ResolvedStudent, next: (previous: number | null) => number, options: ScoreChangeOptions = {}): Promise<ScoreChange> {
  const previous = (await getScores(api, student.id)).score ?? null;
  const score = next(previous);
  await options.beforeChange?.(previous, score);
  const send = () => setScore(api, student.id, score);
  const change = await options.journal?.begin({ action: 'scores.set', result: 'updated', student: student.input, student_id: student.id, score, before: { score: previous } });
  if (!change) return { score: (await send()).data.data, previous };
  const { data } = await recorded(change, send, (answer) => ({ request_id: answer.requestId, after: { score: answer.data.data.score ?? score } }));
  return { score: data.data, previous, auditId: change.id };
}
