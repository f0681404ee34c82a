/**
 * The entry point and the one error boundary: every failure becomes an exit
 * code here (contract §4), from typed errors only.
 */
import { CommanderError } from 'commander';
import type { Dispatcher } from 'undici';
import type { Io } from './context.js';
import { CliError, ExitCode, exitCodeOf } from './errors.js';
import { buildProgram } from './program.js';

export async function main(argv: string[], io: Io, deps: { dispatcher?: Dispatcher } = {}): Promise<number> {
  const { program, sessions } = buildProgram({ io, ...deps });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, argv);
  } finally {
    await Promise.allSettled(sessions.map((session) => session.close()));
  }
}

function reportError(error: unknown, io: Io, argv: string[]): number {
  let code: number;
  let message: string;
  let status: number | undefined;
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version'].includes(error.code)) return ExitCode.ok;
    code = ExitCode.usage;
    message = `${error.message.replace(/^error: /, '')}; see \`members ${error.code === 'commander.unknownCommand' ? '' : commandPath(argv)}--help\``;
    if (error.code === 'commander.help') return code;
  } else if (error instanceof CliError) {
    code = error.exitCode;
    message = error.message;
    status = error.status;
  } else {
    code = ExitCode.internal;
    message = `unexpected error: ${(error as Error)?.message ?? String(error)}; run again with MEMBERS_DEBUG=1 and report the stack trace`;
  }
  io.stderr.write(`error: ${message}\n`);
  if (wantsJson(argv)) {
    io.stderr.write(`${JSON.stringify({ error: { exit_code: code, status: status ?? null, message } })}\n`);
  }
  if (io.env.MEMBERS_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return code;
}

/** `students grant ` for `members students grant x --bad`: where to point the user for help. */
function commandPath(argv: string[]): string {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  return words.map((w) => `${w} `).join('');
}

/** Read from argv, not the parsed options: a usage error may stop parsing before `-o` is seen. */
function wantsJson(argv: string[]): boolean {
  return argv.some((arg, i) => arg === '--json'
    || /^(-o|--output)=?(json|ndjson)$/.test(arg)
    || ((arg === '-o' || arg === '--output') && /^(json|ndjson)$/.test(argv[i + 1] ?? '')));
}

/** The real process as an Io; only bin/members.js calls this. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => void process.off('SIGINT', handler);
    },
    onTerminate(handler) {
      process.on('SIGTERM', handler);
      return () => void process.off('SIGTERM', handler);
    },
  };
}
