/**
 * lib/keychain.ts where no session bus is (a server, cron, a container), in a
 * process that never had one (libdbus reads the address once per process).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NoKeychainError, osKeychain } from '../../src/lib/keychain.js';

describe.runIf(process.platform === 'linux')('without a session bus', () => {
  beforeAll(() => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
  });

  it('every call is a NoKeychainError naming the missing bus: never the kernel keyring, which would lose the secret', async () => {
    const keychain = await osKeychain('linux');
    expect(() => keychain.set('unit/no-bus', 'n-1')).toThrow(NoKeychainError);
    expect(() => keychain.get('unit/no-bus')).toThrow(/DBUS_SESSION_BUS_ADDRESS/);
    expect(() => keychain.delete('unit/no-bus')).toThrow(NoKeychainError);
  });
});
