import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { main } from '../../src/main.js';
import { fakeIo } from '../helpers/fake-io.js';

const TOKEN = 'tok_SENTINEL_main_0123456789';
let agent: MockAgent;
let configDir: string;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  configDir = mkdtempSync(join(tmpdir(), 'members-main-'));
});
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

async function members(argv: string[], env: Record<string, string> = {}, stdin?: string) {
  const fake = fakeIo({ env: { MEMBERS_CONFIG_DIR: configDir, ...env }, stdin });
  const code = await main(argv, fake.io, { dispatcher: agent });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('the error boundary', () => {
  it('prints the version, the Node.js version and the platform, one a line, for --version and version alike', async () => {
    const expected = `members ${__MEMBERS_VERSION__}\nNode.js ${process.version}\n${process.platform} ${process.arch}\n`;
    expect(__MEMBERS_VERSION__).toMatch(/^\d+\.\d+\.\d+/);
    for (const argv of [['--version'], ['-V'], ['version'], ['version', '-q']]) {
      expect({ argv, ...(await members(argv)) }).toEqual({ argv, code: 0, stdout: expected, stderr: '' });
    }
  });

  it('turns an unknown command into exit 2, with a JSON error line under -o json', async () => {
    const result = await members(['frobnicate', '-o', 'json']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    const message = "unknown command 'frobnicate'; see `members --help`";
    expect(lines).toEqual([`error: ${message}`, JSON.stringify({ error: { exit_code: 2, status: null, message } })]);
  });

  it('exits 3 before any request when there is no token', async () => {
    const result = await members(['api', '/api/v1/products'], { MEMBERS_BASE_URL: 'https://members.example.com' });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('error: no API token for profile "default": run `members auth login` or set MEMBERS_TOKEN\n');
  });

  it('refuses plain http to a non-loopback host before any request (exit 2)', async () => {
    const result = await members(['api', '/api/v1/products'], { MEMBERS_BASE_URL: 'http://members.example.com', MEMBERS_TOKEN: TOKEN });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*http/);
  });

  it('reports a 404 as exit 4 with the JSON error line carrying the status', async () => {
    agent.get('https://members.example.com').intercept({ path: '/api/v1/products/nope', method: 'GET' }).reply(404, { message: 'No query results' });
    const result = await members(['api', '/api/v1/products/nope', '--json'], { MEMBERS_BASE_URL: 'https://members.example.com', MEMBERS_TOKEN: TOKEN });
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1) as string).error).toMatchObject({ exit_code: 4, status: 404 });
    expect(result.stderr).not.toContain('    at ');
  });

  it('shows a stack trace only with MEMBERS_DEBUG=1', async () => {
    const result = await members(['api', '/api/v1/products'], { MEMBERS_BASE_URL: 'ftp://x', MEMBERS_TOKEN: TOKEN, MEMBERS_DEBUG: '1' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('    at ');
  });
});

describe('settings precedence and secrets', () => {
  it('prefers --base-url over MEMBERS_BASE_URL over the profile', async () => {
    const login = await members(
      ['auth', 'login', '--profile', 'prod', '--base-url', 'https://profile.example.com', '--token-stdin', '--no-verify'], {}, `${TOKEN}\n`,
    );
    expect(login.code).toBe(0);
    // The profile's token goes to the profile's host only: another host's needs a token of its own (issue 27).
    expect((await members(['api', '/api/v1/products'], { MEMBERS_BASE_URL: 'https://env.example.com' })).code).toBe(3);
    const token = { MEMBERS_TOKEN: 'env_token_0123456789' };
    agent.get('https://env.example.com').intercept({ path: '/api/v1/products', method: 'GET', headers: { authorization: 'Bearer env_token_0123456789' } }).reply(200, { data: [] });
    expect((await members(['api', '/api/v1/products'], { MEMBERS_BASE_URL: 'https://env.example.com', ...token })).code).toBe(0);
    agent.get('https://flag.example.com').intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, { data: [] });
    expect((await members(['api', '/api/v1/products', '--base-url', 'https://flag.example.com'], { MEMBERS_BASE_URL: 'https://env.example.com', ...token })).code).toBe(0);
    agent.get('https://profile.example.com').intercept({ path: '/api/v1/products', method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } }).reply(200, { data: [] });
    expect((await members(['api', '/api/v1/products'])).code).toBe(0);
  });

  it('prefers MEMBERS_TOKEN over the profile token', async () => {
    await members(['auth', 'login', '--base-url', 'https://members.example.com', '--token-stdin', '--no-verify'], {}, 'profile_token_0123456789\n');
    agent.get('https://members.example.com').intercept({ path: '/api/v1/products', method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } }).reply(200, { data: [] });
    expect((await members(['api', '/api/v1/products'], { MEMBERS_TOKEN: TOKEN })).code).toBe(0);
  });

  it('never prints the token with --verbose, on success or failure', async () => {
    const pool = agent.get('https://members.example.com');
    pool.intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, { data: [{ id: 'p1' }] });
    pool.intercept({ path: '/api/v1/courses', method: 'GET' }).reply(401, { message: `bad token ${TOKEN}` });
    const env = { MEMBERS_BASE_URL: 'https://members.example.com', MEMBERS_TOKEN: TOKEN };
    const ok = await members(['api', '/api/v1/products', '--verbose'], env);
    const refused = await members(['api', '/api/v1/courses', '--verbose', '-o', 'json'], env);
    expect(ok.code).toBe(0);
    expect(refused.code).toBe(3);
    expect(ok.stderr).toMatch(/^GET https:\/\/members\.example\.com\/api\/v1\/products 200 \d+ms retries=0\n$/);
    for (const text of [ok.stdout, ok.stderr, refused.stdout, refused.stderr]) expect(text).not.toContain('SENTINEL');
  });

  it('auth login verifies the token and stores nothing when it is refused (exit 3)', async () => {
    agent.get('https://members.example.com').intercept({ path: '/api/v1/products?per_page=1', method: 'GET' }).reply(401, { message: 'Unauthenticated.' });
    const refused = await members(['auth', 'login', '--base-url', 'https://members.example.com', '--token-stdin'], {}, `${TOKEN}\n`);
    expect(refused.code).toBe(3);
    const token = await members(['auth', 'token']);
    expect(token.code).toBe(3);
  });

  it('auth login against a server that answers 200 stores a working profile; logout forgets it', async () => {
    agent.get('https://members.example.com').intercept({ path: '/api/v1/products?per_page=1', method: 'GET' }).reply(200, { data: [] });
    expect((await members(['auth', 'login', '--base-url', 'https://members.example.com', '--token-stdin'], {}, `${TOKEN}\n`)).code).toBe(0);
    expect(await members(['auth', 'token'])).toMatchObject({ code: 0, stdout: `${TOKEN}\n` });
    const status = await members(['auth', 'status', '--offline', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(status.stdout).not.toContain('SENTINEL');
    expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ name: 'default', active: 1, token: 'tok_…6789', token_source: 'profile' })]);
    expect((await members(['auth', 'logout'])).code).toBe(0);
    expect((await members(['auth', 'token'])).code).toBe(3);
  });
});

describe('auth login and status: what must never be stored or shown', () => {
  it('refuses a token holding a line break or a control character, storing nothing (exit 2)', async () => {
    for (const token of ['tok_abc\ndef_0123456789', 'tok_abc\u001b[0m_0123456789', 'tok abc 0123456789']) {
      const result = await members(['auth', 'login', '--base-url', 'https://members.example.com', '--token-stdin', '--no-verify'], {}, `${token}\n`);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the API token holds a line break, a space or another control character');
    }
    const status = await members(['auth', 'status', '--offline', '-o', 'json']);
    expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ name: 'default', token: null })]);
  });

  it('auth status never shows a password held in a base URL', async () => {
    const result = await members(['auth', 'status', '--offline', '-o', 'json'], { MEMBERS_BASE_URL: 'https://ana:s3cret-pass@members.example.com', MEMBERS_TOKEN: TOKEN });
    expect(result.stdout).not.toContain('s3cret-pass');
    expect(JSON.parse(result.stdout)[0].base_url).toBe('https://ana:***@members.example.com');
  });
});
