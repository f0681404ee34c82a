/**
 * The one error boundary: a run of a program (the whole one, main.ts, or
 * `members mcp` alone, mcp-main.ts), in which every failure becomes an exit
 * code (contract §4), from typed errors only.
 */
import { CommanderError, type Command } from 'commander';
import type { Dispatcher } from 'undici';
import type { Io } from '../lib/io.js';
import { CliError, DriftError, ExitCode, InterruptedError, StdoutClosedError, type Rerun } from '../lib/errors.js';
import type { Session } from '../session/session.js';
import { printable } from '../output/sanitize.js';
import { noticeUpdate } from '../config/update-notice.js';
import { monotonicMs } from '../lib/time/monotonic.js';

/** Commander's ends for `--help`, `help …` (or bare `members`) and `--version`. */
const HELP_OR_VERSION = ['commander.helpDisplayed', 'commander.help', 'commander.version'];

export interface RunDeps {
  /** Tests inject an undici MockAgent. */
  dispatcher?: Dispatcher;
}

/** Builds the program of a run (command-line.ts) with the commands it has. */
export type ProgramBuilder = (deps: RunDeps & { io: Io }) => { program: Command; sessions: Session[] };

export async function runProgram(build: ProgramBuilder, argv: string[], io: Io, deps: RunDeps = {}): Promise<number> {
  const { program, sessions } = build({ io, ...deps });
  let interrupted = false;
  let code: number;
  /** Help, the version or a completion script: what bin/members.js answers itself when it can, with no notice. */
  let reference = false;
  /** The command run (`scores add`), for --summary. */
  let ran: string | undefined;
  const started = monotonicMs();
  program.hook('preAction', (_program, action) => {
    reference = ['help', 'version', 'completion'].includes(action.name()) || action.name().startsWith('__complete-');
    const names: string[] = [];
    for (let command: Command | null = action; command?.parent; command = command.parent) names.unshift(command.name());
    ran = names.join(' ');
  });
  // --ping URL: the monitor hears of the start before the command runs.
  program.hook('preAction', async () => {
    const { ping } = program.opts() as { ping?: string };
    if (ping === undefined) return;
    const { pingStart } = await import('./run-report.js');
    await pingStart(io, { ping }, deps.dispatcher);
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
  const report = program.opts() as { summary?: string; notify?: string; notifyAlways?: boolean; ping?: string };
  if (report.summary !== undefined || report.notify !== undefined || report.ping !== undefined) {
    const [{ runSummary, writeRunSummary }, { reportEnd }] = await Promise.all([import('./run-summary.js'), import('./run-report.js')]);
    const session = sessions[0];
    const profile = await session?.settings().then((settings) => settings.profile, () => undefined);
    const command = ran ?? commandPath(program, argv).replace(/^members ?/, '');
    const summary = runSummary({ command, profile, exitCode: code, seconds: (monotonicMs() - started) / 1000, facts: session?.runSummary });
    if (report.summary !== undefined) await writeRunSummary(io, report.summary, summary);
    await reportEnd(io, report, summary, deps.dispatcher);
  }
  // After the command's output and its error, as gh prints it; not after Ctrl-C, nor after help (contract §25.2), whatever
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
