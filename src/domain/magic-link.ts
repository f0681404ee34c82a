/**
 * A magic link: a URL that logs the student in, so a credential. Its record
 * never holds the URL, and a URL with control or invisible characters is
 * refused rather than handed on (it is pasted into a browser or a chat as it
 * is). What `members magic-link` and the assistant's magic_link tool do.
 */
import type { MagicLink } from '../api/endpoints/schemas.js';
import type { Api } from '../api/client.js';
import { parseStudentKey, plainId } from '../api/endpoints/student-key.js';
import { magicLink as postMagicLink } from '../api/endpoints/students.js';
import { recorded, type Journal } from '../audit/journal.js';
import { CliError, ExitCode, RouteMissError } from '../lib/errors.js';
import { hasControls } from '../output/sanitize.js';
import { resolveStudent, withGuess, type StudentCache } from './resolve.js';

export interface MagicLinkOptions {
  /** Runs right before the link is asked for: the command announces it, the assistant asks the person; a throw cancels it. */
  beforeChange?: () => Promise<void>;
  /** Records the link (never its URL); read after beforeChange, which may open it. */
  journal?: Journal;
  /** The run's lookups, when the link is one row of a run (`members each`). */
  lookups?: StudentCache;
}

/** A link for the student `input` names, valid `expireIn` seconds. */
export async function createMagicLink(api: Api, input: string, expireIn: number, options: MagicLinkOptions = {}): Promise<MagicLink> {
  const key = parseStudentKey(input);
  // The API makes a link by e-mail or by id; any other key (a document, a reference, a phone) needs the id first.
  const byId = async () => ({ kind: 'id' as const, value: (await resolveStudent(api, input, { cache: options.lookups })).id });
  let target = key.kind === 'email' || plainId(key) ? { kind: key.kind, value: key.value } : await byId();
  await options.beforeChange?.();
  const change = await options.journal?.begin({
    action: 'magic-link', result: 'created', student: input, student_id: target.kind === 'id' ? target.value : undefined, expire_in: expireIn,
  });
  const send = () => postMagicLink(api, target, expireIn).catch(async (error: unknown) => {
    // Laravel decodes %2F before routing: an e-mail with a "/" is a route miss, answered before any controller
    // ran (nothing was made), so the link is asked for by id instead.
    if (!(error instanceof RouteMissError) || target.kind !== 'email') throw await withGuess(api, key, input, error);
    target = await byId();
    return postMagicLink(api, target, expireIn);
  });
  const { data } = change
    ? await recorded(change, send, (answer) => ({
      request_id: answer.requestId, expire_in: answer.data.data.expire_in, student_id: target.kind === 'id' ? target.value : undefined,
    }))
    : await send();
  const link = data.data;
  if (hasControls(link.url) || /\s/.test(link.url)) {
    throw new CliError(
      'the server sent a magic link with control or invisible characters; it was created but is not printed. '
        + 'Report it to the platform, and create another once it is fixed', ExitCode.rejected,
    );
  }
  return link;
}
