import net from 'node:net';
import { UsageError } from '../lib/errors.js';
import { chosenProfile, first, givenBaseUrl, type Source } from './precedence.js';
import { storageOf, type ProfileStore, type Storage, type Tokens } from './store.js';

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
  platformToken?: string;
  /** Where the profile keeps its tokens, when it keeps any. */
  storage?: Storage;
  /** The keychain item holding them, when they are there (read only when a token is needed: Session.settingsWithTokens). */
  keychainItem?: string;
}

/** The tokens read from a keychain item, for the profile that names it. */
export interface Revealed {
  account: string;
  tokens: Tokens;
}

/** Contract §1: flag > environment > profile > default. No flag ever carries a secret. */
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
  return {
    profile: profileName,
    profileSource,
    baseUrl: baseUrl?.value,
    baseUrlSource: baseUrl?.source,
    token: token?.value,
    tokenSource: token?.source,
    developerToken: first(['env', env.MEMBERS_DEVELOPER_TOKEN], ['profile', profile?.developer_token])?.value,
    platformToken: first(['env', env.MEMBERS_PLATFORM_TOKEN], ['profile', profile?.platform_token])?.value,
    storage: storageOf(found),
    keychainItem: found?.keychain,
  };
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
 * Checks a base URL before any request (contract §6): https anywhere, plain
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
