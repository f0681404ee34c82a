/**
 * Credentials stay with their host (issue 27), through the built binary: a
 * stored token is never sent to a base URL given by flag or environment for
 * another origin (exit 3 before any request); a token from the environment
 * that overrides a stored one is warned about; logging a profile in to
 * another host drops its report tokens; a config others can read or replace
 * is warned about, with the chmod that fixes it. The sandbox answers on
 * 127.0.0.1 and on localhost: two origins, one server.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, startSandbox, tempDir, type SandboxProcess } from './harness.js';
import { stats } from './bulk-helpers.js';

let sandbox: SandboxProcess;
let production: string;
let staging: string;
let studentId: string;
beforeAll(async () => {
  sandbox = await startSandbox(['--students', '5']);
  production = sandbox.url;
  staging = sandbox.url.replace('127.0.0.1', 'localhost');
  studentId = (await sandboxGet<{ data: Array<{ id: string }> }>(sandbox, '/api/v1/students?per_page=1')).body.data[0]!.id;
});
afterAll(() => sandbox?.stop());

let dirs = 0;
/** A config holding profile "production" (this sandbox on 127.0.0.1) with its tokens. */
function config(profile: Record<string, string> = {}): string {
  const dir = join(tempDir('members-credentials-'), `c${dirs++}`);
  const file = join(dir, 'config.json');
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(file, JSON.stringify({
    active: 'production',
    profiles: { production: { base_url: production, token: sandbox.apiToken, developer_token: sandbox.developerToken, platform_token: sandbox.platformToken, ...profile } },
  }), { mode: 0o600 });
  return dir;
}
const members = (dir: string, args: string[], env: Record<string, string> = {}) => run(args, { env: { MEMBERS_CONFIG_DIR: dir, ...env } });
const score = async () => (await sandboxGet<{ data: { score: number } }>(sandbox, `/api/v1/students/${studentId}/scores`)).body.data.score;
const requests = async () => Object.values(await stats(sandbox)).reduce((sum, n) => sum + n, 0);

describe('a stored token goes only to its own profile\'s host', () => {
  it.each([
    ['MEMBERS_BASE_URL', [], (url: string) => ({ MEMBERS_BASE_URL: url })],
    ['--base-url', ['--base-url'], () => ({})],
  ] as const)('a base URL for another host from %s: exit 3, which token belongs where, and no request', async (from, flag, env) => {
    const dir = config();
    const before = [await score(), await requests()];
    const args = ['-p', 'production', 'scores', 'set', studentId, '0', '--yes', ...(flag.length > 0 ? [...flag, staging] : [])];
    const { code, stdout, stderr } = await members(dir, args, env(staging));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: the API token of profile "production" belongs to ${production}, but the base URL in force is ${staging} (from ${from}); `
      + `it is not sent there. Set MEMBERS_TOKEN to a token of ${staging}, or drop ${from} to use ${production}\n`);
    expect(stderr).not.toContain(sandbox.apiToken);
    expect([await requests(), await score()]).toEqual([before[1], before[0]]);
  });

  it('the report tokens too', async () => {
    const dir = config();
    const before = await requests();
    const { code, stderr } = await members(dir, ['report', 'engaged-courses'], { MEMBERS_BASE_URL: staging });
    expect(code).toBe(3);
    expect(stderr).toContain(`error: the report developer token and report platform token of profile "production" belong to ${production}`);
    expect(stderr).toContain('Set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN to tokens of');
    expect(await requests()).toBe(before);
  });

  it('with the token from the environment too, the change goes to the host given', async () => {
    const dir = config();
    const { code, stderr } = await members(dir, ['-p', 'production', 'scores', 'set', studentId, '7', '--yes'], { MEMBERS_BASE_URL: staging, MEMBERS_TOKEN: sandbox.apiToken });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('warning');
    expect(await score()).toBe(7);
  });

  it('MEMBERS_TOKEN over a profile that stores its own: sent to the profile\'s host, with a warning', async () => {
    const dir = config({ token: 'tok_STORED_0123456789' });
    const { code, stderr } = await members(dir, ['-p', 'production', 'scores', 'get', studentId], { MEMBERS_TOKEN: sandbox.apiToken });
    expect(code, stderr).toBe(0);
    expect(stderr).toBe(`warning: MEMBERS_TOKEN overrides the API token stored in profile "production" and is sent to its host, ${production}; `
      + 'unset MEMBERS_TOKEN to use the profile\'s own\n');
  });
});

describe('logging a profile in to another host', () => {
  it('drops its report tokens and says so; the report then asks for them instead of sending the old ones', async () => {
    const dir = config();
    const login = await members(dir, ['auth', 'login', '-p', 'production', '--base-url', staging, '--no-verify'], { MEMBERS_TOKEN: sandbox.apiToken });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`warning: the report tokens of profile "production" were for ${production} and are dropped; `
      + 'to use the report here, set MEMBERS_DEVELOPER_TOKEN and MEMBERS_PLATFORM_TOKEN and log in again');
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.production;
    expect(stored).toEqual({ base_url: staging, token: sandbox.apiToken });
    const before = await requests();
    const report = await members(dir, ['report', 'engaged-courses']);
    expect(report.code).toBe(3);
    expect(report.stderr).toContain('no report developer token and platform token for profile "production"');
    expect(await requests()).toBe(before);
  });

  it('to the same host keeps them', async () => {
    const dir = config();
    const login = await members(dir, ['auth', 'login', '-p', 'production', '--base-url', `${production}/`, '--no-verify'], { MEMBERS_TOKEN: sandbox.apiToken });
    expect(login.stderr).not.toContain('dropped');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.production.developer_token).toBe(sandbox.developerToken);
  });
});

describe('a config others can read or replace', () => {
  it('is warned about, with the chmod that fixes it, by auth status (offline too) and by any command using its tokens', async () => {
    const dir = config();
    const file = join(dir, 'config.json');
    chmodSync(file, 0o644);
    chmodSync(dir, 0o777);
    const warnings = `warning: the config file ${file} holds API tokens and other users can read it (mode 0644): run \`chmod 600 ${file}\`\n`
      + `warning: the config directory ${dir} can be written by other users (mode 0777), who could replace the config: run \`chmod 700 ${dir}\`\n`;
    for (const args of [['auth', 'status', '--offline'], ['auth', 'status'], ['scores', 'get', studentId]]) {
      const { code, stderr } = await members(dir, args);
      expect(code, stderr).toBe(0);
      expect(stderr).toBe(warnings);
    }
    chmodSync(file, 0o600);
    chmodSync(dir, 0o700);
    expect((await members(dir, ['auth', 'status', '--offline'])).stderr).toBe('');
  });
});
