/**
 * `--out FILE`, written by the atomic writer (src/lib/atomic-file.ts): a failure
 * or Ctrl-C never leaves a half-written file behind. Loaded only with --out:
 * crypto and the promise API of fs cost every other run 3-4 ms to load.
 */
import { stat } from 'node:fs/promises';
import { openAtomicFile } from '../lib/atomic-file.js';
import { UsageError } from '../lib/errors.js';
import type { Io } from '../lib/io.js';
import type { Destination } from './destination.js';

/** Text held back before a write to an --out file. */
// 16K characters: 64K ones became 128 KB two-byte strings in V8's large-object space, raising peak RSS (issue 16).
const FILE_CHUNK_CHARS = 16 * 1024;

export interface OutFileOptions {
  /**
   * Each text written reaches the file at once, and the file is in place from
   * the first one (AtomicFile.publish): a run killed outright leaves the
   * records written so far, complete lines only (`members each --out F.csv`).
   * Nothing written: the file appears at close, as any other.
   */
  growing?: boolean;
}

/**
 * `path` is absolute. Opened at once so that a bad path fails before any
 * request is sent. A run that quits at once (a second signal) removes the
 * temporary file as it goes (io.atQuit); one killed outright leaves it
 * named with its pid, for the next write to `path` to remove.
 */
export async function openOutFile(path: string, io: Pick<Io, 'pid' | 'isRunning' | 'atQuit'> = {}, options: OutFileOptions = {}): Promise<Destination> {
  // The rename at the end would fail on a directory, after every request: refuse it now.
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`cannot write --out ${path}: it is a directory; give a file name`);
  const { pid, isRunning } = io;
  const owner = pid !== undefined && isRunning ? { pid, isRunning } : undefined;
  const atomic = await openAtomicFile(path, owner).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot write --out ${path}: ${error.code ?? error.message}`);
  });
  const forget = io.atQuit?.(() => atomic.removeNow()) ?? (() => undefined);
  // Rows go to the file in chunks, not one write each: a 100,000-row export
  // spent an eighth of its CPU time in its 100,000 writes. Nothing reads the
  // temporary file before close(), so holding a chunk back costs nothing.
  let pending = '';
  const flush = () => {
    const chunk = pending;
    pending = '';
    atomic.write(chunk);
  };
  // The writes are synchronous: the caller never has to wait, and hears of a failure (a full disk) at once.
  const attempt = (step: () => void) => {
    try {
      step();
    } catch (error) {
      return Promise.reject(error);
    }
    return undefined;
  };
  return {
    write(text) {
      pending += text;
      if (!options.growing) return pending.length < FILE_CHUNK_CHARS ? undefined : attempt(flush);
      return attempt(() => {
        flush();
        atomic.publish();
      });
    },
    writeBytes: (bytes) => attempt(() => {
      if (pending !== '') flush();
      atomic.write(bytes);
    }),
    isTTY: false,
    columns: undefined,
    async close() {
      if (pending !== '') flush();
      await atomic.commit().finally(forget);
    },
    // The result is thrown away: a write error no longer matters, only that no file is left.
    abort: () => atomic.discard().finally(forget),
  };
}
