/**
 * ssh's rule for private keys, as a warning: a config file holding tokens
 * must be readable by its owner alone, and its directory writable by its
 * owner alone (else another user can read the tokens, or swap the file for
 * one that sends them to their own server). A config whose profiles keep
 * their tokens in the OS keychain must not be writable by others either: a
 * base URL changed there would send them elsewhere. POSIX modes only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Storage } from './store.js';

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** `holds`: where the profiles of `file` keep tokens (`file` when any keeps them there), if anywhere. */
export function exposureWarnings(file: string, holds: Storage | undefined, platform: NodeJS.Platform = process.platform): string[] {
  if (holds === undefined || platform === 'win32') return [];
  const warnings: string[] = [];
  const mode = (target: string) => {
    try {
      return fs.statSync(target).mode;
    } catch {
      return undefined;
    }
  };
  const fileMode = mode(file);
  if (fileMode !== undefined && holds === 'file' && (fileMode & 0o077) !== 0) {
    warnings.push(`the config file ${file} holds API tokens and other users can read it (mode ${octal(fileMode)}): run \`chmod 600 ${file}\``);
  }
  if (fileMode !== undefined && holds === 'keychain' && (fileMode & 0o022) !== 0) {
    warnings.push(`the config file ${file} names tokens kept in the OS keychain and other users can change it (mode ${octal(fileMode)}): run \`chmod 600 ${file}\``);
  }
  const dir = path.dirname(file);
  const dirMode = mode(dir);
  if (dirMode !== undefined && (dirMode & 0o022) !== 0) {
    warnings.push(`the config directory ${dir} can be written by other users (mode ${octal(dirMode)}), who could replace the config: run \`chmod 700 ${dir}\``);
  }
  return warnings;
}
