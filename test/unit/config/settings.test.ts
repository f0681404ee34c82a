import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { checkTokenOrigins, maskSecret, originOf, overriddenTokens, resolveSettings, validateBaseUrl } from '../../../src/config/settings.js';
import { MissingCredentialsError } from '../../../src/lib/errors.js';
import { memoryProfileStore } from '../../../src/config/store.js';

const store = () =>
  memoryProfileStore({
    active: 'production',
    profiles: {
      production: { base_url: 'https://members.example.com', token: 'tok-prod', developer_token: 'dev-prod', platform_token: 'plat-prod' },
      staging: { base_url: 'https://staging.example.com', token: 'tok-staging' },
    },
  });

describe('resolveSettings', () => {
  it('takes everything from the active profile when nothing else is given', () => {
    expect(resolveSettings({}, {}, store())).toEqual({
      profile: 'production',
      profileSource: 'profile',
      baseUrl: 'https://members.example.com',
      baseUrlSource: 'profile',
      token: 'tok-prod',
      tokenSource: 'profile',
      developerToken: 'dev-prod',
      developerTokenSource: 'profile',
      platformToken: 'plat-prod',
      platformTokenSource: 'profile',
      stored: store().get('production'),
      storage: 'file',
    });
  });

  it('a profile that keeps its tokens in the keychain has none until they are read from its item, and takes only its own item\'s', () => {
    const keychained = memoryProfileStore({ profiles: { default: { base_url: 'https://members.example.com', keychain: 'default/0a1b2c3d' } } });
    expect(resolveSettings({}, {}, keychained)).toMatchObject({ token: undefined, storage: 'keychain', keychainItem: 'default/0a1b2c3d' });
    const tokens = { token: 'tok-kc', developer_token: 'dev-kc', platform_token: 'plat-kc' };
    expect(resolveSettings({}, {}, keychained, { account: 'default/0a1b2c3d', tokens })).toMatchObject({
      token: 'tok-kc', tokenSource: 'profile', developerToken: 'dev-kc', platformToken: 'plat-kc', storage: 'keychain',
    });
    expect(resolveSettings({}, {}, keychained, { account: 'other/0a1b2c3d', tokens }).token).toBeUndefined();
    expect(resolveSettings({}, { MEMBERS_TOKEN: 'tok-env' }, keychained, { account: 'default/0a1b2c3d', tokens })).toMatchObject({ token: 'tok-env', tokenSource: 'env' });
  });

  it('prefers the flag to the environment, and the environment to the profile, for the profile name', () => {
    const env = { MEMBERS_PROFILE: 'staging' };
    expect(resolveSettings({}, env, store())).toMatchObject({ profile: 'staging', profileSource: 'env', token: 'tok-staging' });
    expect(resolveSettings({ profile: 'production' }, env, store())).toMatchObject({ profile: 'production', profileSource: 'flag' });
  });

  it('falls back to the profile named "default" when none is active', () => {
    const settings = resolveSettings({}, {}, memoryProfileStore({ profiles: { default: { base_url: 'https://d.example.com' } } }));
    expect(settings).toMatchObject({ profile: 'default', profileSource: 'default', baseUrl: 'https://d.example.com', baseUrlSource: 'profile' });
    expect(resolveSettings({}, {}, memoryProfileStore())).toEqual({ profile: 'default', profileSource: 'default' });
  });

  it('prefers the flag to the environment, and the environment to the profile, for the base URL', () => {
    const env = { MEMBERS_BASE_URL: 'https://env.example.com' };
    expect(resolveSettings({}, env, store())).toMatchObject({ baseUrl: 'https://env.example.com', baseUrlSource: 'env' });
    expect(resolveSettings({ baseUrl: 'https://flag.example.com' }, env, store())).toMatchObject({
      baseUrl: 'https://flag.example.com',
      baseUrlSource: 'flag',
    });
  });

  it('prefers the environment to the profile for every token', () => {
    const env = { MEMBERS_TOKEN: 'tok-env', MEMBERS_DEVELOPER_TOKEN: 'dev-env', MEMBERS_PLATFORM_TOKEN: 'plat-env' };
    expect(resolveSettings({}, env, store())).toMatchObject({
      token: 'tok-env',
      tokenSource: 'env',
      developerToken: 'dev-env',
      platformToken: 'plat-env',
    });
  });

  it('treats empty environment variables as unset', () => {
    const env = { MEMBERS_PROFILE: '', MEMBERS_BASE_URL: '', MEMBERS_TOKEN: '', MEMBERS_DEVELOPER_TOKEN: '', MEMBERS_PLATFORM_TOKEN: '' };
    expect(resolveSettings({}, env, store())).toEqual(resolveSettings({}, {}, store()));
  });

  it('works from the environment alone, with no profile at all', () => {
    const env = { MEMBERS_PROFILE: 'ci', MEMBERS_BASE_URL: 'https://members.example.com', MEMBERS_TOKEN: 'tok-ci' };
    expect(resolveSettings({}, env, memoryProfileStore())).toEqual({
      profile: 'ci',
      profileSource: 'env',
      baseUrl: 'https://members.example.com',
      baseUrlSource: 'env',
      token: 'tok-ci',
      tokenSource: 'env',
    });
  });

  it('refuses a named profile that does not exist, listing the known ones', () => {
    expect(() => resolveSettings({ profile: 'prod' }, {}, store())).toThrow(
      new UsageError(
        'profile "prod" (from --profile) does not exist in (memory); known profiles: production, staging. ' +
          'To create it: members auth login --profile prod --base-url URL',
      ),
    );
    expect(() => resolveSettings({}, { MEMBERS_PROFILE: 'prod' }, memoryProfileStore())).toThrow(
      'profile "prod" (from MEMBERS_PROFILE) does not exist in (memory); no profiles are configured yet. ' +
        'To create it: members auth login --profile prod --base-url URL',
    );
  });

  it('does not refuse a missing active profile; it just has no settings', () => {
    const settings = resolveSettings({}, {}, memoryProfileStore({ active: 'gone', profiles: {} }));
    expect(settings).toEqual({ profile: 'gone', profileSource: 'profile' });
  });
});

describe('a stored token goes only to its profile\'s host', () => {
  const refusal = (flags: { profile?: string; baseUrl?: string }, env: Record<string, string>, kind: 'api' | 'report') => {
    try {
      checkTokenOrigins(resolveSettings(flags, env, store()), kind);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(MissingCredentialsError);
      expect((error as MissingCredentialsError).exitCode).toBe(3);
      return (error as Error).message;
    }
  };

  it('a base URL of another origin from the environment or a flag, with the profile\'s token: refused, naming both hosts', () => {
    expect(refusal({}, { MEMBERS_BASE_URL: 'https://staging.example.com' }, 'api')).toBe(
      'the API token of profile "production" belongs to https://members.example.com, but the base URL in force is https://staging.example.com '
        + '(from MEMBERS_BASE_URL); it is not sent there. Set MEMBERS_TOKEN to a token of https://staging.example.com, or drop MEMBERS_BASE_URL to use https://members.example.com',
    );
    expect(refusal({ baseUrl: 'https://members.example.com:8443' }, {}, 'api')).toMatch(/in force is https:\/\/members\.example\.com:8443 \(from --base-url\); it is not sent there\. Set MEMBERS_TOKEN to a token of .*, or drop --base-url to use/);
    expect(refusal({ baseUrl: 'http://members.example.com' }, {}, 'api')).toMatch(/^the API token of profile "production" belongs to https:\/\/members\.example\.com, but/);
  });

  it('the report tokens: both named, or the one left from the profile', () => {
    expect(refusal({}, { MEMBERS_BASE_URL: 'https://staging.example.com' }, 'report')).toMatch(
      /^the report developer token and report platform token of profile "production" belong to https:\/\/members\.example\.com, .*; they are not sent there\. Set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN to tokens of https:\/\/staging\.example\.com, or drop MEMBERS_BASE_URL/,
    );
    expect(refusal({}, { MEMBERS_BASE_URL: 'https://staging.example.com', MEMBERS_DEVELOPER_TOKEN: 'd' }, 'report')).toMatch(
      /^the report platform token of profile "production" belongs to .*; it is not sent there\. Set MEMBERS_PLATFORM_TOKEN to a token of/,
    );
  });

  it('a profile keeping its tokens in the keychain: refused before its item is read, for the tokens the environment does not give', () => {
    const keychained = memoryProfileStore({ profiles: { default: { base_url: 'https://members.example.com', keychain: 'default/0a1b2c3d' } } });
    const check = (env: Record<string, string>, kind: 'api' | 'report') => () => checkTokenOrigins(resolveSettings({}, env, keychained), kind);
    expect(check({ MEMBERS_BASE_URL: 'https://staging.example.com' }, 'api')).toThrow(/^the API token of profile "default" belongs to https:\/\/members\.example\.com, but/);
    expect(check({ MEMBERS_BASE_URL: 'https://staging.example.com', MEMBERS_DEVELOPER_TOKEN: 'd' }, 'report')).toThrow(/^the report platform token of profile "default" belongs to/);
    expect(check({ MEMBERS_BASE_URL: 'https://staging.example.com', MEMBERS_TOKEN: 't' }, 'api')).not.toThrow();
    expect(check({}, 'api')).not.toThrow();
  });

  it.each([
    ['the same origin, another path', {}, { MEMBERS_BASE_URL: 'https://members.example.com/v2/' }, 'api'],
    ['the token from the environment too', {}, { MEMBERS_BASE_URL: 'https://staging.example.com', MEMBERS_TOKEN: 't' }, 'api'],
    ['the report tokens from the environment', {}, { MEMBERS_BASE_URL: 'https://staging.example.com', MEMBERS_DEVELOPER_TOKEN: 'd', MEMBERS_PLATFORM_TOKEN: 'p' }, 'report'],
    ['the profile\'s own base URL', {}, {}, 'api'],
    ['a profile that does not exist (no stored token)', { profile: 'elsewhere', baseUrl: 'https://x.example.com' }, {}, 'api'],
    ['a base URL that does not parse (validated later)', { baseUrl: 'not a url' }, {}, 'api'],
  ] as const)('allowed: %s', (_what, flags, env, kind) => {
    expect(refusal(flags, env, kind)).toBeUndefined();
  });
});

describe('tokens from the environment over stored ones', () => {
  const warnings = (flags: { profile?: string; baseUrl?: string }, env: Record<string, string>, kind: 'api' | 'report') =>
    overriddenTokens(resolveSettings(flags, env, store()), kind);

  it('each overriding variable is named, with the host it goes to', () => {
    expect(warnings({ profile: 'production' }, { MEMBERS_TOKEN: 'tok-other' }, 'api')).toEqual([
      'MEMBERS_TOKEN overrides the API token stored in profile "production" and is sent to its host, https://members.example.com; unset MEMBERS_TOKEN to use the profile\'s own',
    ]);
    expect(warnings({}, { MEMBERS_DEVELOPER_TOKEN: 'd2', MEMBERS_PLATFORM_TOKEN: 'p2', MEMBERS_TOKEN: 't2' }, 'report').map((w) => w.split(' ')[0])).toEqual([
      'MEMBERS_DEVELOPER_TOKEN', 'MEMBERS_PLATFORM_TOKEN',
    ]);
  });

  it.each([
    ['the same token', { MEMBERS_TOKEN: 'tok-prod' }, {}],
    ['no token stored', { MEMBERS_PLATFORM_TOKEN: 'p' }, { profile: 'staging' }],
    ['a base URL from elsewhere (the token goes there, not to the profile\'s host)', { MEMBERS_TOKEN: 't', MEMBERS_BASE_URL: 'https://x.example.com' }, {}],
    ['no token in the environment', {}, {}],
  ] as const)('none: %s', (_what, env, flags) => {
    expect(warnings(flags, env, 'api')).toEqual([]);
    if (!('MEMBERS_TOKEN' in env)) expect(warnings(flags, env, 'report').filter((w) => w.startsWith('MEMBERS_DEVELOPER'))).toEqual([]);
  });

  it('a profile keeping its tokens in the keychain: its item, not read for this, holds an API token; once read, the same token is no warning', () => {
    const keychained = memoryProfileStore({ profiles: { default: { base_url: 'https://members.example.com', keychain: 'default/0a1b2c3d' } } });
    const env = { MEMBERS_TOKEN: 't', MEMBERS_DEVELOPER_TOKEN: 'd', MEMBERS_PLATFORM_TOKEN: 'p' };
    expect(overriddenTokens(resolveSettings({}, env, keychained), 'api').map((w) => w.split(' ')[0])).toEqual(['MEMBERS_TOKEN']);
    expect(overriddenTokens(resolveSettings({}, env, keychained), 'report')).toEqual([]);
    const read = resolveSettings({}, env, keychained, { account: 'default/0a1b2c3d', tokens: { token: 't', developer_token: 'd-kc' } });
    expect(overriddenTokens(read, 'api')).toEqual([]);
    expect(overriddenTokens(read, 'report').map((w) => w.split(' ')[0])).toEqual(['MEMBERS_DEVELOPER_TOKEN']);
  });

  it('a profile that does not exist: none', () => {
    expect(overriddenTokens(resolveSettings({ profile: 'nope', baseUrl: 'https://x.example.com' }, { MEMBERS_TOKEN: 't' }, store()), 'api')).toEqual([]);
  });
});

describe('originOf', () => {
  it.each([
    ['https://members.example.com/api/', 'https://members.example.com'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['https://members.example.com:443/x', 'https://members.example.com'],
    [undefined, undefined],
    ['', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });
});

describe('maskSecret', () => {
  it.each([
    ['abcd1234efgh5678wxyz', 'abcd…wxyz'],
    ['abcdefghijkl', 'abcd…ijkl'],
    ['abcdefghijk', '…jk'],
    ['abcdefgh', '…gh'],
    ['abcdefg', '***'],
    ['', '***'],
  ])('masks %j as %j', (secret, masked) => {
    expect(maskSecret(secret)).toBe(masked);
  });
});

describe('validateBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/'],
    ['http://127.8.9.10', 'http://127.8.9.10/'],
    ['http://localhost', 'http://localhost/'],
    ['http://[::1]:8080', 'http://[::1]:8080/'],
    ['https://members.example.com/', 'https://members.example.com/'],
    ['https://members.example.com/api/v2/', 'https://members.example.com/api/v2'],
    ['HTTPS://Members.Example.com//', 'https://members.example.com/'],
  ])('accepts %s as %s', (raw, href) => {
    expect(validateBaseUrl(raw).href).toBe(href);
  });

  it.each([
    ['http://members.example.com', 'refusing plain http:// to members.example.com: the token would travel unencrypted; use https://'],
    ['http://127.evil.com', 'refusing plain http:// to 127.evil.com'],
    ['http://10.0.0.1', 'refusing plain http:// to 10.0.0.1'],
    ['ftp://x', 'unsupported scheme "ftp:" in base URL: use https://'],
    ['members.example.com', 'invalid base URL: expected a full URL such as https://members.example.com'],
    ['https://members.example.com/?page=2', 'must not have a query or fragment'],
  ])('refuses %s', (raw, message) => {
    expect(() => validateBaseUrl(raw)).toThrow(UsageError);
    expect(() => validateBaseUrl(raw)).toThrow(message);
  });

  it('refuses credentials in the URL without repeating them', () => {
    let message = '';
    try {
      validateBaseUrl('https://user:pw-secret@x');
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^the base URL must not contain a user name or password/);
    expect(message).not.toContain('pw-secret');
  });
});
