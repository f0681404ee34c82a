/**
 * `members __complete-profiles`: the profile names for the scripts, never a
 * token, nothing at all on any error, and no file created.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIo } from '../../helpers/fake-io.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-profiles-'));
});
afterEach(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});

async function profiles(configDir: string, args: string[] = []) {
  const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: configDir, MEMBERS_TOKEN: 'tok_ENV_SENTINEL' } });
  const code = await main(['__complete-profiles', ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const CONFIG = {
  active: 'production',
  profiles: {
    staging: { base_url: 'https://staging.example.com', token: 'tok_STAGING_SENTINEL', developer_token: 'dev_SENTINEL' },
    production: { base_url: 'https://members.example.com', token: 'tok_PROD_SENTINEL' },
  },
};

describe('__complete-profiles', () => {
  it('prints the profile names, sorted, one per line, and nothing else', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG), { mode: 0o600 });
    expect(await profiles(dir)).toEqual({ code: 0, stdout: 'production\nstaging\n', stderr: '' });
  });

  it('ignores the global options, and any arguments', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG), { mode: 0o600 });
    expect(await profiles(dir, ['-p', 'staging', '-o', 'json', 'extra'])).toEqual({ code: 0, stdout: 'production\nstaging\n', stderr: '' });
    expect(await profiles(dir, ['--timeout', 'never'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints nothing, and creates nothing, without a config file', async () => {
    const absent = join(dir, 'absent');
    expect(await profiles(absent)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(absent)).toBe(false);
  });

  it('prints nothing for a broken config file', async () => {
    writeFileSync(join(dir, 'config.json'), '{"profiles": [not json', { mode: 0o600 });
    expect(await profiles(dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints nothing for an unreadable config file', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG), { mode: 0o000 });
    if (process.getuid?.() === 0) chmodSync(dir, 0o000); // root reads any file; a closed directory stops it only through other checks
    const result = await profiles(dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
