import fs from 'node:fs';
import { CliError, ExitCode } from '../lib/errors.js';

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** A lock older than this was left by a crashed process and is removed. */
  staleMs: number;
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
  acquire(lockPath, options);
  try {
    return fn();
  } finally {
    fs.rmSync(lockPath, { force: true });
  }
}

function acquire(lockPath: string, { timeoutMs, staleMs }: LockOptions): void {
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
        `another members command is changing the config (lock ${lockPath}); try again, and if none is running, remove the lock file`,
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
