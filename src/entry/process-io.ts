/**
 * The real process as an Io: the streams, signals and helpers that only the
 * entry may touch (everything below receives the Io).
 */
import type { Io } from '../lib/io.js';
import type { Keychain } from '../lib/keychain.js';
import { youngGenerationHold } from '../lib/young-generation.js';
import { startPager } from './pager.js';
import { startUpdateCheck } from './update-check.js';

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

let keychain: Promise<Keychain> | undefined;
/** The OS keychain, loaded the first time a token is read or written (lib/keychain.ts), once per run. */
function openKeychainOnce(): Promise<Keychain> {
  keychain ??= import('../lib/keychain.js').then(({ osKeychain }) => osKeychain(process.platform));
  return keychain;
}
