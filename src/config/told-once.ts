/**
 * Notices said once, not on every run (bin's refusal of a code cache it may
 * not trust): what was told is remembered in the config directory, one
 * subject a line; delete the file to be told again.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOLD_ONCE_FILE = 'told-once';

/** True the first time it is asked about `subject` (it is remembered then); false after. */
export function firstTime(dir: string, subject: string): boolean {
  const line = JSON.stringify(subject);
  const file = join(dir, TOLD_ONCE_FILE);
  try {
    if (readFileSync(file, 'utf8').split('\n').includes(line)) return false;
  } catch {
    // Nothing told yet.
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(file, `${line}\n`, { mode: 0o600 });
  } catch {
    // A config directory that cannot be written: told again next time.
  }
  return true;
}
