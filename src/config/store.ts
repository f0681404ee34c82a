import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import * as z from 'zod';
import { CliError, ExitCode, UsageError } from '../lib/errors.js';
import { withFileLock } from './lock.js';

// Loose objects keep keys this version does not know (hand-added, or written
// by a newer version), so rewriting the file never drops them.
/** A profile's three tokens: in the file, or (the same fields, as JSON) in its keychain item. */
export const TokensSchema = z.object({
  token: z.string().optional(),
  developer_token: z.string().optional(),
  platform_token: z.string().optional(),
});

const ProfileSchema = z.looseObject({
  base_url: z.string().min(1),
  ...TokensSchema.shape,
  /** The OS keychain item holding the three tokens instead (config/token-storage.ts). */
  keychain: z.string().optional(),
});

const ConfigFileSchema = z.looseObject({
  active: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
});

export type Profile = z.infer<typeof ProfileSchema>;
export type Tokens = z.infer<typeof TokensSchema>;
export const TOKEN_FIELDS = Object.keys(TokensSchema.shape) as Array<keyof Tokens>;

/** Where a profile keeps its tokens: the OS keychain (config/token-storage.ts) or this file. */
export type Storage = 'keychain' | 'file';

/** Where a stored profile keeps its tokens; undefined when it keeps none. */
export function storageOf(profile: Profile | undefined): Storage | undefined {
  if (profile?.keychain) return 'keychain';
  return TOKEN_FIELDS.some((field) => profile?.[field]) ? 'file' : undefined;
}
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The config file is broken; the user must fix or remove it. */
export class ConfigError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

export interface ProfileStore {
  /** The config file (for messages). */
  readonly path: string;
  active(): string | undefined;
  /** False, and nothing written, when there is no such profile. */
  setActive(name: string): boolean;
  get(name: string): Profile | undefined;
  /** Sorted by name. */
  list(): Array<[string, Profile]>;
  /** Creates or replaces a profile; the first one saved becomes active. */
  save(name: string, profile: Profile): void;
  /** Logout: drops the three tokens (and the name of their keychain item), keeps the base URL. False when there is no such profile. */
  forgetTokens(name: string): boolean;
}

/** Reads and changes the whole file; the store's methods are built on these two. */
interface Backend {
  read(): ConfigFile;
  /** Writes only when `change` returns true; returns what it returned. */
  update(change: (config: ConfigFile) => boolean): boolean;
}

const CONFIG_NAME = 'config';

/** conf's class, which the caller loads only to write (see openProfileStore). */
export type ConfClass = typeof Conf;

/**
 * The store in `<dir>/config.json`. Reads parse the file directly; changes go
 * through conf, which provides the atomic write and the file mode, with a
 * lock file on top that makes each change a read-modify-write of the file as
 * it is on disk, so concurrent `auth login`s keep each other's profiles.
 * Without `conf` the store is read-only: evaluating conf cost every API
 * command 5 ms, and only the commands that change profiles need it
 * (Session.store('write')). Nothing is touched until a method is called.
 */
export function openProfileStore(dir: string, conf?: ConfClass): ProfileStore {
  const file = path.join(dir, `${CONFIG_NAME}.json`);
  let writer: Conf<Partial<ConfigFile>> | undefined;
  const open = () => {
    if (!conf) throw new Error(`${file} was opened read-only; Session.store('write') opens it for changes`);
    if (!writer) {
      // Only a directory we create gets 0700; an existing one (say, a chosen
      // MEMBERS_CONFIG_DIR) is the user's, and its mode is left alone.
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      writer = new conf<Partial<ConfigFile>>({
        cwd: dir,
        configName: CONFIG_NAME,
        configFileMode: 0o600,
        // conf would silently reset a broken file; we refuse to touch it instead.
        clearInvalidConfig: false,
        deserialize: (text) => parseConfigFile(text, file),
      });
    }
    return writer;
  };
  const read = (): ConfigFile => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw error;
    }
    return parseConfigFile(text, file);
  };
  return profileStore(file, {
    read: () => fileSystem('read', file, read),
    update: (change) => fileSystem('write', file, () => {
      const store = fileSystem('read', file, open);
      return withFileLock(`${file}.lock`, () => {
        const config = fileSystem('read', file, read);
        if (!change(config)) return false;
        store.store = config;
        return true;
      });
    }),
  });
}

const FS_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device', EDQUOT: 'disk quota exceeded', ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory', ELOOP: 'too many symbolic links', EMFILE: 'too many open files', EIO: 'input/output error',
};

/**
 * A file-system failure on the config (say, a file left owned by root after a
 * `sudo members …`) is a ConfigError naming the file and what to do, never
 * an "unexpected error".
 */
function fileSystem<T>(doing: 'read' | 'write', file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    const { code, path: where } = error as NodeJS.ErrnoException;
    if (error instanceof CliError || typeof code !== 'string') throw error;
    const place = where && where !== file ? ` (on ${where})` : '';
    const fix = code === 'EACCES' || code === 'EPERM'
      ? `make it and its directory yours (\`chown\`; mode 0600 for the file, 0700 for the directory)`
      : 'fix the problem';
    throw new ConfigError(
      `cannot ${doing} the config file ${file}: ${FS_PROBLEMS[code] ?? code} (${code})${place}; ${fix}, or set MEMBERS_CONFIG_DIR to another directory`,
    );
  }
}

/** Keeps the file in memory, for tests. */
export function memoryProfileStore(initial: z.input<typeof ConfigFileSchema> = {}): ProfileStore {
  let current = ConfigFileSchema.parse(initial);
  return profileStore('(memory)', {
    read: () => structuredClone(current),
    update: (change) => {
      const next = structuredClone(current);
      if (!change(next)) return false;
      current = next;
      return true;
    },
  });
}

function profileStore(file: string, { read, update }: Backend): ProfileStore {
  return {
    path: file,
    active: () => read().active,
    get: (name) => own(read().profiles, name),
    list: () => Object.entries(read().profiles).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    save: (name, profile) => {
      checkProfileName(name);
      update((config) => {
        if (!config.active || !own(config.profiles, config.active)) config.active = name;
        // Parsing also copies: the caller's object never becomes the store's.
        config.profiles[name] = ProfileSchema.parse(profile);
        return true;
      });
    },
    setActive: (name) =>
      update((config) => {
        if (!own(config.profiles, name)) return false;
        config.active = name;
        return true;
      }),
    forgetTokens: (name) =>
      update((config) => {
        const profile = own(config.profiles, name);
        if (!profile) return false;
        delete profile.token;
        delete profile.developer_token;
        delete profile.platform_token;
        delete profile.keychain;
        return true;
      }),
  };
}

// Names come from the command line: never let one reach Object.prototype.
function own(profiles: Record<string, Profile>, name: string): Profile | undefined {
  return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function checkProfileName(name: string): void {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `invalid profile name "${name}": use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
}

function parseConfigFile(text: string, file: string): ConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the error, which may be a token: give only the place.
    throw new ConfigError(`config file ${file} is not valid JSON${jsonErrorPlace(error, text)}; fix or remove it`);
  }
  const result = ConfigFileSchema.safeParse(json);
  if (!result.success) {
    // Zod's messages name the expected type, never the value found.
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`)
      .join('; ');
    throw new ConfigError(`config file ${file} has an unexpected shape (${problems}); fix or remove it`);
  }
  return result.data;
}

function jsonErrorPlace(error: unknown, text: string): string {
  const position = /at position (\d+)/.exec(String(error))?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position)).split('\n');
  return ` (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`;
}
