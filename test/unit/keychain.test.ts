/**
 * lib/keychain.ts against a real Secret Service (gnome-keyring on a private
 * bus, test/helpers/secret-service.ts), in this test file's own process.
 * libdbus reads DBUS_SESSION_BUS_ADDRESS once per process, at the first
 * connection: the bus is set before anything connects, and the cases without
 * one are in keychain-no-bus.test.ts (a process of their own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE, NoKeychainError, keychainName, osKeychain } from '../../src/lib/keychain.js';
import { hasSecretService, startSecretService, type SecretService } from '../helpers/secret-service.js';

it('names the keychain of each platform', () => {
  expect([keychainName('darwin'), keychainName('win32'), keychainName('linux'), keychainName('freebsd')])
    .toEqual(['the macOS Keychain', 'the Windows Credential Manager', 'the Secret Service', 'the Secret Service']);
});

// In the written order, shuffled or not: the last case locks the keyring for good (unlocking needs a prompt, which
// nobody can answer here), and libdbus keeps this process on its one bus.
describe.runIf(hasSecretService())('the Secret Service', { shuffle: false }, () => {
  let service: SecretService;
  beforeAll(async () => {
    service = await startSecretService();
    process.env.DBUS_SESSION_BUS_ADDRESS = service.env.DBUS_SESSION_BUS_ADDRESS;
  });
  afterAll(() => service?.stop());

  it('stores, reads and deletes a secret that another client (secret-tool) sees under service members-cli', async () => {
    const keychain = await osKeychain('linux');
    expect(keychain.name).toBe('the Secret Service');
    expect(keychain.get('unit/round-trip')).toBeNull();
    keychain.set('unit/round-trip', '{"token":"t-1"}');
    expect(keychain.get('unit/round-trip')).toBe('{"token":"t-1"}');
    expect(await service.secretTool('lookup', 'service', KEYCHAIN_SERVICE, 'username', 'unit/round-trip')).toBe('{"token":"t-1"}');
    keychain.set('unit/round-trip', '{"token":"t-2"}');
    expect(await service.secretTool('lookup', 'service', KEYCHAIN_SERVICE, 'username', 'unit/round-trip')).toBe('{"token":"t-2"}');
    expect(keychain.delete('unit/round-trip')).toBe(true);
    expect(keychain.delete('unit/round-trip')).toBe(false);
    expect(await service.secretTool('lookup', 'service', KEYCHAIN_SERVICE, 'username', 'unit/round-trip')).toBeNull();
  });

  // Last: the keyring stays locked.
  it('a locked keyring does not answer (no display to ask for the password): NoKeychainError, never a prompt that waits', async () => {
    (await osKeychain('linux')).set('unit/locked', 'l-1');
    await service.lock();
    const keychain = await osKeychain('linux');
    expect(() => keychain.get('unit/locked')).toThrow(NoKeychainError);
    expect(() => keychain.set('unit/locked', 'l-2')).toThrow(/unlock/);
  });
});
