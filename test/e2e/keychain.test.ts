/**
 * Tokens in the OS keychain (docs/security.md "Where the tokens live"), through
 * the built binary against the sandbox and a real Secret Service
 * (gnome-keyring on a private bus, test/helpers/secret-service.ts), checked
 * from another client (secret-tool); and the file where no keychain answers.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startSandbox, tempDir, type SandboxProcess } from './harness.js';
import { hasSecretService, startSecretService, type SecretService } from '../helpers/secret-service.js';

interface StoredProfile { base_url: string; token?: string; developer_token?: string; platform_token?: string; keychain?: string }
interface StatusRow { name: string; token: string | null; token_source: string | null; report_tokens: string | null; stored_in: string | null; status: string | null }

let sandbox: SandboxProcess;
let service: SecretService;
beforeAll(async () => {
  [sandbox, service] = await Promise.all([
    startSandbox(['--students', '3']),
    hasSecretService() ? startSecretService() : (undefined as unknown as SecretService),
  ]);
});
afterAll(() => Promise.all([sandbox?.stop(), service?.stop()]));

/**
 * A fresh config directory, and the binary run with the keychain allowed
 * (MEMBERS_KEYCHAIN unset) on the test Secret Service's bus; `noBus` runs it
 * as on a server, with no session bus. No token from the environment unless given.
 */
function account() {
  const dir = tempDir('members-keychain-');
  const members = (args: string[], options: { env?: Record<string, string | undefined>; input?: string; noBus?: boolean } = {}) =>
    run(args, { env: { MEMBERS_CONFIG_DIR: dir, MEMBERS_KEYCHAIN: undefined, ...(options.noBus ? {} : service.env), ...options.env }, input: options.input });
  const config = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { active?: string; profiles: Record<string, StoredProfile> };
  const item = (account: string) => service.secretTool('lookup', 'service', 'members-cli', 'username', account);
  const login = (extra: string[] = [], env: Record<string, string | undefined> = {}, noBus = false) =>
    members(['auth', 'login', '--base-url', sandbox.url, '--token-stdin', ...extra], {
      input: `${sandbox.apiToken}\n`, env: { MEMBERS_DEVELOPER_TOKEN: sandbox.developerToken, MEMBERS_PLATFORM_TOKEN: sandbox.platformToken, ...env }, noBus,
    });
  const status = async (noBus = false) => {
    const result = await members(['auth', 'status', '-o', 'json'], { noBus });
    return { ...result, rows: result.stdout ? JSON.parse(result.stdout) as StatusRow[] : [] };
  };
  return { dir, members, config, item, login, status, file: join(dir, 'config.json') };
}

const host = () => new URL(sandbox.url).host;
const all = () => ({ token: sandbox.apiToken, developer_token: sandbox.developerToken, platform_token: sandbox.platformToken });

describe.runIf(hasSecretService())('with a Secret Service', () => {
  it('auth login puts the three tokens in one keychain item; the config keeps the base URL and the item\'s name; every command reads them from there', async () => {
    const { members, config, item, login, status, file } = account();
    const loggedIn = await login();
    expect({ code: loggedIn.code, stderr: loggedIn.stderr }).toEqual({
      code: 0, stderr: `✓ Logged in to ${host()} as profile "default" (active); the tokens are in the Secret Service\n`,
    });
    const { keychain } = config().profiles.default!;
    expect(config()).toEqual({ active: 'default', profiles: { default: { base_url: sandbox.url, keychain: expect.stringMatching(/^default\/[0-9a-f]{8}$/) } } });
    expect(readFileSync(file, 'utf8')).not.toContain(sandbox.apiToken);
    expect(JSON.parse(await item(keychain!) ?? 'null')).toEqual(all());

    const shown = await status();
    expect(shown.code).toBe(0);
    expect(shown.rows).toEqual([expect.objectContaining({
      name: 'default', token: expect.stringMatching(/^sbx_…/), token_source: 'profile', report_tokens: expect.stringMatching(/^sbx_….* sbx_…/), stored_in: 'keychain', status: 'ok',
    })]);
    const products = await members(['products', 'list', '--per-page', '1', '-o', 'ndjson']);
    expect({ code: products.code, lines: products.stdout.trimEnd().split('\n').length }).toEqual({ code: 0, lines: 1 });
    const report = await members(['report', 'engaged-courses', '--limit', '3', '--max-pages', '1', '-o', 'ndjson', '-q']);
    expect({ code: report.code, stderr: report.stderr, rows: report.stdout.trimEnd().split('\n').length }).toEqual({ code: 0, stderr: '', rows: 3 });
    expect(await members(['auth', 'token'])).toEqual({ code: 0, stdout: `${sandbox.apiToken}\n`, stderr: '' });
  });

  it('auth logout deletes the item', async () => {
    const { members, config, item, login } = account();
    expect((await login()).code).toBe(0);
    const { keychain } = config().profiles.default!;
    const logout = await members(['auth', 'logout']);
    expect({ code: logout.code, stderr: logout.stderr }).toEqual({ code: 0, stderr: '✓ Forgot the tokens of profile "default" from the Secret Service\n' });
    expect(await item(keychain!)).toBeNull();
    expect(config().profiles.default).toEqual({ base_url: sandbox.url });
    expect((await members(['auth', 'token'])).code).toBe(3);
  });

  it('tokens kept in plain text move to the keychain on the next auth login, report tokens not given again included', async () => {
    const { config, item, login, status, file } = account();
    writeFileSync(file, JSON.stringify({ active: 'default', profiles: { default: { base_url: sandbox.url, ...all() } } }), { mode: 0o600 });
    expect((await status()).rows[0]).toMatchObject({ stored_in: 'file', status: 'ok' });

    const again = await login([], { MEMBERS_DEVELOPER_TOKEN: undefined, MEMBERS_PLATFORM_TOKEN: undefined });
    expect({ code: again.code, stderr: again.stderr }).toEqual({
      code: 0, stderr: `✓ Logged in to ${host()} as profile "default" (active); the tokens are in the Secret Service\n`,
    });
    const profile = config().profiles.default!;
    expect(profile).toEqual({ base_url: sandbox.url, keychain: expect.any(String) });
    expect(JSON.parse(await item(profile.keychain!) ?? 'null')).toEqual(all());
    expect((await status()).rows[0]).toMatchObject({ stored_in: 'keychain', report_tokens: expect.any(String), status: 'ok' });
  });

  it('--insecure-storage keeps them in the file, with no warning, and deletes the item they had', async () => {
    const { config, item, login, status, file } = account();
    expect((await login()).code).toBe(0);
    const { keychain } = config().profiles.default!;
    const insecure = await login(['--insecure-storage']);
    expect({ code: insecure.code, stderr: insecure.stderr }).toEqual({
      code: 0, stderr: `✓ Logged in to ${host()} as profile "default" (active); the tokens are in ${file}\n`,
    });
    expect(config().profiles.default).toEqual({ base_url: sandbox.url, ...all() });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await item(keychain!)).toBeNull();
    expect((await status()).rows[0]).toMatchObject({ stored_in: 'file', status: 'ok' });
  });

  it('MEMBERS_KEYCHAIN=off: the file, no warning, even with a keychain there', async () => {
    const { config, login } = account();
    const off = await login([], { MEMBERS_KEYCHAIN: 'off' });
    expect({ code: off.code, warned: off.stderr.includes('warning') }).toEqual({ code: 0, warned: false });
    expect(config().profiles.default).toEqual({ base_url: sandbox.url, ...all() });
  });

  it('tokens in a keychain that does not answer (here no session bus): exit 3 before any request, saying what to do; logout changes nothing', async () => {
    const { members, config, item, login, status } = account();
    expect((await login()).code).toBe(0);
    const before = config();
    const { keychain } = before.profiles.default!;

    const list = await members(['products', 'list'], { noBus: true });
    expect(list.code).toBe(3);
    expect(list.stderr).toMatch(/^error: the tokens of profile "default" are in the OS keychain \(item "default\/[0-9a-f]{8}"\), which did not answer: .*DBUS_SESSION_BUS_ADDRESS.*\. Unlock it and run again, .* `members auth login --profile default --insecure-storage`\n$/);
    // A token from the environment needs no keychain.
    expect((await members(['products', 'list', '-o', 'ndjson'], { noBus: true, env: { MEMBERS_TOKEN: sandbox.apiToken } })).code).toBe(0);

    const shown = await status(true);
    expect(shown.code).toBe(3);
    expect(shown.rows[0]).toMatchObject({ token: null, stored_in: 'keychain' });

    const logout = await members(['auth', 'logout'], { noBus: true });
    expect(logout.code).toBe(3);
    expect(logout.stderr).toContain('nothing was changed: unlock it and run `members auth logout` again');
    expect(config()).toEqual(before);
    expect(JSON.parse(await item(keychain!) ?? 'null')).toEqual(all());
  });

  it('tokens in the keychain stay with their host too (issue 27): refused before the keychain is asked, warned over, dropped on a move, guarded by the config\'s mode', async () => {
    const { members, config, item, login, file } = account();
    expect((await login()).code).toBe(0);
    const staging = sandbox.url.replace('127.0.0.1', 'localhost');
    // No session bus: a refusal that asked the keychain would be the keychain's error.
    const foreign = await members(['products', 'list'], { noBus: true, env: { MEMBERS_BASE_URL: staging } });
    expect({ code: foreign.code, stdout: foreign.stdout }).toEqual({ code: 3, stdout: '' });
    expect(foreign.stderr).toBe(`error: the API token of profile "default" belongs to ${sandbox.url}, but the base URL in force is ${staging} (from MEMBERS_BASE_URL); `
      + `it is not sent there. Set MEMBERS_TOKEN to a token of ${staging}, or drop MEMBERS_BASE_URL to use ${sandbox.url}\n`);

    const overridden = await members(['products', 'list', '--per-page', '1', '-o', 'ndjson'], { noBus: true, env: { MEMBERS_TOKEN: sandbox.apiToken } });
    expect({ code: overridden.code, stderr: overridden.stderr }).toEqual({
      code: 0, stderr: `warning: MEMBERS_TOKEN overrides the API token stored in profile "default" and is sent to its host, ${sandbox.url}; unset MEMBERS_TOKEN to use the profile's own\n`,
    });

    const moved = await login(['--base-url', staging], { MEMBERS_DEVELOPER_TOKEN: undefined, MEMBERS_PLATFORM_TOKEN: undefined });
    expect(moved.code).toBe(0);
    expect(moved.stderr).toContain(`warning: the report tokens of profile "default" were for ${sandbox.url} and are dropped`);
    const { keychain } = config().profiles.default!;
    expect(config().profiles.default).toEqual({ base_url: staging, keychain });
    expect(JSON.parse(await item(keychain!) ?? 'null')).toEqual({ token: sandbox.apiToken });

    chmodSync(file, 0o666);
    const exposed = await members(['auth', 'status', '--offline']);
    expect(exposed.stderr).toBe(`warning: the config file ${file} names tokens kept in the OS keychain and other users can change it (mode 0666): run \`chmod 600 ${file}\`\n`);
    chmodSync(file, 0o644);
    expect((await members(['auth', 'status', '--offline'])).stderr).toBe('');
  });

  it('loads the keychain library only when a stored token is read', async () => {
    const { dir, members, login } = account();
    expect((await login()).code).toBe(0);
    const preload = join(dir, 'record.cjs');
    const loaded = join(dir, 'loaded.txt');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, Object.keys(require.cache).join('\\n')));\n`);
    const keyring = async (args: string[], env: Record<string, string> = {}) => {
      expect((await members(args, { env: { NODE_OPTIONS: `--require ${preload}`, ...env } })).code).toBe(0);
      return readFileSync(loaded, 'utf8').split('\n').filter((file) => file.includes('@napi-rs')).length > 0;
    };
    expect(await keyring(['products', 'list', '--per-page', '1'], { MEMBERS_TOKEN: sandbox.apiToken })).toBe(false);
    expect(await keyring(['history'])).toBe(false);
    expect(await keyring(['products', 'list', '--per-page', '1'])).toBe(true);
  });
});

describe('without a keychain (a server, cron, a container)', () => {
  it('auth login stores the tokens in the file (mode 0600) and says why', async () => {
    const { config, login, status, file } = account();
    const loggedIn = await login([], {}, true);
    expect(loggedIn.code).toBe(0);
    expect(loggedIn.stderr).toMatch(/^warning: no OS keychain answered \(.+\): the tokens are stored in plain text in .*config\.json \(mode 0600\); to choose the file and skip this warning, log in with --insecure-storage\n/);
    expect(loggedIn.stderr).toContain(`the tokens are in ${file}\n`);
    expect(config().profiles.default).toEqual({ base_url: sandbox.url, ...all() });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await status(true)).rows[0]).toMatchObject({ stored_in: 'file', status: 'ok' });
  });

  it('a keychain setting other than off or auto is exit 2, before anything is stored', async () => {
    const { login, dir } = account();
    const bad = await login([], { MEMBERS_KEYCHAIN: 'no' }, true);
    expect({ code: bad.code, stderr: bad.stderr }).toEqual({ code: 2, stderr: 'error: MEMBERS_KEYCHAIN must be "off" or "auto" (the default), not "no"\n' });
    expect(() => statSync(join(dir, 'config.json'))).toThrow(/ENOENT/);
  });
});
