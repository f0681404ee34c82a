import { AuthError, MissingCredentialsError, UsageError } from '../../lib/errors.js';
import { DEFAULT_PROFILE, givenBaseUrl, maskSecret, namedProfile, validateBaseUrl, type Settings } from '../../config/settings.js';
import type { Profile } from '../../config/store.js';
import type { Api } from '../../api/client.js';
import { readAll } from '../../lib/read-input.js';
import type { Session } from '../../session/session.js';
import { PROFILE_VIEW } from '../../views/profiles.js';

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

export async function login(session: Session, opts: { tokenStdin?: boolean; verify: boolean; activate?: boolean }): Promise<void> {
  const { io, globals } = session;
  // The profile to write: named, else `default` (not the active one: logging in never overwrites it by surprise).
  const name = namedProfile(globals, io.env)?.value ?? DEFAULT_PROFILE;
  const given = givenBaseUrl(globals, io.env);
  if (!given) throw new UsageError('auth login needs --base-url URL (or MEMBERS_BASE_URL)');
  const baseUrl = validateBaseUrl(given.value).href.replace(/\/$/, '');

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
  const profile: Profile = { ...store.get(name), base_url: baseUrl, token };
  if (developerToken) profile.developer_token = developerToken;
  if (platformToken) profile.platform_token = platformToken;
  store.save(name, profile);
  if (opts.activate) store.setActive(name);
  const active = store.active() === name ? ' (active)' : '';
  (await session.messages()).notice(`✓ Logged in to ${new URL(baseUrl).host} as profile "${name}"${active}`);
}

export async function status(session: Session, opts: { offline?: boolean }): Promise<void> {
  const store = await session.store();
  const settings = await session.settings();
  let works: string = opts.offline ? 'not checked' : 'no token';
  let failure: Error | undefined;
  if (!settings.token) {
    failure = new MissingCredentialsError(`profile "${settings.profile}" has no API token: run \`members auth login\` or set MEMBERS_TOKEN`);
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
  const rows = store.list().map(([name, profile]) => describe(name, profile, settings, store.active(), works));
  if (!rows.some((row) => row.name === settings.profile)) {
    rows.push(describe(settings.profile, undefined, settings, store.active(), works));
  }
  const output = await session.output();
  await output.list(rows, PROFILE_VIEW);
  await output.close();
  if (failure) throw failure;
}

function describe(name: string, profile: Profile | undefined, settings: Settings, active: string | undefined, works: string) {
  const inForce = name === settings.profile;
  const token = inForce ? settings.token : profile?.token;
  const developer = inForce ? settings.developerToken : profile?.developer_token;
  const platform = inForce ? settings.platformToken : profile?.platform_token;
  return {
    name,
    active: name === active ? 1 : 0,
    in_force: inForce,
    base_url: withoutPassword((inForce ? settings.baseUrl : profile?.base_url) ?? null),
    token: token ? maskSecret(token) : null,
    token_source: inForce ? settings.tokenSource ?? null : token ? 'profile' : null,
    report_tokens: developer && platform ? `${maskSecret(developer)} ${maskSecret(platform)}` : null,
    status: inForce ? works : null,
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

export async function logout(session: Session): Promise<void> {
  const store = await session.store('write');
  const { profile } = await session.settings();
  if (!store.forgetTokens(profile)) throw new UsageError(`no profile named "${profile}"; nothing to log out`);
  (await session.messages()).notice(`✓ Forgot the tokens of profile "${profile}"`);
}

export async function printToken(session: Session): Promise<void> {
  const { token, profile } = await session.settings();
  if (!token) throw new MissingCredentialsError(`profile "${profile}" has no API token: run \`members auth login --profile ${profile}\``);
  session.io.stdout.write(`${token}\n`);
}
