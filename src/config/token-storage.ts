/**
 * Where a profile's tokens live (docs/security.md "Where the tokens live"):
 * one item of the OS keychain holding all three (one connection to open,
 * one permission to grant), named in the profile as `keychain`; or, where no
 * keychain answers (servers, cron, containers) or when
 * `auth login --insecure-storage` asks for it, the config file (mode 0600).
 * Everything else about a profile stays in the file.
 */
import { randomBytes } from 'node:crypto';
import { UsageError } from '../lib/errors.js';
import { NoKeychainError, type Keychain } from '../lib/keychain.js';
import { ConfigError, TOKEN_FIELDS, TokensSchema, type Profile, type Storage, type Tokens } from './store.js';


/** The tokens among `fields`, without the empty ones. */
function tokensIn(fields: Tokens): Tokens {
  return Object.fromEntries(TOKEN_FIELDS.flatMap((field) => (fields[field] ? [[field, fields[field]]] : [])));
}

/**
 * The OS keychain (Io.keychain), unless MEMBERS_KEYCHAIN=off: the way out
 * where a keychain is there but must not be asked (a session bus that never
 * answers blocks the run, the keychain calls being synchronous).
 */
export async function openKeychain(env: Record<string, string | undefined>, open: (() => Promise<Keychain>) | undefined): Promise<Keychain> {
  if (!keychainWanted(env)) throw new NoKeychainError('MEMBERS_KEYCHAIN=off');
  if (!open) throw new NoKeychainError('this program was started without access to one');
  return open();
}

/** False for MEMBERS_KEYCHAIN=off; exit 2 for a value that is neither off nor auto (the default). */
export function keychainWanted(env: Record<string, string | undefined>): boolean {
  const setting = env.MEMBERS_KEYCHAIN;
  if (setting && setting !== 'off' && setting !== 'auto') throw new UsageError(`MEMBERS_KEYCHAIN must be "off" or "auto" (the default), not "${setting}"`);
  return setting !== 'off';
}

/** The tokens a profile keeps in its keychain item; none when the item is gone. NoKeychainError when the keychain does not answer. */
export function readKeychainItem(keychain: Keychain, account: string): Tokens {
  const text = keychain.get(account);
  if (text === null) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const tokens = TokensSchema.strict().safeParse(json);
  // Never quote it: it holds tokens.
  if (!tokens.success) throw new ConfigError(`the keychain item "${account}" of ${keychain.name} does not hold tokens as members writes them; run \`members auth login\` again to replace it`);
  return tokens.data;
}

export interface Placed {
  /** The profile to save: its tokens in the file, or the name of their keychain item. */
  profile: Profile;
  storage: Storage;
  /** The keychain that holds them now ("the Secret Service"). */
  keychain?: string;
  /** A keychain item made for them now (the caller removes it when the profile cannot be saved). */
  created?: string;
  /** Why no keychain took them, when one was wanted. */
  noKeychain?: string;
  /** The item that held them before, left in a keychain that did not answer, and why. */
  leftover?: { account: string; reason: string };
}

/**
 * Puts a profile's tokens where they belong: in the keychain (the item the
 * profile had, or a new one) unless `insecure`; else, or when no keychain
 * answers, in the file. The profile returned holds them in one place only:
 * tokens that were in the file move to the keychain, and an item left behind
 * by a move to the file is deleted.
 */
export async function placeTokens(
  name: string,
  profile: Profile,
  tokens: Tokens,
  options: { insecure: boolean; keychain: () => Promise<Keychain> },
): Promise<Placed> {
  const { keychain: item, token: _token, developer_token: _developer, platform_token: _platform, ...rest } = profile;
  const kept = tokensIn(tokens);
  let noKeychain: string | undefined;
  if (!options.insecure) {
    try {
      const keychain = await options.keychain();
      const account = item ?? `${name}/${randomBytes(4).toString('hex')}`;
      keychain.set(account, JSON.stringify(kept));
      return { profile: { ...rest, keychain: account }, storage: 'keychain', keychain: keychain.name, ...(item ? {} : { created: account }) };
    } catch (error) {
      if (!(error instanceof NoKeychainError)) throw error;
      noKeychain = error.message;
    }
  }
  let leftover: Placed['leftover'];
  if (item) {
    try {
      (await options.keychain()).delete(item);
    } catch (error) {
      if (!(error instanceof NoKeychainError)) throw error;
      leftover = { account: item, reason: error.message };
    }
  }
  return { profile: { ...rest, ...kept }, storage: 'file', noKeychain, leftover };
}
