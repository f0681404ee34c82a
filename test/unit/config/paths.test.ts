import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLogPath, cacheDir, configDir } from '../../../src/config/paths.js';

describe('configDir', () => {
  it('uses MEMBERS_CONFIG_DIR on every platform', () => {
    expect(configDir({ MEMBERS_CONFIG_DIR: '/srv/members', XDG_CONFIG_HOME: '/x' }, 'linux', '/home/ana')).toBe('/srv/members');
    expect(configDir({ MEMBERS_CONFIG_DIR: 'D:\\cfg' }, 'win32', 'C:\\Users\\ana')).toBe('D:\\cfg');
  });

  it('follows XDG_CONFIG_HOME on Linux, else ~/.config', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/home/ana/xdg' }, 'linux', '/home/ana')).toBe('/home/ana/xdg/members');
    expect(configDir({}, 'linux', '/home/ana')).toBe('/home/ana/.config/members');
  });

  it('treats empty variables as unset and ignores a relative XDG_CONFIG_HOME', () => {
    expect(configDir({ MEMBERS_CONFIG_DIR: '', XDG_CONFIG_HOME: '' }, 'linux', '/home/ana')).toBe('/home/ana/.config/members');
    expect(configDir({ XDG_CONFIG_HOME: 'rel/dir' }, 'linux', '/home/ana')).toBe('/home/ana/.config/members');
  });

  it('uses ~/Library/Preferences on macOS', () => {
    expect(configDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Preferences/members');
    // XDG_CONFIG_HOME is honoured on macOS too (issue 17), when absolute.
    expect(configDir({ XDG_CONFIG_HOME: '/x' }, 'darwin', '/Users/ana')).toBe('/x/members');
    expect(configDir({ XDG_CONFIG_HOME: 'rel' }, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Preferences/members');
  });

  it('uses %APPDATA%\\members\\Config on Windows, without a -nodejs suffix', () => {
    expect(configDir({ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ana')).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\members\\Config',
    );
    expect(configDir({}, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Roaming\\members\\Config');
  });
});

describe('cacheDir', () => {
  it('is members in XDG_CACHE_HOME on every platform, as bin/code-cache.js places the code cache', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/tmp/c' }, 'linux', '/home/ana')).toBe('/tmp/c/members');
    expect(cacheDir({ XDG_CACHE_HOME: '/tmp/c' }, 'darwin', '/Users/ana')).toBe('/tmp/c/members');
  });

  it('else the platform\'s cache directory', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '' }, 'linux', '/home/ana')).toBe('/home/ana/.cache/members');
    expect(cacheDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Caches/members');
    expect(cacheDir({ LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'win32', 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Local\\members');
  });

  it('is none on Windows without LOCALAPPDATA', () => {
    expect(cacheDir({}, 'win32', 'C:\\Users\\ana')).toBeUndefined();
  });
});

describe('auditLogPath', () => {
  it('is audit.jsonl in the config directory', () => {
    expect(auditLogPath('/home/ana/.config/members')).toBe(path.join('/home/ana/.config/members', 'audit.jsonl'));
  });
});
