/**
 * An output file that names the command's input would replace the input as
 * the command writes it (`students grant --file F --out F`): refused before
 * anything is read or sent (exit 2). Paths are compared as the system sees
 * them: relative to the working directory, through symbolic links.
 */
import { realpathSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { UsageError } from '../../lib/errors.js';

/** The file `path` is, or would be once written (its directory's real path and its name). */
function realPath(cwd: string, path: string): string {
  const full = resolve(cwd, path);
  try {
    return realpathSync(full);
  } catch {
    try {
      return join(realpathSync(dirname(full)), basename(full));
    } catch {
      return full;
    }
  }
}

/** `input`: the command's file (`-`: stdin, nothing to compare); `outputs`: each output flag and its file, if given. */
export function refuseOutputOverInput(cwd: string, input: string, outputs: ReadonlyArray<readonly [flag: string, path: string | undefined]>): void {
  if (input === '-') return;
  const read = realPath(cwd, input);
  for (const [flag, path] of outputs) {
    if (path === undefined || path === '-' || realPath(cwd, path) !== read) continue;
    throw new UsageError(`${flag} ${path} names the input file ${input}: writing it would replace the rows being read. Give ${flag} another file name; nothing was sent`);
  }
}
