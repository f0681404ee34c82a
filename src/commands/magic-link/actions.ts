/** `members magic-link STUDENT`: stdout is the URL alone in table mode, so `url=$(…)` works. */
import { openJournal, recorded } from '../../audit/index.js';
import { MagicLink } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { CliError, ExitCode, RouteMissError } from '../../lib/errors.js';
import { hasControls } from '../../output/sanitize.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import { magicLink as postMagicLink } from '../../api/endpoints/students.js';
import { MAGIC_LINK_VIEW } from './view.js';
import type { Session } from '../../session/session.js';
import { parseDuration } from '../../lib/values.js';
import { withOutput } from '../../session/run-kit.js';
import { resolveStudent, withGuess } from '../../domain/resolve.js';

/** The audit record never holds the URL: it is a credential. */
export async function magicLink(session: Session, input: string, opts: { expireIn: string; reason?: string }): Promise<void> {
  const key = parseStudentKey(input);
  const expireIn = parseDuration(opts.expireIn, '--expire-in');
  assertFieldsBeforeChange(session.globals.fields, Object.keys(MagicLink.shape), MAGIC_LINK_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    // The API has an endpoint by e-mail; documents and references need the id first.
    const byId = async () => ({ kind: 'id' as const, value: (await resolveStudent(api, input)).id });
    let target = key.kind === 'email' || key.kind === 'id' ? { kind: key.kind, value: key.value } : await byId();
    await session.announceChange();
    const journal = await openJournal(session, { command: 'magic-link', reason: opts.reason });
    // Never the URL: it logs the student in.
    const change = await journal.begin({
      action: 'magic-link', result: 'created', student: input, student_id: target.kind === 'id' ? target.value : undefined, expire_in: expireIn,
    });
    const { data } = await recorded(change, () => postMagicLink(api, target, expireIn).catch(async (error: unknown) => {
      // Laravel decodes %2F before routing: an e-mail with a "/" is a route miss, answered before any controller
      // ran (nothing was made), so the link is asked for by id instead.
      if (!(error instanceof RouteMissError) || target.kind !== 'email') throw await withGuess(api, key, input, error);
      target = await byId();
      return postMagicLink(api, target, expireIn);
    }), (answer) => ({
      request_id: answer.requestId, expire_in: answer.data.data.expire_in, student_id: target.kind === 'id' ? target.value : undefined,
    }));
    // A link is pasted into a browser or a chat as it is: one with control characters is refused, not repaired.
    if (hasControls(data.data.url) || /\s/.test(data.data.url)) {
      throw new CliError(
        'the server sent a magic link with control or invisible characters; it was created but is not printed. '
          + 'Report it to the platform, and create another once it is fixed', ExitCode.rejected,
      );
    }
    await output.one(data.data, MAGIC_LINK_VIEW);
  }));
}
