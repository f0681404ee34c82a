/** How the rows of `members each` look: each record is the input's columns, `result`, `message` and the command's own fields. */
import type { View } from '../../../output/view.js';

/** The table shows the row's line, the columns the command line names, what happened, and the command's fields. */
export function eachView(columns: readonly string[], fields: readonly string[]): View {
  return {
    noun: 'rows',
    columns: [
      { header: 'line', path: 'line' },
      ...columns.map((header) => ({ header, path: header, kind: 'name' as const })),
      { header: 'result', path: 'result', whole: true },
      { header: 'message', path: 'message', wrap: true },
      ...fields.map((header) => ({ header, path: header })),
    ],
  };
}

export const DRY_RUN_VIEW: View = {
  noun: 'rows',
  columns: [{ header: 'line', path: 'line' }, { header: 'command', path: 'command', wrap: true }],
};
