/**
 * One row's command, run through the same program as the command line: in
 * `check` mode up to where it would first reach the server (its arguments,
 * flags, keys and values are then known good), in `run` mode to the end,
 * its output captured as JSON for the results.
 */
import { CommanderError, type Command } from 'commander';
import { CliError, ExitCode, UsageError } from '../../../lib/errors.js';
import type { Journal } from '../../../audit/journal.js';
import type { StudentCache } from '../../../domain/resolve.js';
import type { NameRequest } from '../../../domain/names.js';
import type { Session } from '../../../session/session.js';
import { oneLine } from '../../../domain/bulk/engine.js';
import { rowKind, type RowKind } from './policy.js';
import { RowChecked, RowSession, rowIo, rowOptions } from './row-session.js';

export type RowRun =
  | { ok: true; path: string; kind: RowKind; fields: Record<string, unknown>; message: string; names: NameRequest[] }
  | { ok: false; message: string; code: number; error: unknown };

/** `scores set`: the names of the command and its subcommand. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

export async function runRow(session: Session, argv: readonly string[], options: { mode: 'check' | 'run'; journal?: Journal; lookups?: StudentCache }): Promise<RowRun> {
  const io = rowIo(session.io);
  // `check` mode: the product and course names the command asked for, resolved by the run once for every row.
  const names: NameRequest[] = [];
  let kind: RowKind | undefined;
  let path = '';
  // The global options as commander sets them with nothing given: a row that sets another value sets one of the run's.
  let defaults: Record<string, unknown> = {};
  const program = session.newProgram(io, (globals, raw) => new RowSession(rowOptions(globals, raw, defaults), io, { run: session, ...options, names: (name) => void names.push(name) }));
  defaults = { ...program.opts() };
  program.hook('preAction', (_program, action) => {
    path = commandPath(action);
    kind = rowKind(path);
    if (action.opts().file !== undefined) throw new UsageError(`--file makes a run of its own; give the row's student and values instead`);
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof RowChecked && kind) return { ok: true, path, kind, fields: {}, message: '', names };
    return { ok: false, ...failure(error) };
  }
  if (!kind) return { ok: false, message: 'no command to run (help, or a command group alone)', code: ExitCode.usage, error: undefined };
  return { ok: true, path, kind, fields: printedFields(io.stdout.text()), message: doneMessage(io.stderr.text()), names };
}

function failure(error: unknown): { message: string; code: number; error: unknown } {
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '');
    return { message: oneLine(message), code: ExitCode.usage, error };
  }
  if (error instanceof CliError) return { message: oneLine(error.message), code: error.exitCode, error };
  return { message: `unexpected error: ${(error as Error)?.message ?? String(error)}`, code: ExitCode.internal, error };
}

/** The scalar fields of what the command printed (one record), or how many it printed (a list). */
export function printedFields(stdout: string): Record<string, unknown> {
  if (stdout.trim() === '') return {};
  let printed: unknown;
  try {
    printed = JSON.parse(stdout);
  } catch {
    return {};
  }
  if (Array.isArray(printed)) return printed.length === 1 ? printedFields(JSON.stringify(printed[0])) : { count: printed.length };
  if (!printed || typeof printed !== 'object') return {};
  return Object.fromEntries(Object.entries(printed).filter(([, value]) => value === null || typeof value !== 'object'));
}

/** The command's own last word on what it did (`✓ Set the score of … to 12`), without its mark. */
export function doneMessage(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.startsWith('✓ '));
  return lines.at(-1)?.slice(2) ?? '';
}
