/**
 * An Io for tests: captured stdout/stderr, chosen TTY-ness and width, a
 * hermetic environment (nothing from the real process), canned stdin.
 */
import { Readable } from 'node:stream';
import type { Io, OutStream } from '../../src/lib/io.js';

export interface FakeIoOptions {
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** Terminal width of stdout and stderr. */
  columns?: number;
  /** The whole environment; default empty. */
  env?: Record<string, string | undefined>;
  /** Text the command reads from stdin; default none. */
  stdin?: string;
  stdinTTY?: boolean;
  /** Default: the real working directory. */
  cwd?: string;
}

export interface FakeIo {
  io: Io;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Runs the handlers registered with io.onInterrupt, as Ctrl-C would. */
  interrupt(): void;
  /** How many Ctrl-C and SIGTERM handlers are registered now (a command must remove its own). */
  signalHandlers(): number;
  /** How many pages of a list the command streamed (io.onPage). */
  pagesStreamed(): number;
}

class CapturedStream implements OutStream {
  readonly chunks: string[] = [];
  constructor(readonly isTTY: boolean, readonly columns: number | undefined) {}
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
}

export function fakeIo(options: FakeIoOptions = {}): FakeIo {
  const stdout = new CapturedStream(options.stdoutTTY ?? false, options.columns);
  const stderr = new CapturedStream(options.stderrTTY ?? false, options.columns);
  // Bytes, not strings, as process.stdin gives.
  const bytes = options.stdin === undefined ? [] : [Buffer.from(options.stdin)];
  const stdin = Object.assign(Readable.from(bytes, { objectMode: false }), { isTTY: options.stdinTTY ?? false });
  const interruptHandlers = new Set<() => void>();
  const terminateHandlers = new Set<() => void>();
  let pages = 0;
  return {
    io: {
      stdout,
      stderr,
      stdin,
      env: { ...options.env },
      cwd: options.cwd ?? process.cwd(),
      onInterrupt(handler) {
        interruptHandlers.add(handler);
        return () => void interruptHandlers.delete(handler);
      },
      onTerminate(handler) {
        terminateHandlers.add(handler);
        return () => void terminateHandlers.delete(handler);
      },
      onPage: () => void pages++,
    },
    stdout: () => stdout.chunks.join(''),
    stderr: () => stderr.chunks.join(''),
    interrupt: () => interruptHandlers.forEach((handler) => handler()),
    signalHandlers: () => interruptHandlers.size + terminateHandlers.size,
    pagesStreamed: () => pages,
  };
}
