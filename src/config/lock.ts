import fs from 'node:fs';
import { CliError, ExitCode } from '../lib/errors.js';

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** A lock older than this was left by a crashed process and is removed. */
  staleMs: number;
  /** What the lock guards, for the error of a waiter that gives up: `the config` unless told. */
  guards?: string;
}

const DEFAULT_LOCK: LockOptions = { timeoutMs: 5_000, staleMs: 30_000 };

/**
 * Runs `fn` while holding `lockPath`, an exclusive lock across processes
 * (`open(…, 'wx')` is atomic on local file systems). Synchronous, like conf,
 * since the lock is held only for one read-modify-write of a small file.
 *
 * Known limit: two processes that find the same stale lock at the same moment
 * may both remove it; that needs a crash followed by a race within 30 s.
 */
export function withFileLock<T>(lockPath: string, fn: () => T, options: LockOptions = DEFAULT_LOCK): T {
  const lock = acquireFileLock(lockPath, options);
  try {
    return fn();
  } finally {
    lock.release();
  }
}

/** A lock held across asynchronous work: whoever holds it longer than `staleMs` must `refresh` it, or waiters take it for a crash's. */
export interface HeldLock {
  /** Tells waiters the holder is alive (the lock's age counts from here). */
  refresh(): void;
  release(): void;
}

/** Takes the lock, waiting as withFileLock does; the caller releases it. */
export function acquireFileLock(lockPath: string, options: LockOptions = DEFAULT_LOCK): HeldLock {
  acquire(lockPath, options);
  return {
    refresh: () => {
      const now = new Date();
      fs.utimesSync(lockPath, now, now);
    },
    release: () => fs.rmSync(lockPath, { force: true }),
  };
}

function acquire(lockPath: string, { timeoutMs, staleMs, guards = 'the config' }: LockOptions): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lockPath, 'wx', 0o600));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = lockAge(lockPath);
    // Gone already: its holder released it, try again at once.
    if (age === undefined) continue;
    if (age > staleMs) {
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CliError(
        `another members command is changing ${guards} (lock ${lockPath}); try again, and if none is running, remove the lock file`,
        ExitCode.transient,
      );
    }
    // Jitter keeps waiting processes from retrying in lockstep.
    sleep(5 + Math.random() * 20);
  }
}

function lockAge(lockPath: string): number | undefined {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
