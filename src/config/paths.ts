import os from 'node:os';
import path from 'node:path';

/**
 * The directory of the config file and the audit log (contract §2).
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
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Preferences', 'members');
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
  return path.posix.join(base, 'members');
}

export function auditLogPath(dir: string): string {
  return path.join(dir, 'audit.jsonl');
}
