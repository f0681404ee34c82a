/**
 * The command line of `members each`, as a template: `{column}` names a
 * column of the file's header (case, accents, spaces, `-`, `_` and `.` do
 * not count), `{line}` the row's line in the file; `{{` and `}}` are a
 * literal brace. Compiled once against the header, so that a placeholder
 * naming no column refuses the run before any row is read.
 */
import { UsageError } from '../../../lib/errors.js';
import { headerKey } from '../../../domain/bulk/csv.js';

/** A piece of one argument: text as written, a column (by its header as written in the file) or the line. */
type Piece = string | { column: string } | { line: true };

export interface Template {
  /** The arguments with their placeholders, as typed. */
  readonly text: string;
  /** The columns its placeholders name, as the header writes them. */
  readonly columns: readonly string[];
  /** One row's command line, or the problem that keeps it from being one (an empty cell a placeholder names). */
  expand(row: { line: number; values: Readonly<Record<string, string>> }): { argv: string[]; problem?: undefined } | { argv?: undefined; problem: string };
}

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/** `headers`: the file's header as written. A placeholder naming no column (or two) is a usage error listing the columns. */
export function compileTemplate(args: readonly string[], headers: readonly string[], source: string): Template {
  const byKey = new Map<string, string[]>();
  for (const header of headers) byKey.set(headerKey(header), [...(byKey.get(headerKey(header)) ?? []), header]);
  const listed = () => `the columns of ${source} are ${headers.map((header) => `{${header}}`).join(', ')}, and {line} is the row's line`;
  const pieces = args.map((arg) => {
    const parts: Piece[] = [];
    let at = 0;
    for (const match of arg.matchAll(PLACEHOLDER)) {
      if (match.index > at) parts.push(arg.slice(at, match.index));
      at = match.index + match[0].length;
      if (match[0] === '{{' || match[0] === '}}') {
        parts.push(match[0].charAt(0));
        continue;
      }
      const name = (match[1] ?? '').trim();
      const key = headerKey(name);
      const named = byKey.get(key) ?? [];
      if (named.length === 0 && key === 'line') parts.push({ line: true });
      else if (named.length === 1) parts.push({ column: named[0] as string });
      else if (named.length > 1) throw new UsageError(`{${name}} could name the columns ${named.map((header) => JSON.stringify(header)).join(' and ')} of ${source}: rename one of them in the header`);
      else throw new UsageError(`{${name}} names no column: ${listed()}. A literal brace is written {{ or }}`);
    }
    if (at < arg.length) parts.push(arg.slice(at));
    return parts;
  });
  const columns = [...new Set(pieces.flat().flatMap((part) => (typeof part === 'object' && 'column' in part ? [part.column] : [])))];
  return {
    columns,
    text: args.map((arg) => (/[\s"']/.test(arg) || arg === '' ? JSON.stringify(arg) : arg)).join(' '),
    expand({ line, values }) {
      const argv: string[] = [];
      for (const parts of pieces) {
        let arg = '';
        for (const part of parts) {
          if (typeof part === 'string') arg += part;
          else if ('line' in part) arg += String(line);
          else {
            const cell = values[part.column] ?? '';
            if (cell === '') return { problem: `the column ${JSON.stringify(part.column)} is empty` };
            arg += cell;
          }
        }
        argv.push(arg);
      }
      return { argv };
    },
  };
}
