/**
 * bin/members.js runs a command line that starts with `mcp` from a bundle of
 * that command alone (dist/mcp.cjs, src/entry/mcp-main.ts); any other,
 * `members -p desk mcp` included, runs the whole program. The bundle must
 * answer as the whole program does (here run in process): the same help, the
 * same errors and exit codes.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIo } from '../helpers/fake-io.js';
import { run, tempDir } from './harness.js';

describe('members mcp from its own bundle', () => {
  it('prints the help the whole program prints for it, exit 0', async () => {
    const fake = fakeIo();
    expect(await main(['mcp', '--help'], fake.io)).toBe(0);
    expect(fake.stdout()).toContain('--show-personal-data');
    expect(await run(['mcp', '--help'])).toEqual({ code: 0, stdout: fake.stdout(), stderr: '' });
  });

  it('refuses bad flags and arguments, and a profile without a base URL, with the whole program\'s errors and exit codes, in text and JSON', async () => {
    const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-') };
    const cases = [['--bogus'], ['--max-rows', '0'], ['--max-rows', 'many', '-o', 'json'], ['tools'], ['--check', '-o', 'yaml'], ['--check']];
    for (const args of cases) {
      const whole = fakeIo({ env });
      const code = await main(['mcp', ...args], whole.io);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect({ args, ...await run(['mcp', ...args], { env }) }).toEqual({ args, code, stdout: '', stderr: whole.stderr() });
    }
  });

  it('checks the profile before a client connects, without connecting: a bad base URL exit 2, no token exit 3, as the whole program', async () => {
    const profiles = [
      { env: { MEMBERS_BASE_URL: 'members.example.com', MEMBERS_TOKEN: 'secret' }, code: 2 },
      { env: { MEMBERS_BASE_URL: 'http://127.0.0.1:9' }, code: 3 },
      { env: { MEMBERS_BASE_URL: 'http://127.0.0.1:9', MEMBERS_TOKEN: 'secret', HTTP_PROXY: 'not a proxy' }, code: 2 },
    ];
    for (const { env: profile, code } of profiles) {
      const env = { MEMBERS_CONFIG_DIR: tempDir('members-mcp-config-'), ...profile };
      const whole = fakeIo({ env });
      expect({ profile, code: await main(['mcp'], whole.io) }).toEqual({ profile, code });
      expect({ profile, ...await run(['mcp'], { env }) }).toEqual({ profile, code, stdout: '', stderr: whole.stderr() });
    }
  });
});
