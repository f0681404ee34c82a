/**
 * Which profile `auth` writes and reads, through the built binary against the
 * sandbox: one precedence (config/settings.ts) for every command, so an empty
 * MEMBERS_PROFILE or MEMBERS_BASE_URL (`export MEMBERS_PROFILE=` in a shell
 * profile) names nothing, for `auth login` as for the rest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, useSandboxProcess, tempDir } from './harness.js';

const sandbox = useSandboxProcess(['--students', '3']);

/** A fresh config directory, and the binary run with only what a test gives it (no MEMBERS_TOKEN from the sandbox). */
function account() {
  const dir = tempDir('members-auth-');
  const members = (args: string[], env: Record<string, string> = {}, input?: string) =>
    run(args, { env: { MEMBERS_CONFIG_DIR: dir, ...env }, input });
  const file = join(dir, 'config.json');
  const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
    active?: string; profiles: Record<string, { base_url: string; token?: string }>;
  };
  return { members, config, file };
}

describe('an empty MEMBERS_PROFILE names no profile', () => {
  it('auth login writes "default", and every command then reads it', async () => {
    const { members, config, file } = account();
    const empty = { MEMBERS_PROFILE: '' };
    const login = await members(['auth', 'login', '--base-url', sandbox.url, '--token-stdin'], empty, `${sandbox.apiToken}\n`);
    expect({ code: login.code, stderr: login.stderr }).toEqual({
      code: 0, stderr: `✓ Logged in to ${new URL(sandbox.url).host} as profile "default" (active); the tokens are in ${file}\n`,
    });
    expect(config()).toEqual({ active: 'default', profiles: { default: { base_url: sandbox.url, token: sandbox.apiToken } } });

    const status = await members(['auth', 'status', '-o', 'json'], empty);
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as Array<{ name: string; in_force: boolean; status: string }>)
      .map(({ name, in_force, status: works }) => ({ name, in_force, works }))).toEqual([{ name: 'default', in_force: true, works: 'ok' }]);

    const products = await members(['products', 'list', '--per-page', '1', '-o', 'ndjson'], empty);
    expect({ code: products.code, lines: products.stdout.trimEnd().split('\n').length }).toEqual({ code: 0, lines: 1 });

    const logout = await members(['auth', 'logout'], empty);
    expect({ code: logout.code, stderr: logout.stderr }).toEqual({ code: 0, stderr: `✓ Forgot the tokens of profile "default" from ${file}\n` });
    expect(config().profiles.default).toEqual({ base_url: sandbox.url });
  });

  it('--profile still wins over it, and a named MEMBERS_PROFILE is the one written', async () => {
    const { members, config } = account();
    expect((await members(['auth', 'login', '--profile', 'work', '--base-url', sandbox.url, '--token-stdin'], { MEMBERS_PROFILE: '' }, sandbox.apiToken)).code).toBe(0);
    expect((await members(['auth', 'login', '--base-url', sandbox.url, '--token-stdin'], { MEMBERS_PROFILE: 'home' }, sandbox.apiToken)).code).toBe(0);
    expect(Object.keys(config().profiles).sort()).toEqual(['home', 'work']);
    expect(config().active).toBe('work');
  });
});

describe('the base URL of auth login: --base-url, else MEMBERS_BASE_URL, an empty value giving none', () => {
  it('an empty --base-url falls back to MEMBERS_BASE_URL, as for every other command', async () => {
    const { members, config, file } = account();
    const login = await members(['auth', 'login', '--base-url', '', '--token-stdin'], { MEMBERS_BASE_URL: sandbox.url }, sandbox.apiToken);
    expect({ code: login.code, stderr: login.stderr }).toEqual({
      code: 0, stderr: `✓ Logged in to ${new URL(sandbox.url).host} as profile "default" (active); the tokens are in ${file}\n`,
    });
    expect(config().profiles.default?.base_url).toBe(sandbox.url);
  });

  it('neither: exit 2, nothing stored', async () => {
    const { members } = account();
    const login = await members(['auth', 'login', '--token-stdin'], { MEMBERS_BASE_URL: '' }, sandbox.apiToken);
    expect({ code: login.code, stderr: login.stderr }).toEqual({ code: 2, stderr: 'error: auth login needs --base-url URL (or MEMBERS_BASE_URL)\n' });
  });
});
