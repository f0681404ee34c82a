/** `members magic-link STUDENT`: stdout is the URL alone in table mode, so `url=$(…)` works. */
import { openJournal } from '../../audit/index.js';
import { MagicLink } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { MAGIC_LINK_VIEW } from './view.js';
import type { Session } from '../../session/session.js';
import { parseDuration } from '../../lib/values.js';
import { withOutput } from '../../session/run-kit.js';
import { createMagicLink } from '../../domain/magic-link.js';

/** The audit record never holds the URL: it is a credential. */
export async function magicLink(session: Session, input: string, opts: { expireIn: string; reason?: string }): Promise<void> {
  parseStudentKey(input);
  const expireIn = parseDuration(opts.expireIn, '--expire-in');
  assertFieldsBeforeChange(session.globals.fields, Object.keys(MagicLink.shape), MAGIC_LINK_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const journal = await openJournal(session, { command: 'magic-link', reason: opts.reason });
    await output.one(await createMagicLink(api, input, expireIn, { journal, beforeChange: () => session.announceChange() }), MAGIC_LINK_VIEW);
  }));
}
