/**
 * Which commands `members each` runs once per row (contract, `members each`).
 * A row runs a command that does one thing to one student or record: it is
 * checked with the others before anything is sent, recorded under the run's
 * id, and confirmed once for the run. Refused (exit 2), with the reason:
 * commands that are runs or files of their own, that change the setup, that
 * ask or print for a person, or whose changes no record would hold.
 */
import { UsageError } from '../../../lib/errors.js';
import { MagicLink, Score } from '../../../api/endpoints/schemas.js';

/** What a row's command does: `changes` needs the run's confirmation (and --yes off a terminal); `reads` does not. */
export type RowKind = 'changes' | 'reads';

const ALLOWED: Readonly<Record<string, RowKind>> = {
  'magic-link': 'changes',
  'scores get': 'reads',
  'scores set': 'changes',
  'scores add': 'changes',
  'students get': 'reads',
  'students show': 'reads',
  'students search': 'reads',
  'students products': 'reads',
  'students create': 'changes',
  'students delete': 'changes',
  'students grant': 'changes',
  'students revoke': 'changes',
  'students transfer': 'changes',
  'subscriptions get': 'reads',
  'courses accesses': 'reads',
};

const REFUSED: Readonly<Record<string, string>> = {
  each: 'a run of its own',
  sync: 'a run of its own over a whole file: run `members sync --file F`',
  'students import': 'a run of its own: run `members students import F`',
  'subscriptions extend': 'a planned run of its own',
  undo: 'it undoes whole runs itself: `members undo RUN`',
  history: 'one history answers for every row: `members history`',
  api: 'its requests are not recorded, so the run could not be resumed nor undone',
  auth: 'it changes the setup, not the members',
  mcp: 'it serves an assistant until it is stopped',
  sandbox: 'it starts a server',
  completion: 'it prints shell code',
  help: 'it prints help',
  version: 'it prints the version',
  report: 'one report answers for every row',
};

/**
 * The fields a command's answer is known to print, by its path: the results'
 * columns from the start, before any row is done (the results stream). Other
 * commands' columns are the fields of the first row done.
 */
const PRINTED: Readonly<Record<string, readonly string[]>> = {
  'magic-link': Object.keys(MagicLink.shape),
  'scores get': Object.keys(Score.shape),
  'scores set': Object.keys(Score.shape),
  'scores add': Object.keys(Score.shape),
};

export const knownFields = (path: string): readonly string[] | undefined => PRINTED[path];

/** The command a row runs, by its path (`scores set`), or a UsageError saying why each refuses it. */
export function rowKind(path: string): RowKind {
  const kind = ALLOWED[path];
  if (kind !== undefined) return kind;
  const top = path.split(' ')[0] as string;
  const why = REFUSED[path] ?? REFUSED[top] ?? 'it is not a command of one student or record';
  throw new UsageError(`members each cannot run \`${path}\`: ${why}. It runs ${Object.keys(ALLOWED).join(', ')}`);
}
