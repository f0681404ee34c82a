/**
 * A pager for long output at a terminal (issue 31), as gh and git do: what a
 * command prints to a terminal goes through `MEMBERS_PAGER`, else `PAGER`,
 * else `less -FRX`, once it is longer than the screen; shorter output is
 * printed as it is, so a one-record answer never opens a pager. `--no-pager`,
 * or an empty `MEMBERS_PAGER`, turns it off; a pipe or a file never gets one.
 * With TERM=dumb there is no default pager (less would stop at "terminal is
 * not fully functional" and wait for RETURN): only one the user named runs.
 * A terminal that does not say its size (rows 0) is never paged.
 */
import { ExitCode, StdoutClosedError } from '../lib/errors.js';
import type { Io, Pager } from '../lib/io.js';
import { stdoutDestination, type Destination } from './destination.js';

/** The pager's command line, or undefined when there is none to start. */
export function pagerCommand(env: Record<string, string | undefined>, enabled: boolean): string | undefined {
  if (!enabled) return undefined;
  const command = (env.MEMBERS_PAGER ?? env.PAGER ?? (env.TERM === 'dumb' ? '' : 'less -FRX')).trim();
  // `cat` pages nothing: start no process for it.
  return command === '' || command === 'cat' ? undefined : command;
}

/** The rows a text takes on a screen `columns` wide (a long line wraps). */
function screenRows(text: string, columns: number): number {
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(line.length / columns));
  return rows - 1;
}

/**
 * Holds what is printed until it fills the screen; then starts the pager and
 * hands it everything. A person who quits the pager early had what they
 * wanted: the command ends with exit 0, as it does in gh and git.
 */
export function pagedDestination(io: Io, command: string): Destination {
  const { stdout } = io;
  const columns = stdout.columns || 80;
  // A screen of unknown height (rows 0 or undefined) is never full.
  const screen = stdout.rows ? stdout.rows - 1 : Infinity;
  let held = '';
  let pager: Pager | undefined;
  /** Where the text goes once decided: the pager, or stdout (short output, or no pager could start). */
  let target: Promise<Destination> | undefined;
  const quitOk = (error: unknown) => {
    throw error instanceof StdoutClosedError && pager ? new StdoutClosedError('', ExitCode.ok) : error;
  };
  const decide = async (page: boolean) => {
    pager = page ? await io.startPager?.(command) : undefined;
    const destination = stdoutDestination(pager?.stdin ?? stdout);
    const text = held;
    held = '';
    await destination.write(text);
    return destination;
  };
  const finish = async (how: 'close' | 'abort') => {
    try {
      await (await (target ??= decide(false)))[how]();
    } catch (error) {
      quitOk(error);
    } finally {
      pager?.stdin.end();
      await pager?.exited;
    }
  };
  return {
    write(text) {
      if (target) return target.then((destination) => destination.write(text)).catch(quitOk);
      held += text;
      if (screenRows(held, columns) <= screen) return undefined;
      target = decide(true);
      return target.then(() => undefined, quitOk);
    },
    writeBytes: (bytes) => (target ??= decide(false)).then((destination) => destination.writeBytes(bytes)),
    isTTY: true,
    columns: stdout.columns,
    close: () => finish('close'),
    abort: () => finish('abort'),
  };
}
