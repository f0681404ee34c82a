/**
 * A magic link: a URL that logs the student in, so a credential. Its record
 * never holds the URL, and a URL with control or invisible characters is
 * refused rather than handed on (it is pasted into a browser or a chat as it
 * is). What `members magic-link` and the assistant's magic_link tool do.
 */
import type { MagicLink } from '../api/endpoints/schemas.js';
import type { Api } from '../api/client.js';
import { parseStudentKey } from '../api/endpoints/student-key.js';
import { magicLink as postMagicLink } from '../api/endpoints/students.js';
import { recorded, type Journal } from '../audit/journal.js';
import { CliError, ExitCode, NotFoundError, RouteMissError } from '../lib/errors.js';
import { findByPhone, phoneDigits, punctuatedPhone, type FoundByPhone } from './phone.js';
import { hasControls } from '../output/sanitize.js';
import { resolveStudent, withGuess } from './resolve.js';

export interface MagicLinkOptions {
  /** Told when the student was found by a phone number (how many requests it took). */
  onPhone?: (found: FoundByPhone) => void;
  /** Runs right before the link is asked for: the command announces it, the assistant asks the person; a throw cancels it. */
  beforeChange?: () => Promise<void>;
  /** Records the link (never its URL); read after beforeChange, which may open it. */
  journal?: Journal;
}

/** A link for the student `input` names, valid `expireIn` seconds. */
export async function createMagicLink(api: Api, input: string, expireIn: number, options: MagicLinkOptions = {}): Promise<MagicLink> {
  // A phone written as one (+55 61 93986-2924, (61) 93986-2924) is only a phone; bare digits are a CPF or an id first.
  const key = punctuatedPhone(input) ? undefined : parseStudentKey(input);
  const phone = phoneDigits(input) !== undefined;
  const byPhone = async () => {
    const found = await findByPhone(api, input);
    options.onPhone?.(found);
    return { kind: 'id' as const, value: found.student.id };
  };
  // The API has an endpoint by e-mail; documents and references need the id first; bare digits that name nobody may be a phone.
  const byId = async () => ({ kind: 'id' as const, value: (await resolveStudent(api, input, { fetch: phone })).id });
  const byIdOrPhone = () => byId().catch((error: unknown) => {
    if (!phone || !(error instanceof NotFoundError) || error instanceof RouteMissError) throw error;
    // Nobody's phone either: the first answer stands, with its guess (lookUpStudent's: a CPF typed with wrong check digits).
    return byPhone().catch((byPhoneError: unknown) => {
      throw byPhoneError instanceof CliError && byPhoneError.exitCode === ExitCode.notFound ? error : byPhoneError;
    });
  });
  let target = key === undefined ? await byPhone()
    : key.kind === 'email' || (key.kind === 'id' && !phone) ? { kind: key.kind, value: key.value } : await byIdOrPhone();
  await options.beforeChange?.();
  const change = await options.journal?.begin({
    action: 'magic-link', result: 'created', student: input, student_id: target.kind === 'id' ? target.value : undefined, expire_in: expireIn,
  });
  const send = () => postMagicLink(api, target, expireIn).catch(async (error: unknown) => {
    // Laravel decodes %2F before routing: an e-mail with a "/" is a route miss, answered before any controller
    // ran (nothing was made), so the link is asked for by id instead.
    if (!(error instanceof RouteMissError) || target.kind !== 'email' || key === undefined) throw await withGuess(api, key ?? { kind: 'id', value: input }, input, error);
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
