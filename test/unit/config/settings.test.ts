import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { maskSecret, resolveSettings, validateBaseUrl } from '../../../src/config/settings.js';
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
      platformToken: 'plat-prod',
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
