/**
 * Files replaced in one step, the one way members writes them (`--out`, the
 * sandbox's data file, bin's code cache): into a temporary file beside the
 * target, flushed to disk, then renamed over it. A reader sees the old file
 * or the new one, never half of one, even after a crash or a power cut; a
 * failure or a discard leaves no temporary file behind. Imports only Node,
 * so that any layer may use it (the sandbox included).
 */
import { randomBytes } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';

export interface AtomicFile {
  /** Where the content goes; a write error surfaces from `commit()`. */
  readonly stream: WriteStream;
  /** Ends the stream, waits for the data to reach the disk, and renames the file into place. */
  commit(): Promise<void>;
  /** Gives the content up; the target is left as it was. */
  discard(): Promise<void>;
}

/**
 * Opens the temporary file at once, so that a bad path fails before any work.
 * 0600: what is written holds personal data; `wx`: never through a file or a
 * link someone placed there.
 */
export async function openAtomicFile(path: string): Promise<AtomicFile> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  // flush: fsync before closing, so that the renamed file holds its data even after a power cut.
  const stream = handle.createWriteStream({ flush: true });
  // A failure is reported by commit() (through `finished`), not as an unhandled 'error' event.
  stream.on('error', () => undefined);
  const discard = async () => {
    stream.destroy();
    await finished(stream).catch(() => undefined);
    await rm(temporary, { force: true });
  };
  return {
    stream,
    async commit() {
      try {
        stream.end();
        await finished(stream);
        await rename(temporary, path);
      } catch (error) {
        await discard();
        throw error;
      }
    },
    discard,
  };
}

/** Replaces `path` with `data`. */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const file = await openAtomicFile(path);
  file.stream.write(data);
  await file.commit();
}
