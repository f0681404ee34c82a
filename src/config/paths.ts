import os from 'node:os';
import path from 'node:path';

/**
 * The directory of the config file and the audit log (contract §6).
 * `platform` and `home` are parameters so every platform's rule is testable
 * anywhere; Windows paths are built with `path.win32` for the same reason.
 * (env-paths would add a `-nodejs` suffix and reads the real process only.)
 */
export function configDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.MEMBERS_CONFIG_DIR) return env.MEMBERS_CONFIG_DIR;
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, 'members', 'Config');
  }
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  const validXdg = xdg && path.posix.isAbsolute(xdg) ? xdg : undefined;
  // On macOS too, a user who sets XDG_CONFIG_HOME (as many CLI users do) gets it; else the platform's place.
  if (platform === 'darwin') return validXdg ? path.posix.join(validXdg, 'members') : path.posix.join(home, 'Library', 'Preferences', 'members');
  return path.posix.join(validXdg ?? path.posix.join(home, '.config'), 'members');
}

/**
 * The directory of the files that are only a cache (the update check's state):
 * where bin/code-cache.js keeps the code cache, by the same rule (that file
 * cannot import this one). Undefined on Windows without LOCALAPPDATA.
 */
export function cacheDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string | undefined {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const base = env.XDG_CACHE_HOME || (platform === 'win32' ? env.LOCALAPPDATA : platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache'));
  return base ? join(base, 'members') : undefined;
}

export function auditLogPath(dir: string): string {
  return path.join(dir, 'audit.jsonl');
}

/**
 * Held while a record is appended to the log, and while the log is rewritten
 * (audit/forget.ts): an append never lands in a file about to be replaced.
 */
export function auditLockPath(dir: string): string {
  return `${auditLogPath(dir)}.lock`;
}

/** The records of changes in flight (audit/intents.ts): one file each, until its outcome is in the log. */
export function auditIntentsDir(dir: string): string {
  return path.join(dir, 'audit-intents');
}
