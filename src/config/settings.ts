import net from 'node:net';
import { MissingCredentialsError, UsageError } from '../lib/errors.js';
import { chosenProfile, first, givenBaseUrl, type Source } from './precedence.js';
import { storageOf, type Profile, type ProfileStore, type Storage, type Tokens } from './store.js';

export { DEFAULT_PROFILE, givenBaseUrl, namedProfile, type Source } from './precedence.js';

export interface Settings {
  profile: string;
  profileSource: Source;
  /** As given: the HTTP layer checks it with `validateBaseUrl`. */
  baseUrl?: string;
  baseUrlSource?: Source;
  token?: string;
  tokenSource?: Source;
  developerToken?: string;
  developerTokenSource?: Source;
  platformToken?: string;
  platformTokenSource?: Source;
  /** The profile as stored (its own base URL, and its tokens once read), when it exists. */
  stored?: Profile;
  /** Where the profile keeps its tokens, when it keeps any. */
  storage?: Storage;
  /** The keychain item holding them, when they are there (read only when a token is needed: Session.settingsWithTokens). */
  keychainItem?: string;
  /** Set once the tokens of that item are read into these settings (`stored` then holds them). */
  keychainRead?: true;
}

/** The tokens read from a keychain item, for the profile that names it. */
export interface Revealed {
  account: string;
  tokens: Tokens;
}

/** Contract §1.1: flag > environment > profile > default. No flag ever carries a secret. */
export function resolveSettings(
  flags: { profile?: string; baseUrl?: string },
  env: Record<string, string | undefined>,
  store: ProfileStore,
  revealed?: Revealed,
): Settings {
  const { value: profileName, source: profileSource } = chosenProfile(flags, env, () => store.active());
  const found = store.get(profileName);
  const profile = found?.keychain && found.keychain === revealed?.account ? { ...found, ...revealed.tokens } : found;
  const baseUrl = givenBaseUrl(flags, env) ?? first(['profile', profile?.base_url]);
  // A profile named by --profile or MEMBERS_PROFILE, without a base URL from elsewhere: a mistyped name would only fail later, less clearly.
  const named = profileSource === 'flag' || profileSource === 'env';
  if (named && !profile && !baseUrl) throw unknownProfile(profileName, profileSource, store);
  const token = first(['env', env.MEMBERS_TOKEN], ['profile', profile?.token]);
  const developer = first(['env', env.MEMBERS_DEVELOPER_TOKEN], ['profile', profile?.developer_token]);
  const platform = first(['env', env.MEMBERS_PLATFORM_TOKEN], ['profile', profile?.platform_token]);
  return {
    profile: profileName,
    profileSource,
    baseUrl: baseUrl?.value,
    baseUrlSource: baseUrl?.source,
    token: token?.value,
    tokenSource: token?.source,
    developerToken: developer?.value,
    developerTokenSource: developer?.source,
    platformToken: platform?.value,
    platformTokenSource: platform?.source,
    stored: profile,
    storage: storageOf(found),
    keychainItem: found?.keychain,
    ...(profile !== found ? { keychainRead: true } : {}),
  };
}

/** The tokens of a run, with the variable that gives each and the field that stores it. */
const TOKENS = [
  { what: 'API token', variable: 'MEMBERS_TOKEN', value: (s: Settings) => s.token, source: (s: Settings) => s.tokenSource, stored: (p: Profile) => p.token },
  { what: 'report developer token', variable: 'MEMBERS_DEVELOPER_TOKEN', value: (s: Settings) => s.developerToken, source: (s: Settings) => s.developerTokenSource, stored: (p: Profile) => p.developer_token },
  { what: 'report platform token', variable: 'MEMBERS_PLATFORM_TOKEN', value: (s: Settings) => s.platformToken, source: (s: Settings) => s.platformTokenSource, stored: (p: Profile) => p.platform_token },
] as const;

/** The profile keeps its tokens in a keychain item, not read into these settings yet. */
const unread = (settings: Settings) => settings.keychainItem !== undefined && settings.keychainRead !== true;

/** Where a base URL's tokens may go (scheme, host, port); undefined when there is none or it does not parse. */
export const originOf = (url: string | undefined): string | undefined => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A token stored in a profile is sent only to that profile's origin: a base
 * URL from --base-url or MEMBERS_BASE_URL for another origin needs its
 * tokens from the environment too. The error (exit 3) says which token
 * belongs to which host, before any request.
 */
export function checkTokenOrigins(settings: Settings, tokens: 'api' | 'report'): void {
  const own = originOf(settings.stored?.base_url);
  const here = originOf(settings.baseUrl);
  if (own === undefined || here === undefined || own === here || settings.baseUrlSource === 'profile') return;
  const wanted = tokens === 'api' ? TOKENS.slice(0, 1) : TOKENS.slice(1);
  // A keychain item not read yet is not read for this: the tokens the environment does not give would come from it.
  const foreign = wanted.filter((token) => token.source(settings) === 'profile' || (token.value(settings) === undefined && unread(settings)));
  if (foreign.length === 0) return;
  const from = settings.baseUrlSource === 'flag' ? '--base-url' : 'MEMBERS_BASE_URL';
  const names = foreign.map((token) => token.what).join(' and ');
  const variables = foreign.map((token) => token.variable).join(' and ');
  throw new MissingCredentialsError(
    `the ${names} of profile "${settings.profile}" belong${foreign.length === 1 ? 's' : ''} to ${own}, but the base URL in force is ${here} (from ${from}); `
      + `${foreign.length === 1 ? 'it is' : 'they are'} not sent there. Set ${variables} to ${foreign.length === 1 ? 'a token' : 'tokens'} of ${here}, `
      + `or drop ${from} to use ${own}`,
  );
}

/**
 * Tokens from the environment that override the ones the profile stores,
 * sent to the profile's own host: one warning each (as gh warns for GH_TOKEN).
 */
export function overriddenTokens(settings: Settings, tokens: 'api' | 'report'): string[] {
  const { stored } = settings;
  if (!stored || settings.baseUrlSource !== 'profile') return [];
  const host = originOf(settings.baseUrl) ?? settings.baseUrl;
  const wanted = tokens === 'api' ? TOKENS.slice(0, 1) : TOKENS.slice(1);
  // A keychain item is not read for a warning: it holds an API token (every login stores one), perhaps no report tokens.
  const keeps = (token: (typeof TOKENS)[number]) => {
    const own = token.stored(stored);
    return own ? own !== token.value(settings) : token === TOKENS[0] && unread(settings);
  };
  return wanted.filter((token) => token.source(settings) === 'env' && keeps(token))
    .map((token) => `${token.variable} overrides the ${token.what} stored in profile "${settings.profile}" and is sent to its host, ${host}; `
      + `unset ${token.variable} to use the profile's own`);
}

function unknownProfile(name: string, source: Source, store: ProfileStore): UsageError {
  const origin = source === 'flag' ? '--profile' : 'MEMBERS_PROFILE';
  const names = store.list().map(([known]) => known);
  const known = names.length > 0 ? `known profiles: ${names.join(', ')}` : 'no profiles are configured yet';
  return new UsageError(
    `profile "${name}" (from ${origin}) does not exist in ${store.path}; ${known}. ` +
      `To create it: members auth login --profile ${name} --base-url URL`,
  );
}

/** Enough to tell two secrets apart, never enough to rebuild one. */
export function maskSecret(secret: string): string {
  if (secret.length >= 12) return `${secret.slice(0, 4)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `…${secret.slice(-2)}`;
  return '***';
}

/**
 * Checks a base URL before any request (contract §7.1): https anywhere, plain
 * http only to this machine, where nothing crosses a network. Trailing
 * slashes are removed from the path, which is kept as a prefix
 * (`https://host/members/` → pathname `/members`; a bare host keeps `/`).
 */
export function validateBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: it may hold a credential the parser could not separate.
    throw new UsageError('invalid base URL: expected a full URL such as https://members.example.com');
  }
  if (url.username || url.password) {
    // Not echoed: the URL holds a credential.
    throw new UsageError(
      'the base URL must not contain a user name or password: remove "user:password@" and give the token with `members auth login` or MEMBERS_TOKEN',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`unsupported scheme "${url.protocol}" in base URL: use https://`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// to ${url.hostname}: the token would travel unencrypted; use https:// (http:// is accepted only for localhost, 127.0.0.0/8 and [::1])`,
    );
  }
  if (url.search || url.hash) {
    throw new UsageError(`the base URL ${url.origin}${url.pathname} must not have a query or fragment: remove the part after "?" or "#"`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

// The URL parser has already normalised IPv4 (`127.1` → `127.0.0.1`) and IPv6
// (`[0:0::1]` → `[::1]`), so exact checks are safe; `127.evil.com` is a name.
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || (net.isIPv4(hostname) && hostname.startsWith('127.'));
}
