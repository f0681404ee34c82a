/**
 * The entry point and the one error boundary: every failure becomes an exit
 * code here (contract §4), from typed errors only.
 */
import { CommanderError, type Command } from 'commander';
import type { Dispatcher } from 'undici';
import type { Io, Pager } from './lib/io.js';
import type { Keychain } from './lib/keychain.js';
import { CliError, DriftError, ExitCode, InterruptedError, StdoutClosedError, type Rerun } from './lib/errors.js';
import { buildProgram } from './program.js';
import { printable } from './output/sanitize.js';
import { youngGenerationHold } from './lib/young-generation.js';
import { configDir } from './config/paths.js';
import { firstTime } from './config/told-once.js';
import { checkForUpdate, latestOf, noticeUpdate, PACKAGE_NAME } from './config/update-notice.js';

/** Commander's ends for `--help`, `help …` (or bare `members`) and `--version`. */
const HELP_OR_VERSION = ['commander.helpDisplayed', 'commander.help', 'commander.version'];

export async function main(argv: string[], io: Io, deps: { dispatcher?: Dispatcher } = {}): Promise<number> {
  const { program, sessions } = buildProgram({ io, ...deps });
  let interrupted = false;
  let code: number;
  /** Help, the version or a completion script: what bin/members.js answers itself when it can, with no notice. */
  let reference = false;
  program.hook('preAction', (_program, action) => {
    reference = ['help', 'version', 'completion'].includes(action.name()) || action.name().startsWith('__complete-');
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = ExitCode.ok;
  } catch (error) {
    // Ctrl-C or SIGTERM during a stalled response: the exit must not wait for it (up to --timeout).
    interrupted = error instanceof InterruptedError;
    reference ||= error instanceof CommanderError && HELP_OR_VERSION.includes(error.code);
    code = reportError(error, io, argv, program);
  } finally {
    await Promise.allSettled(sessions.map((session) => session.close(interrupted)));
  }
  // After the command's output and its error, as gh prints it; not after Ctrl-C, nor after help (contract §5), whatever
  // the terminal's width (bin answers the root --help itself only at 80 columns or into a pipe).
  if (reference && io.env.MEMBERS_DEBUG === '1') io.stderr.write('debug: update notice: off (help, version or completion)\n');
  if (io.startUpdateCheck && !interrupted && !reference) {
    const updates = { env: io.env, stderr: io.stderr, startUpdateCheck: io.startUpdateCheck };
    const done = await noticeUpdate(updates, { current: __MEMBERS_VERSION__, quiet: program.opts().quiet === true });
    if (io.env.MEMBERS_DEBUG === '1') io.stderr.write(`debug: update notice: ${done}\n`);
  }
  return code;
}

function reportError(error: unknown, io: Io, argv: string[], program: Command): number {
  let code: number;
  let message: string;
  let status: number | undefined;
  let rerun: string | undefined;
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version'].includes(error.code)) return ExitCode.ok;
    // `members help` exits 0; bare `members` (help shown instead of a command) is a usage error.
    if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    code = ExitCode.usage;
    message = `${error.message.replace(/^error: /, '')}; see \`${commandPath(program, argv)} --help\``;
  } else if ((error instanceof StdoutClosedError && error.message === '') || error instanceof DriftError) {
    // The reader had what it wanted (`… | head`): nothing to say, and nowhere to say it on stdout.
    // Drift (sync --check) is a result the command told already.
    return error.exitCode;
  } else if (error instanceof CliError) {
    code = error.exitCode;
    message = error.message;
    status = error.status;
    rerun = error.rerun && commandAgain(argv, error.rerun);
  } else {
    code = ExitCode.internal;
    message = `unexpected error: ${(error as Error)?.message ?? String(error)}; run again with MEMBERS_DEBUG=1 and report the stack trace`;
  }
  // Server text is in many messages (its `message`, its field errors): one sanitizer for all of them.
  message = printable(message);
  io.stderr.write(`error: ${message}\n`);
  if (rerun !== undefined) io.stderr.write(`  ${printable(rerun)}\n`);
  if (wantsJson(argv)) {
    io.stderr.write(`${JSON.stringify({ error: { exit_code: code, status: status ?? null, message, ...(rerun === undefined ? {} : { rerun }) } })}\n`);
  }
  if (io.env.MEMBERS_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return code;
}

/** `members students grant` for `members students grant x --bad`: the deepest real command named in argv. */
function commandPath(program: Command, argv: string[]): string {
  const names = ['members'];
  let command = program;
  for (const arg of argv) {
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) break;
    names.push(sub.name());
    command = sub;
  }
  return names.join(' ');
}

/**
 * The command line again with the argument the guess replaces (`STUDENT`,
 * `--student X`, `--student=X`), for the user to copy; undefined when argv
 * does not hold it as typed.
 */
function commandAgain(argv: string[], rerun: Rerun): string | undefined {
  let replaced = false;
  const words = argv.map((arg) => {
    const at = arg.startsWith('--') ? arg.indexOf('=') + 1 : 0;
    if (arg.slice(at).trim() !== rerun.replace) return arg;
    replaced = true;
    return `${arg.slice(0, at)}${rerun.with}`;
  });
  return replaced ? ['members', ...words].map(shellWord).join(' ') : undefined;
}

/** A word as a POSIX shell reads it back: quoted only when it needs to be. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Read from argv, not the parsed options: a usage error may stop parsing before `-o` is seen. */
function wantsJson(argv: string[]): boolean {
  return argv.some((arg, i) => arg === '--json'
    || /^(-o|--output)=?(json|ndjson)$/.test(arg)
    || ((arg === '-o' || arg === '--output') && /^(json|ndjson)$/.test(argv[i + 1] ?? '')));
}

/** The real process, as bin/members.js sees it. */
export interface ProcessIo extends Io {
  /** Puts back the V8 flag a streamed list set (young-generation.ts): a code cache written with it loads in no fresh start. */
  restoreV8Flags(): void;
}

/**
 * What io.atQuit registered, run synchronously when the process quits at
 * once: at its exit (bin's second SIGTERM or SIGHUP exits 130), and at a
 * Ctrl-C that finds no other listener (a second one, or one before any
 * command listens), which then kills the process as the system would.
 */
function quitCleanups(): Set<() => void> {
  const cleanups = new Set<() => void>();
  const runAll = () => {
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch {
        // Quitting: nothing more can be done about it.
      }
    }
    cleanups.clear();
  };
  process.on('exit', runAll);
  const lastResort = () => {
    if (process.listenerCount('SIGINT') > 1) return;
    runAll();
    process.off('SIGINT', lastResort);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', lastResort);
  return cleanups;
}

/** The real process as an Io; only bin/members.js calls this. */
export function processIo(): ProcessIo {
  // EPIPE on stdout is not an error of ours: writers see `closed` and stop (see StdoutClosedError).
  let closed = false;
  // EIO: the terminal is gone (SIGHUP): the run goes on to record and save what it did, unheard.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
    closed = true;
  });
  process.stderr.on('error', () => undefined);
  const quitting = quitCleanups();
  const stdout = {
    write: (chunk: string) => process.stdout.write(chunk),
    // A writer waiting for 'drain' on a pipe whose reader left would wait forever: wake it on close and error too.
    once: (_event: 'drain', listener: () => void) => {
      const events = ['drain', 'close', 'error'] as const;
      const wake = () => {
        for (const name of events) process.stdout.off(name, wake);
        listener();
      };
      for (const name of events) process.stdout.on(name, wake);
    },
    get isTTY() {
      return process.stdout.isTTY;
    },
    get columns() {
      return process.stdout.columns;
    },
    get rows() {
      return process.stdout.rows;
    },
    get closed() {
      return closed || process.stdout.destroyed;
    },
  };
  const hold = youngGenerationHold();
  return {
    stdout,
    stderr: process.stderr,
    // A getter: process.stdin builds a stream (3 ms) that most runs never read.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => void process.off('SIGINT', handler);
    },
    onTerminate(handler) {
      // A closed terminal (SIGHUP) stops a run as SIGTERM does: results written, changes recorded.
      process.on('SIGTERM', handler);
      process.on('SIGHUP', handler);
      return () => {
        process.off('SIGTERM', handler);
        process.off('SIGHUP', handler);
      };
    },
    atQuit(cleanup) {
      quitting.add(cleanup);
      return () => void quitting.delete(cleanup);
    },
    pid: process.pid,
    isRunning(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        // EPERM: it runs, as another user.
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    onPage: hold.check,
    startPager,
    keychain: openKeychainOnce,
    startUpdateCheck,
    restoreV8Flags: hold.release,
  };
}

/**
 * The update check (config/update-notice.ts) as bin/members.js runs it with
 * `__update-check`: detached from this run, which exits as soon as its work is
 * done (unref'd, its output nowhere, in a session of its own that a closed
 * terminal does not stop), as update-notifier starts its check.
 */
async function startUpdateCheck(): Promise<void> {
  const { spawn } = await import('node:child_process');
  try {
    spawn(process.execPath, [process.argv[1]!, '__update-check'], { detached: true, stdio: 'ignore', windowsHide: true }).unref();
  } catch {
    // No process to spare: the next run tries again.
  }
}

/** What `members __update-check` does, in the process startUpdateCheck started: within UPDATE_CHECK_BUDGET_MS. */
export async function checkForUpdates(): Promise<void> {
  const { fetchRegistryDocument } = await import('./api/registry.js');
  await checkForUpdate(process.env, async (url) =>
    latestOf(await fetchRegistryDocument(url, { env: process.env, timeoutMs: UPDATE_CHECK_BUDGET_MS, userAgent: `${PACKAGE_NAME}/${__MEMBERS_VERSION__}` })));
}

/** A registry that answers slower than this is asked again the next day. */
const UPDATE_CHECK_BUDGET_MS = 5000;

let keychain: Promise<Keychain> | undefined;
/** The OS keychain, loaded the first time a token is read or written (lib/keychain.ts), once per run. */
function openKeychainOnce(): Promise<Keychain> {
  keychain ??= import('./lib/keychain.js').then(({ osKeychain }) => osKeychain(process.platform));
  return keychain;
}

/** For bin/members.js, which saves its code cache after a run: the one atomic writer, loaded only then. */
export async function writeFileAtomically(path: string, data: Uint8Array): Promise<void> {
  const atomic = await import('./lib/atomic-file.js');
  await atomic.writeFileAtomically(path, data);
}

/** For bin/code-cache.js: true the first time it tells the user about `subject` (remembered in the config directory). */
export function firstTimeTold(env: Record<string, string | undefined>, subject: string): boolean {
  return firstTime(configDir(env), subject);
}

/**
 * The pager, started without a shell: its command line is words, as gh reads
 * PAGER. `less` gets gh's defaults when the user set none (quit at the end of
 * one screen, colour, no screen clearing). A pager that cannot start leaves
 * the output to stdout.
 */
async function startPager(command: string): Promise<Pager | undefined> {
  const { spawn } = await import('node:child_process');
  const [file = '', ...args] = command.split(/\s+/);
  const child = spawn(file, args, {
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { ...process.env, LESS: process.env.LESS ?? 'FRX', LV: process.env.LV ?? '-c' },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) return undefined;
  let closed = false;
  const stdin = child.stdin;
  stdin.on('error', () => (closed = true));
  stdin.on('close', () => (closed = true));
  return {
    stdin: {
      write: (chunk) => stdin.write(chunk),
      // Quitting the pager closes the pipe: a writer waiting for 'drain' is woken then too.
      once: (_event: 'drain', listener: () => void) => {
        const wake = () => {
          stdin.off('drain', wake).off('close', wake);
          listener();
        };
        stdin.on('drain', wake).on('close', wake);
      },
      isTTY: true,
      columns: process.stdout.columns,
      get closed() {
        return closed;
      },
      end: () => void stdin.end(),
    },
    exited: new Promise((resolve) => child.once('close', () => resolve())),
  };
}
