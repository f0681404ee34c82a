/**
 * Files replaced in one step, the one way members writes them (`--out`, the
 * sandbox's data file, bin's code cache): into a temporary file beside the
 * target, flushed to disk, then renamed over it. A reader sees the old file
 * or the new one, never half of one, even after a crash or a power cut; a
 * failure or a discard leaves no temporary file behind. Imports only Node,
 * so that any layer may use it (the sandbox included).
 *
 * A process killed outright (SIGKILL, a power cut) cannot remove its
 * temporary file: given its owner's pid, the file is named
 * `.NAME.PID.HEX.tmp`, and the next write to the same target removes those
 * of processes that no longer run.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicFile {
  /**
   * Appends to the temporary file, synchronously, as Node writes stdout to a
   * file: a local disk takes a chunk in microseconds, where a write stream
   * cost a million-row export 0.4 s of its 7 (a promise, a thread-pool hop
   * and a Buffer per chunk). A write error (a full disk) is thrown here.
   */
  write(data: string | Uint8Array): void;
  /** Waits for the data to reach the disk, and renames the file into place. */
  commit(): Promise<void>;
  /** Gives the content up; the target is left as it was. */
  discard(): Promise<void>;
  /** Removes the temporary file synchronously, for a process about to quit at once; the target is left as it was. */
  removeNow(): void;
  /**
   * Renames the file into place now, unfinished: later writes go on into it,
   * commit() then only flushes and closes it, and discard() and removeNow()
   * leave it. For a file read as it grows (`members each --out`), where a
   * process killed outright must leave what it wrote.
   */
  publish(): void;
}

/** The process writing, so that a later one can tell its temporary files from a live writer's. */
export interface Owner {
  pid: number;
  isRunning(pid: number): boolean;
}

/**
 * Opens the temporary file at once, so that a bad path fails before any work.
 * 0600: what is written holds personal data; `wx`: never through a file or a
 * link someone placed there. With an `owner`, the temporary files a killed
 * writer of the same target left are removed first.
 */
export async function openAtomicFile(path: string, owner?: Owner): Promise<AtomicFile> {
  if (owner) removeOrphans(path, owner);
  const mark = owner ? `${owner.pid}.` : '';
  const temporary = join(dirname(path), `.${basename(path)}.${mark}${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  let published = false;
  const discard = async () => {
    await handle.close().catch(() => undefined);
    if (!published) await rm(temporary, { force: true });
  };
  return {
    write(data) {
      if (typeof data !== 'string') return writeAll(handle.fd, data);
      // A string is encoded by the write itself, into no Buffer of ours; a short write (rare: a disk filling up) goes on as bytes.
      const written = writeSync(handle.fd, data);
      if (written < Buffer.byteLength(data)) writeAll(handle.fd, Buffer.from(data).subarray(written));
    },
    async commit() {
      try {
        // fsync before the rename, so that the renamed file holds its data even after a power cut.
        await handle.sync();
        await handle.close();
        if (!published) await rename(temporary, path);
      } catch (error) {
        await discard();
        throw error;
      }
    },
    discard,
    removeNow: () => {
      if (!published) rmSync(temporary, { force: true });
    },
    publish() {
      if (!published) renameSync(temporary, path);
      published = true;
    },
  };
}

/** `.NAME.PID.HEX.tmp`: a temporary file of `path`, and the pid of its writer. */
function temporaryOf(path: string): RegExp {
  const name = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${name}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`);
}

/** Removes the temporary files of `path` whose writers no longer run (killed: SIGKILL, a power cut). */
function removeOrphans(path: string, owner: Owner): void {
  const pattern = temporaryOf(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? owner.pid);
    if (pid !== owner.pid && !owner.isRunning(pid)) rmSync(join(dirname(path), name), { force: true });
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
}

/** Replaces `path` with `data`. */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const file = await openAtomicFile(path);
  try {
    file.write(data);
  } catch (error) {
    await file.discard();
    throw error;
  }
  await file.commit();
}
