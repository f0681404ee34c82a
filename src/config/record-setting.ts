/**
 * Which home of the change record a run uses (audit/record.ts): the local
 * files unless the profile stores a team record (`members record use URL`),
 * and MEMBERS_RECORD_URL over both for one run (`local`, or a URL, its
 * password included when it has one). The password of a stored URL is in the
 * OS keychain (the profile's `record_keychain` item) or, where none answers,
 * in the config file (`record_password`, mode 0600), as tokens are.
 */
import type { Profile } from './store.js';

export type RecordSetting =
  | { home: 'local'; source: 'default' | 'env' | 'profile' }
  | { home: 'postgres'; source: 'env' | 'profile'; url: string; passwordIn: 'url' | 'keychain' | 'file' | 'none'; account?: string; password?: string };

export function recordSetting(env: Record<string, string | undefined>, profile: Profile | undefined): RecordSetting {
  const given = env.MEMBERS_RECORD_URL?.trim();
  if (given) return given === 'local' ? { home: 'local', source: 'env' } : { home: 'postgres', source: 'env', url: given, passwordIn: 'url' };
  const stored = typeof profile?.record_url === 'string' ? profile.record_url : undefined;
  if (!stored) return { home: 'local', source: profile ? 'profile' : 'default' };
  if (typeof profile?.record_keychain === 'string') return { home: 'postgres', source: 'profile', url: stored, passwordIn: 'keychain', account: profile.record_keychain };
  if (typeof profile?.record_password === 'string') return { home: 'postgres', source: 'profile', url: stored, passwordIn: 'file', password: profile.record_password };
  return { home: 'postgres', source: 'profile', url: stored, passwordIn: 'none' };
}
