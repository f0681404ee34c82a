/**
 * Everything for people on stderr (contract §1.1): notices, warnings, errors,
 * a spinner and a progress bar. stdout carries the result only.
 * ora and cli-progress are loaded only when a terminal will show them.
 */
import type { WriteStream } from 'node:tty';
import type { GlobalOptions, Io, OutStream } from '../lib/io.js';
import { printable } from './cell.js';
import { animationEnabled, colorEnabled } from './color.js';

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

/** The spinner or bar on screen: a message must clear its line, then draw it again below. */
interface LiveLine {
  clear(): void;
  redraw(): void;
}

export function createMessages(io: Pick<Io, 'stderr' | 'env'> & Partial<Pick<Io, 'stdout'>>, opts: Pick<GlobalOptions, 'quiet' | 'color'>): Messages {
  let live: LiveLine | undefined;
  const say = (text: string) => {
    live?.clear();
    io.stderr.write(`${printable(text)}\n`);
    live?.redraw();
  };
  return {
    notice(text) {
      if (!opts.quiet) say(text);
    },
    warn(text) {
      if (!opts.quiet) say(`warning: ${text}`);
    },
    error: (text) => say(`error: ${text}`),
    async spinner(text) {
      if (!animationEnabled(io, opts.quiet, 'spinner')) return IDLE;
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
      live = { clear: () => spinner.clear(), redraw: () => spinner.render() };
      return {
        update: (next) => void (spinner.text = printable(next)),
        stop() {
          spinner.stop();
          live = undefined;
        },
      };
    },
    async progress(total) {
      if (!animationEnabled(io, opts.quiet, 'progress')) return IDLE;
      const [{ default: { SingleBar, Presets } }, stream] = await Promise.all([import('cli-progress'), terminal(io.stderr)]);
      // forceRedraw: cli-progress otherwise redraws only when the count changes, leaving the bar erased after a message.
      const bar = new SingleBar({ stream, clearOnComplete: true, forceRedraw: true }, Presets.shades_classic);
      bar.start(total, 0);
      live = {
        clear: () => {
          stream.cursorTo(0);
          stream.clearLine(0);
        },
        redraw: () => {
          // On stop, cli-progress returns to the cursor position it saved at start: make that the bar's new line.
          stream.write(SAVE_CURSOR);
          bar.render();
        },
      };
      return {
        tick: () => bar.increment(),
        stop() {
          bar.stop();
          live = undefined;
        },
      };
    },
  };
}

const SAVE_CURSOR = '\x1b7';

type Terminal = NodeJS.WritableStream & Pick<WriteStream, 'cursorTo' | 'moveCursor' | 'clearLine'>;

/**
 * ora and cli-progress drive a tty.WriteStream (cursorTo, clearLine…); this
 * gives those to any OutStream, a test double included. Writes never report
 * backpressure: a frame is a few bytes and never worth waiting for.
 */
async function terminal(stream: OutStream): Promise<Terminal> {
  const readline = await import('node:readline');
  const self = {
    isTTY: true,
    get columns() {
      return stream.columns;
    },
    write(chunk: string) {
      stream.write(chunk);
      return true;
    },
    cursorTo: (x: number, y?: number) => readline.cursorTo(tty, x, y),
    moveCursor: (dx: number, dy: number) => readline.moveCursor(tty, dx, dy),
    clearLine: (direction: -1 | 0 | 1) => readline.clearLine(tty, direction),
  };
  const tty = self as unknown as Terminal;
  return tty;
}
