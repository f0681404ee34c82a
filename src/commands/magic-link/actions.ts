/** `members magic-link STUDENT`: stdout is the URL alone in table mode, so `url=$(…)` works. */
import { openJournal } from '../../audit/index.js';
import { MagicLink } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { MAGIC_LINK_VIEW } from './view.js';
import type { Session } from '../../session/session.js';
import { UsageError } from '../../lib/errors.js';
import { parseDuration } from '../../lib/values.js';
import { withOutput } from '../../session/run-kit.js';
import { createMagicLink } from '../../domain/magic-link.js';
import { reasonFlag } from '../shared/command-kit.js';
import { fileWaitMs } from '../shared/lease.js';

/** The audit record never holds the URL: it is a credential. */
export async function magicLink(session: Session, input: string | undefined, opts: { expireIn: string; reason?: string; file?: string; wait?: string }): Promise<void> {
  const wait = fileWaitMs(opts.wait, opts.file);
  if (opts.file !== undefined) {
    if (input !== undefined) throw new UsageError('give either STUDENT or --file FILE, not both');
    parseDuration(opts.expireIn, '--expire-in');
    const { runShorthand, STUDENT_COLUMN } = await import('../shared/each/shorthand.js');
    return runShorthand(session, { file: opts.file, command: ['magic-link'], columns: [STUDENT_COLUMN], flags: ['--expire-in', opts.expireIn, ...reasonFlag(opts.reason)], waitMs: wait });
  }
  if (input === undefined) throw new UsageError('missing STUDENT (or --file FILE for a link per row of a CSV file); see `members magic-link --help`');
  parseStudentKey(input);
  const expireIn = parseDuration(opts.expireIn, '--expire-in');
  assertFieldsBeforeChange(session.globals.fields, Object.keys(MagicLink.shape), MAGIC_LINK_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const journal = await openJournal(session, { command: 'magic-link', reason: opts.reason });
    await output.one(await createMagicLink(api, input, expireIn, { journal, lookups: session.lookups, beforeChange: () => session.announceChange() }), MAGIC_LINK_VIEW);
  }));
}
