/** One walk of the students with their subscriptions (domain/snapshot.ts), as a command that plans from it reads it. */
import type { Api } from '../../api/client.js';
import { InterruptedError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import type { Messages } from '../../output/messages.js';
import { readSnapshot, type Snapshot } from '../../domain/snapshot.js';
import type { Session } from '../../session/session.js';

/** With a spinner on a terminal; Ctrl-C (or SIGTERM) stops it, exit 130, nothing changed. */
export async function readState(session: Session, api: Api, messages: Messages): Promise<Snapshot> {
  const abort = new AbortController();
  const stop = () => abort.abort(new InterruptedError('interrupted while reading the student list; nothing was changed'));
  const removers = [session.io.onInterrupt(stop), session.io.onTerminate?.(stop)];
  const spinner = await messages.spinner('Reading the students and their subscriptions…');
  try {
    return await readSnapshot(api, { signal: abort.signal, onPage: (pages) => spinner.update(`Reading the student list: ${plural(pages, 'page')}…`) });
  } finally {
    spinner.stop();
    removers.forEach((remove) => remove?.());
  }
}
