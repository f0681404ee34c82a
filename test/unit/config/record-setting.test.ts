/**
 * Which home of the change record a run uses (config/record-setting.ts):
 * MEMBERS_RECORD_URL over the profile, the profile's stored URL and where
 * its password is, the local files otherwise.
 */
import { describe, expect, it } from 'vitest';
import { recordSetting } from '../../../src/config/record-setting.js';
import type { Profile } from '../../../src/config/store.js';

const URL = 'postgres://ana@db.example:5432/members';
const profile = (fields: Record<string, unknown> = {}): Profile => ({ base_url: 'https://members.example.com', ...fields });

describe('recordSetting', () => {
  it('is the local files when nothing names a team record: by default without a profile, the profile\'s with one', () => {
    expect(recordSetting({}, undefined)).toEqual({ home: 'local', source: 'default' });
    expect(recordSetting({}, profile())).toEqual({ home: 'local', source: 'profile' });
    expect(recordSetting({ MEMBERS_RECORD_URL: '   ' }, profile())).toEqual({ home: 'local', source: 'profile' });
  });

  it('takes MEMBERS_RECORD_URL over the profile for one run: `local`, or a URL whose password is its own', () => {
    const stored = profile({ record_url: URL, record_keychain: 'members-record' });
    expect(recordSetting({ MEMBERS_RECORD_URL: ' local ' }, stored)).toEqual({ home: 'local', source: 'env' });
    expect(recordSetting({ MEMBERS_RECORD_URL: ' postgres://bia:pw@other:5432/team ' }, stored))
      .toEqual({ home: 'postgres', source: 'env', url: 'postgres://bia:pw@other:5432/team', passwordIn: 'url' });
  });

  it('finds the stored URL\'s password in the keychain item before the config file, and says when there is none', () => {
    expect(recordSetting({}, profile({ record_url: URL, record_keychain: 'members-record', record_password: 'in-file' })))
      .toEqual({ home: 'postgres', source: 'profile', url: URL, passwordIn: 'keychain', account: 'members-record' });
    expect(recordSetting({}, profile({ record_url: URL, record_password: 'in-file' })))
      .toEqual({ home: 'postgres', source: 'profile', url: URL, passwordIn: 'file', password: 'in-file' });
    expect(recordSetting({}, profile({ record_url: URL }))).toEqual({ home: 'postgres', source: 'profile', url: URL, passwordIn: 'none' });
  });

  it('ignores stored values that are not text (a hand-edited config file)', () => {
    expect(recordSetting({}, profile({ record_url: 5432 }))).toEqual({ home: 'local', source: 'profile' });
    expect(recordSetting({}, profile({ record_url: '' }))).toEqual({ home: 'local', source: 'profile' });
    expect(recordSetting({}, profile({ record_url: URL, record_keychain: true, record_password: 7 })))
      .toEqual({ home: 'postgres', source: 'profile', url: URL, passwordIn: 'none' });
  });
});
