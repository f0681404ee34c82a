/**
 * The file forms users type first, on the engine of `members each`:
 * `magic-link --file F`, `scores set --file F`, `scores add --file F`. The
 * columns are found by their headers (an e-mail, a CPF, a student…; a
 * score, points…), matched as bulk headers are; the run is an each run of
 * the single command, with its results, record, undo and resume.
 */
import { UsageError } from '../../../lib/errors.js';
import { headerKey } from '../../../domain/bulk/csv.js';
import type { Session } from '../../../session/session.js';
import { DEFAULT_CONCURRENCY } from '../bulk/flags.js';
import { runEach } from './run.js';

/** A column the shorthand needs, and the headers that may hold it, the first found winning. */
export interface ShorthandColumn {
  name: string;
  headers: readonly string[];
}

export const STUDENT_COLUMN: ShorthandColumn = {
  name: 'student', headers: ['student', 'studentemail', 'email', 'cpf', 'documento', 'document', 'studentid', 'aluno', 'aluna', 'id'],
};
export const SCORE_COLUMN: ShorthandColumn = { name: 'score', headers: ['score', 'pontos', 'pontuacao', 'points', 'nota'] };
export const POINTS_COLUMN: ShorthandColumn = { name: 'points', headers: ['points', 'pontos', 'score', 'pontuacao', 'nota'] };

/** The header holding `column` in `headers`, as written; a usage error naming what was looked for. */
export function findColumn(headers: readonly string[], column: ShorthandColumn, source: string): string {
  for (const wanted of column.headers) {
    const found = headers.find((header) => headerKey(header) === wanted);
    if (found !== undefined) return found;
  }
  throw new UsageError(`${source} has no ${column.name} column: its header is ${headers.map((header) => JSON.stringify(header)).join(', ')}; `
    + `name one of them ${column.headers.slice(0, 4).join(', ')}…, or run \`members each ${source} -- COMMAND {Column}…\``);
}

/** A literal argument in a command line of placeholders. */
const literal = (arg: string) => arg.replace(/\{/g, '{{').replace(/\}/g, '}}');

export interface ShorthandRun {
  file: string;
  /** The command (`magic-link`, `scores set`…) as words. */
  command: readonly string[];
  /** The columns that become its arguments, in order. */
  columns: readonly ShorthandColumn[];
  /** Flags after them, as typed (taken literally). */
  flags: readonly string[];
  /** `--wait`: how long to wait for another run of the same command on the same file. */
  waitMs?: number;
}

export function runShorthand(session: Session, run: ShorthandRun): Promise<void> {
  const source = run.file === '-' ? 'stdin' : run.file;
  return runEach(session, {
    file: run.file,
    args: (headers) => [...run.command, ...run.columns.map((column) => `{${findColumn(headers, column, source)}}`), ...run.flags.map(literal)],
    concurrency: DEFAULT_CONCURRENCY, dryRun: false, onlyFailed: false, halt: 'never', waitMs: run.waitMs,
  });
}
