/**
 * Where a profile's tokens go (config/token-storage.ts), with a keychain kept
 * in memory that can be made to stop answering. The real Secret Service is
 * test/unit/keychain.test.ts and test/e2e/keychain.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { keychainWanted, openKeychain, placeTokens, readKeychainItem } from '../../../src/config/token-storage.js';
import { ConfigError } from '../../../src/config/store.js';
import { UsageError } from '../../../src/lib/errors.js';
import { NoKeychainError, type Keychain } from '../../../src/lib/keychain.js';

function memoryKeychain(items: Record<string, string> = {}) {
  const stored = new Map(Object.entries(items));
  let silent: string | undefined;
  const answer = <T>(work: () => T) => {
    if (silent) throw new NoKeychainError(silent);
    return work();
  };
  const keychain: Keychain = {
    name: 'the test keychain',
    get: (account) => answer(() => stored.get(account) ?? null),
    set: (account, secret) => answer(() => void stored.set(account, secret)),
    delete: (account) => answer(() => stored.delete(account)),
  };
  return { keychain, stored, silence: (reason: string) => (silent = reason) };
}

const BASE = { base_url: 'https://members.example.com' };
const TOKENS = { token: 'tok-1', developer_token: 'dev-1', platform_token: 'plat-1' };

describe('placeTokens', () => {
  it('puts the tokens in a new keychain item named after the profile, and the profile names it', async () => {
    const { keychain, stored } = memoryKeychain();
    const placed = await placeTokens('work', BASE, TOKENS, { insecure: false, keychain: async () => keychain });
    const account = placed.profile.keychain!;
    expect(account).toMatch(/^work\/[0-9a-f]{8}$/);
    expect(placed).toEqual({ profile: { ...BASE, keychain: account }, storage: 'keychain', keychain: 'the test keychain', created: account });
    expect(JSON.parse(stored.get(account)!)).toEqual(TOKENS);
  });

  it('moves tokens kept in the file into the item the profile already had, leaving none in the file; empty ones are not stored', async () => {
    const { keychain, stored } = memoryKeychain({ 'work/00000000': '{"token":"old"}' });
    const profile = { ...BASE, keychain: 'work/00000000', token: 'stale', extra: 'kept' };
    const placed = await placeTokens('work', profile, { token: 'tok-2', developer_token: '' }, { insecure: false, keychain: async () => keychain });
    expect(placed).toEqual({ profile: { ...BASE, extra: 'kept', keychain: 'work/00000000' }, storage: 'keychain', keychain: 'the test keychain' });
    expect(stored.get('work/00000000')).toBe('{"token":"tok-2"}');
  });

  it('falls back to the file when no keychain answers, saying why', async () => {
    const placed = await placeTokens('work', BASE, TOKENS, { insecure: false, keychain: () => Promise.reject(new NoKeychainError('no bus')) });
    expect(placed).toEqual({ profile: { ...BASE, ...TOKENS }, storage: 'file', noKeychain: 'no bus' });
  });

  it('--insecure-storage: the file, and the item the profile had is deleted', async () => {
    const { keychain, stored } = memoryKeychain({ 'work/00000000': '{}', 'other/11111111': '{}' });
    const placed = await placeTokens('work', { ...BASE, keychain: 'work/00000000' }, TOKENS, { insecure: true, keychain: async () => keychain });
    expect(placed).toEqual({ profile: { ...BASE, ...TOKENS }, storage: 'file' });
    expect([...stored.keys()]).toEqual(['other/11111111']);
  });

  it('an item that cannot be deleted is left over, with the reason', async () => {
    const { keychain, silence } = memoryKeychain({ 'work/00000000': '{}' });
    silence('locked');
    const placed = await placeTokens('work', { ...BASE, keychain: 'work/00000000' }, TOKENS, { insecure: false, keychain: async () => keychain });
    expect(placed).toEqual({
      profile: { ...BASE, ...TOKENS }, storage: 'file', noKeychain: 'locked', leftover: { account: 'work/00000000', reason: 'locked' },
    });
  });

  it('a failure that is not the keychain\'s silence is not hidden', async () => {
    await expect(placeTokens('work', BASE, TOKENS, { insecure: false, keychain: () => Promise.reject(new Error('bug')) })).rejects.toThrow('bug');
  });
});

describe('readKeychainItem', () => {
  it('reads the tokens of an item, and none when it is gone', () => {
    const { keychain } = memoryKeychain({ 'work/00000000': JSON.stringify(TOKENS) });
    expect(readKeychainItem(keychain, 'work/00000000')).toEqual(TOKENS);
    expect(readKeychainItem(keychain, 'work/ffffffff')).toEqual({});
  });

  it.each(['not json', '"a string"', '{"token":1}', '{"password":"x"}'])('refuses an item members did not write (%s), without quoting it', (text) => {
    const { keychain } = memoryKeychain({ 'work/00000000': text });
    expect(() => readKeychainItem(keychain, 'work/00000000')).toThrow(ConfigError);
    expect(() => readKeychainItem(keychain, 'work/00000000')).toThrow(/^the keychain item "work\/00000000" of the test keychain does not hold tokens as members writes them; run `members auth login` again to replace it$/);
  });

  it('a keychain that does not answer is a NoKeychainError', () => {
    const { keychain, silence } = memoryKeychain();
    silence('locked');
    expect(() => readKeychainItem(keychain, 'work/00000000')).toThrow(NoKeychainError);
  });
});

describe('MEMBERS_KEYCHAIN', () => {
  it('auto (or unset, or empty) asks the keychain; off never does', async () => {
    const { keychain } = memoryKeychain();
    for (const env of [{}, { MEMBERS_KEYCHAIN: '' }, { MEMBERS_KEYCHAIN: 'auto' }]) {
      expect(keychainWanted(env)).toBe(true);
      expect(await openKeychain(env, async () => keychain)).toBe(keychain);
    }
    expect(keychainWanted({ MEMBERS_KEYCHAIN: 'off' })).toBe(false);
    await expect(openKeychain({ MEMBERS_KEYCHAIN: 'off' }, async () => keychain)).rejects.toThrow(new NoKeychainError('MEMBERS_KEYCHAIN=off'));
  });

  it('any other value is a usage error', () => {
    expect(() => keychainWanted({ MEMBERS_KEYCHAIN: 'on' })).toThrow(UsageError);
  });

  it('an Io without a keychain has none', async () => {
    await expect(openKeychain({}, undefined)).rejects.toThrow(NoKeychainError);
  });
});
