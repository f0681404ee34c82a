import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CliError } from '../../../src/lib/errors.js';
import { acquireFileLock, withFileLock } from '../../../src/config/lock.js';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'members-'));
  lock = path.join(dir, 'config.json.lock');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('withFileLock', () => {
  it('holds the lock file only while the function runs, even when it throws', () => {
    expect(withFileLock(lock, () => fs.existsSync(lock))).toBe(true);
    expect(fs.existsSync(lock)).toBe(false);
    expect(() =>
      withFileLock(lock, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('gives up after the timeout while another holder keeps a fresh lock, leaving that lock alone', () => {
    fs.writeFileSync(lock, '');
    // A clock that moves 10 ms each time it is read: the lock gives up by the clock, not by a stopwatch.
    const started = Date.now();
    let now = started;
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 10));
    let error: unknown;
    try {
      withFileLock(lock, () => 'never', { timeoutMs: 200, staleMs: 30_000 });
    } catch (caught) {
      error = caught;
    } finally {
      vi.restoreAllMocks();
    }
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: 6 });
    expect((error as Error).message).toContain(lock);
    // It kept trying until the deadline, and gave up at the first look past it.
    expect(now - started).toBeGreaterThanOrEqual(200);
    expect(now - started).toBeLessThan(260);
    expect(fs.existsSync(lock)).toBe(true);
  });

  it('removes a stale lock left by a crashed process', () => {
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    expect(withFileLock(lock, () => 'ran', { timeoutMs: 200, staleMs: 30_000 })).toBe('ran');
  });
});

describe('acquireFileLock', () => {
  it('holds the lock across work until released; refresh makes an old lock fresh again, so no waiter takes it for a crash', () => {
    const held = acquireFileLock(lock, { timeoutMs: 200, staleMs: 30_000 });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    held.refresh();
    expect(Date.now() - fs.statSync(lock).mtimeMs).toBeLessThan(10_000);
    expect(() => withFileLock(lock, () => 'never', { timeoutMs: 50, staleMs: 30_000, guards: 'the audit log' }))
      .toThrow(`another members command is changing the audit log (lock ${lock})`);
    held.release();
    expect(fs.existsSync(lock)).toBe(false);
  });
});
