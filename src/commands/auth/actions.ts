import { AuthError, KeychainError, MissingCredentialsError, UsageError } from '../../lib/errors.js';
import { KEYCHAIN_SERVICE } from '../../lib/keychain.js';
import { DEFAULT_PROFILE, givenBaseUrl, maskSecret, namedProfile, originOf, validateBaseUrl, type Settings } from '../../config/settings.js';
import { storageOf, type Profile, type Tokens } from '../../config/store.js';
import type { Api } from '../../api/client.js';
import { readAll } from '../../lib/read-input.js';
import type { Session } from '../../session/session.js';
import { PROFILE_VIEW } from './view.js';

/**
 * A token with a line break or another control character (a paste gone
 * wrong, `echo` without -n is trimmed already) would be stored and break every
 * later request with a header error: refuse it at the door.
 */
function checkSecret(secret: string, what: string, { spaces }: { spaces: boolean }): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(secret) || (!spaces && /\s/.test(secret))) {
    throw new UsageError(`${what} holds a line break, ${spaces ? '' : 'a space '}or another control character; paste it again on one line (nothing was stored)`);
  }
}

/** `https://user:***@host`: a password in a base URL is never shown. */
function withoutPassword(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** One cheap authenticated request: refused tokens are exit 3. */
async function verify(api: Api): Promise<void> {
  await api.send({ method: 'GET', path: '/api/v1/products', query: { per_page: 1 } });
}

export interface LoginOptions {
  tokenStdin?: boolean;
  verify: boolean;
  activate?: boolean;
  /** The tokens go to the config file even where a keychain answers. */
  insecureStorage?: boolean;
}

export async function login(session: Session, opts: LoginOptions): Promise<void> {
  const { io, globals } = session;
  // The profile to write: named, else `default` (not the active one: logging in never overwrites it by surprise).
  const name = namedProfile(globals, io.env)?.value ?? DEFAULT_PROFILE;
  const given = givenBaseUrl(globals, io.env);
  if (!given) throw new UsageError('auth login needs --base-url URL (or MEMBERS_BASE_URL)');
  const baseUrl = validateBaseUrl(given.value).href.replace(/\/$/, '');
  const { keychainWanted, placeTokens } = await import('../../config/token-storage.js');
  const wanted = keychainWanted(io.env);

  const token = opts.tokenStdin
    ? (await readAll(io.stdin)).trim() || undefined
    : io.env.MEMBERS_TOKEN || await session.promptSecret('API token:');
  if (!token) {
    throw new UsageError('no API token: pipe it with --token-stdin, set MEMBERS_TOKEN, or run on a terminal to be prompted');
  }
  // A bearer token has no spaces (RFC 6750); the report's path tokens are only URL-encoded.
  checkSecret(token, 'the API token', { spaces: false });
  // With --token-stdin, stdin is spent: report tokens come from the environment only.
  const ask = (message: string) => (opts.tokenStdin ? Promise.resolve(undefined) : session.promptSecret(message));
  const developerToken = io.env.MEMBERS_DEVELOPER_TOKEN || await ask('Report developer token (optional):');
  const platformToken = io.env.MEMBERS_PLATFORM_TOKEN || await ask('Report platform token (optional):');
  for (const [secret, what] of [[developerToken, 'the report developer token'], [platformToken, 'the report platform token']] as const) {
    if (secret) checkSecret(secret, what, { spaces: true });
  }

  if (opts.verify) await verify(await session.connect(baseUrl, token));

  const store = await session.store('write');
  const messages = await session.messages();
  const existing = store.get(name);
  // Report tokens travel in the report's path: those of another host are never sent to this one.
  const oldHost = existing && (originOf(existing.base_url) ?? existing.base_url);
  const moved = oldHost !== undefined && oldHost !== originOf(baseUrl);
  // Report tokens not given again are kept, wherever they were (file or keychain item), unless the profile moves to another host.
  const earlier = existing && !(developerToken && platformToken) ? await earlierTokens(session, name, existing) : {};
  const kept = moved ? {} : earlier;
  const tokens: Tokens = { token, developer_token: developerToken || kept.developer_token, platform_token: platformToken || kept.platform_token };
  const insecure = Boolean(opts.insecureStorage);
  const placed = await placeTokens(name, { ...existing, base_url: baseUrl }, tokens, { insecure, keychain: () => session.keychain() });
  try {
    store.save(name, placed.profile);
  } catch (error) {
    // The profile does not name the item just made: leave no token behind.
    if (placed.created) (await session.keychain()).delete(placed.created);
    throw error;
  }
  if (moved && (earlier.developer_token || earlier.platform_token)) {
    messages.warn(`the report tokens of profile "${name}" were for ${oldHost} and are dropped; `
      + 'to use the report here, set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN and log in again (or log in on a terminal, which asks for them)');
  }
  if (opts.activate) store.setActive(name);
  if (placed.noKeychain && !insecure && wanted) {
    messages.warn(`no OS keychain answered (${placed.noKeychain}): the tokens are stored in plain text in ${store.path} (mode 0600); `
      + 'to choose the file and skip this warning, log in with --insecure-storage');
  }
  if (placed.leftover) {
    messages.warn(`the tokens stored earlier in the OS keychain could not be removed from it (${placed.leftover.reason}): `
      + `delete its item "${placed.leftover.account}" of service "${KEYCHAIN_SERVICE}" with the keychain's own tool, or run this login again once it answers`);
  }
  const active = store.active() === name ? ' (active)' : '';
  const where = placed.storage === 'keychain' ? placed.keychain : store.path;
  messages.notice(`✓ Logged in to ${new URL(baseUrl).host} as profile "${name}"${active}; the tokens are in ${where}`);
}

/** The tokens a profile stored before this login; none, with a warning, when its keychain does not answer. */
async function earlierTokens(session: Session, name: string, profile: Profile): Promise<Tokens> {
  try {
    return await session.storedTokens(name, profile);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    (await session.messages()).warn(`the report tokens of profile "${name}" are in the OS keychain, which did not answer (${error.reason}), and are not kept: `
      + 'give them in MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN (or on a terminal) to store them again');
    return {};
  }
}

export async function status(session: Session, opts: { offline?: boolean }): Promise<void> {
  const store = await session.store();
  const messages = await session.messages();
  // Offline too: the file's mode is what status is asked about.
  await session.warnIfConfigExposed();
  let settings: Settings;
  let failure: Error | undefined;
  try {
    settings = await session.settingsWithTokens('all');
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    // The tokens the environment gives still work: the keychain's silence is then a warning.
    settings = await session.settings();
    if (settings.token) messages.warn(error.message);
    else failure = error;
  }
  let works: string = opts.offline ? 'not checked' : 'no token';
  if (!settings.token) {
    failure ??= new MissingCredentialsError(`profile "${settings.profile}" has no API token: run \`members auth login\` or set MEMBERS_TOKEN`);
  } else if (!opts.offline) {
    try {
      await verify(await session.api());
      works = 'ok';
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      works = 'refused';
      failure = error;
    }
  }
  const unanswered: string[] = [];
  let reason = '';
  const rows = [];
  for (const [name, profile] of store.list()) {
    let shown: Shown;
    if (name === settings.profile) {
      shown = inForce(settings, works);
    } else {
      let tokens: Tokens = {};
      try {
        tokens = await session.storedTokens(name, profile);
      } catch (error) {
        if (!(error instanceof KeychainError)) throw error;
        unanswered.push(`"${name}"`);
        reason = error.reason;
      }
      shown = { base_url: profile.base_url, ...tokens, token_source: tokens.token ? 'profile' : null, status: null };
    }
    rows.push(describe(name, profile, shown, store.active()));
  }
  if (!rows.some((row) => row.name === settings.profile)) rows.push(describe(settings.profile, undefined, inForce(settings, works), store.active()));
  if (unanswered.length > 0) {
    messages.warn(`the tokens of profile${unanswered.length > 1 ? 's' : ''} ${unanswered.join(', ')} are in the OS keychain, which did not answer (${reason}); they are not shown`);
  }
  const output = await session.output();
  await output.list(rows, PROFILE_VIEW);
  await output.close();
  if (failure) throw failure;
}

/** What a row of auth status shows of a profile: its base URL and tokens, and where they come from. */
interface Shown extends Tokens {
  base_url?: string;
  token_source: string | null;
  status: string | null;
}

function inForce(settings: Settings, works: string): Shown {
  return {
    base_url: settings.baseUrl, token: settings.token, developer_token: settings.developerToken, platform_token: settings.platformToken,
    token_source: settings.tokenSource ?? null, status: works,
  };
}

function describe(name: string, profile: Profile | undefined, shown: Shown, active: string | undefined) {
  const { token, developer_token: developer, platform_token: platform } = shown;
  return {
    name,
    active: name === active ? 1 : 0,
    in_force: shown.status !== null,
    base_url: withoutPassword(shown.base_url ?? null),
    token: token ? maskSecret(token) : null,
    token_source: shown.token_source,
    report_tokens: developer && platform ? `${maskSecret(developer)} ${maskSecret(platform)}` : null,
    stored_in: storageOf(profile) ?? null,
    status: shown.status,
  };
}

export async function switchProfile(session: Session, name: string): Promise<void> {
  const store = await session.store('write');
  if (!store.setActive(name)) {
    const known = store.list().map(([n]) => n).join(', ') || 'none';
    throw new UsageError(`no profile named "${name}" (known: ${known}); create it with \`members auth login --profile ${name}\``);
  }
  (await session.messages()).notice(`✓ Active profile is now "${name}"`);
}

/** Forgets a profile's tokens wherever they are: its keychain item first (nothing changes when that keychain does not answer), then the file. */
export async function logout(session: Session): Promise<void> {
  const store = await session.store('write');
  const { profile } = await session.settings();
  const stored = store.get(profile);
  if (!stored) throw new UsageError(`no profile named "${profile}"; nothing to log out`);
  let where = storageOf(stored) === 'file' ? ` from ${store.path}` : '';
  if (stored.keychain) {
    const { NoKeychainError } = await import('../../lib/keychain.js');
    try {
      const keychain = await session.keychain();
      keychain.delete(stored.keychain);
      where = ` from ${keychain.name}`;
    } catch (error) {
      if (!(error instanceof NoKeychainError)) throw error;
      throw new KeychainError(
        `the tokens of profile "${profile}" are in the OS keychain (item "${stored.keychain}"), which did not answer: ${error.message}; `
          + 'nothing was changed: unlock it and run `members auth logout` again',
        error.message,
      );
    }
  }
  store.forgetTokens(profile);
  (await session.messages()).notice(`✓ Forgot the tokens of profile "${profile}"${where}`);
}

export async function printToken(session: Session): Promise<void> {
  const { token, profile } = await session.settingsWithTokens('api');
  if (!token) throw new MissingCredentialsError(`profile "${profile}" has no API token: run \`members auth login --profile ${profile}\``);
  session.io.stdout.write(`${token}\n`);
}
