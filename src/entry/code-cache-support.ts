/** What bin/code-cache.js needs of the bundle, loaded only when it asks. */
import { configDir } from '../config/paths.js';
import { firstTime } from '../config/told-once.js';

/** For bin/members.js, which saves its code cache after a run: the one atomic writer, loaded only then. */
export async function writeFileAtomically(path: string, data: Uint8Array): Promise<void> {
  const atomic = await import('../lib/atomic-file.js');
  await atomic.writeFileAtomically(path, data);
}

/** For bin/code-cache.js: true the first time it tells the user about `subject` (remembered in the config directory). */
export function firstTimeTold(env: Record<string, string | undefined>, subject: string): boolean {
  return firstTime(configDir(env), subject);
}
