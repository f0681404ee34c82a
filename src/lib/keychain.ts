/**
 * The operating system's keychain: the macOS Keychain, the Windows Credential
 * Manager, the Secret Service on Linux (GNOME Keyring, KWallet, KeePassXC),
 * through @napi-rs/keyring (prebuilt N-API binaries, an optional dependency).
 * Loaded only when a token is read or written (src/main.ts gives it to the
 * Io): a command that needs no token never pays for it. Any failure — no
 * library, no binary for this platform, no session bus, a locked keyring — is
 * a NoKeychainError saying why, and the caller falls back to the file.
 */
import type * as NapiKeyring from '@napi-rs/keyring';

/** What the tokens are filed under in the keychain (the Secret Service's `service` attribute). */
export const KEYCHAIN_SERVICE = 'members-cli';

export interface Keychain {
  /** Where the secrets go, for messages: "the macOS Keychain". */
  readonly name: string;
  /** The secret filed under `account`, or null when there is none. */
  get(account: string): string | null;
  set(account: string, secret: string): void;
  /** True when there was one to delete. */
  delete(account: string): boolean;
}

/** No keychain answered; the message says why (for the user: "no OS keychain answered (…)"). */
export class NoKeychainError extends Error {}

export function keychainName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'the macOS Keychain';
  if (platform === 'win32') return 'the Windows Credential Manager';
  return 'the Secret Service';
}

/**
 * The keychain of this system, or NoKeychainError. On Linux the store is
 * pinned to the Secret Service: left to choose, the library silently falls
 * back to the kernel's keyutils, which keeps secrets in memory only (lost
 * at logout or reboot; in a container, from one process to the next).
 * Each call is synchronous: a keychain that is asked and never answers
 * blocks the run (MEMBERS_KEYCHAIN=off is the way out, see token-storage.ts).
 */
export async function osKeychain(platform: NodeJS.Platform): Promise<Keychain> {
  let library: typeof NapiKeyring;
  try {
    library = await import('@napi-rs/keyring');
  } catch (error) {
    throw new NoKeychainError(`the keychain library @napi-rs/keyring could not be loaded: ${firstLine(error)}`);
  }
  const options = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  const entries = new Map<string, NapiKeyring.Entry>();
  // One entry per account: building one opens the connection (5-10 ms on Linux).
  const entry = (account: string) => {
    let found = entries.get(account);
    if (!found) entries.set(account, (found = new library.Entry(KEYCHAIN_SERVICE, account, options)));
    return found;
  };
  const answer = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw new NoKeychainError(firstLine(error));
    }
  };
  return {
    name: keychainName(platform),
    get: (account) => answer(() => entry(account).getPassword() ?? null),
    set: (account, secret) => answer(() => entry(account).setPassword(secret)),
    delete: (account) => answer(() => entry(account).deletePassword()),
  };
}

// The library's errors are one line already; a loader's may carry the require stack.
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
