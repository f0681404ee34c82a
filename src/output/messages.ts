/**
 * Everything for people on stderr (contract §1): notices, warnings, errors,
 * a spinner and a progress bar. stdout carries the result only.
 * ora and cli-progress are loaded only when a terminal will show them.
 */
import type { GlobalOptions, Io, OutStream } from '../context.js';
import { printable } from './cell.js';
import { colorEnabled } from './color.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export interface Progress {
  tick(): void;
  stop(): void;
}

export interface Messages {
  /** Suppressed by --quiet. */
  notice(text: string): void;
  /** `warning: …`; suppressed by --quiet. */
  warn(text: string): void;
  /** `error: …`; never suppressed. */
  error(text: string): void;
  /** Spins only on a terminal stderr without --quiet; otherwise does nothing. Stop it before the command ends. */
  spinner(text: string): Promise<Spinner>;
  /** A bar counting up to `total`, under the same conditions as the spinner. */
  progress(total: number): Promise<Progress>;
}

const IDLE: Spinner & Progress = { update() {}, tick() {}, stop() {} };

export function createMessages(io: Pick<Io, 'stderr' | 'env'>, opts: Pick<GlobalOptions, 'quiet' | 'color'>): Messages {
  const say = (text: string) => void io.stderr.write(`${printable(text)}\n`);
  const animated = io.stderr.isTTY === true && !opts.quiet;
  return {
    notice(text) {
      if (!opts.quiet) say(text);
    },
    warn(text) {
      if (!opts.quiet) say(`warning: ${text}`);
    },
    error: (text) => say(`error: ${text}`),
    async spinner(text) {
      if (!animated) return IDLE;
      const [{ default: ora }, stream] = await Promise.all([import('ora'), terminal(io.stderr)]);
      const spinner = ora({
        text: printable(text),
        stream,
        color: colorEnabled(true, io.env, opts.color) ? 'cyan' : false,
        isEnabled: true,
        // Both would reach for the process (raw-mode stdin, exit hooks restoring the cursor).
        discardStdin: false,
        hideCursor: false,
      }).start();
      return {
        update: (next) => void (spinner.text = printable(next)),
        stop: () => void spinner.stop(),
      };
    },
    async progress(total) {
      if (!animated) return IDLE;
      const [{ default: { SingleBar, Presets } }, stream] = await Promise.all([import('cli-progress'), terminal(io.stderr)]);
      const bar = new SingleBar({ stream, clearOnComplete: true }, Presets.shades_classic);
      bar.start(total, 0);
      return {
        tick: () => bar.increment(),
        stop: () => bar.stop(),
      };
    },
  };
}

/**
 * ora and cli-progress drive a tty.WriteStream (cursorTo, clearLine…); this
 * gives those to any OutStream, a test double included. Writes never report
 * backpressure: a frame is a few bytes and never worth waiting for.
 */
async function terminal(stream: OutStream): Promise<NodeJS.WritableStream> {
  const readline = await import('node:readline');
  const tty = {
    isTTY: true,
    get columns() {
      return stream.columns;
    },
    write(chunk: string) {
      stream.write(chunk);
      return true;
    },
    cursorTo: (x: number, y?: number) => readline.cursorTo(self, x, y),
    moveCursor: (dx: number, dy: number) => readline.moveCursor(self, dx, dy),
    clearLine: (direction: -1 | 0 | 1) => readline.clearLine(self, direction),
  };
  const self = tty as unknown as NodeJS.WritableStream;
  return self;
}
