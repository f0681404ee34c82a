/**
 * Contract §1.5: secrets never appear in stdout, stderr, logs or error
 * messages. The built binary runs commands of every kind — reads, changes,
 * bulk runs, the report, `api`, `history`, `auth`, with `--verbose`, with
 * `--out`, and failing with 401, 403, 404, 422 and network errors — against a
 * sandbox that accepts SENTINEL tokens. Everything they print, and every file
 * they leave (the config file alone excepted), is scanned for the sentinels.
 * `members auth token` prints the token by design and is checked apart.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { run, type RunResult } from '../harness.js';

const API = 'tok_SENTINEL_api_7f3a9c2e41d8b6a5';
const DEVELOPER = 'dev_SENTINEL_dev_5b1e8d4c7a2f9031';
const PLATFORM = 'plat_SENTINEL_plat_c3e9a1f7d5b2e8';
/** Refused tokens are secrets too: a typo of the real one. */
const WRONG_API = 'tok_SENTINEL_wrong_0d9e8f7a6b5c4d3e';
const WRONG_PLATFORM = 'plat_SENTINEL_wrong_9a8b7c6d5e4f';
const SECRETS = [API, DEVELOPER, PLATFORM, WRONG_API, WRONG_PLATFORM];

/** Any trace of a sentinel: the marker alone catches a token cut in half, and the encoded forms a token in a URL. */
function leaks(text: string): string[] {
  const needles = ['SENTINEL', ...SECRETS.flatMap((s) => [s, encodeURIComponent(s), Buffer.from(s).toString('base64')])];
  return [...new Set(needles.filter((needle) => text.includes(needle)))];
}

let sandbox: Sandbox;
let work: string;
/** Config dir whose profile holds the tokens (no token in the environment). */
let profileDir: string;
/** Config dir of the runs that take the tokens from the environment. */
let envDir: string;

interface Ran extends RunResult {
  args: string[];
}
const runs: Ran[] = [];

/** Runs the binary and keeps what it printed for the scan. */
async function members(args: string[], options: { env?: Record<string, string>; input?: string; dir?: 'env' | 'profile' } = {}): Promise<Ran> {
  const dir = options.dir ?? 'env';
  const env: Record<string, string> = dir === 'env'
    ? {
      MEMBERS_CONFIG_DIR: envDir, MEMBERS_BASE_URL: sandbox.url,
      MEMBERS_TOKEN: API, MEMBERS_DEVELOPER_TOKEN: DEVELOPER, MEMBERS_PLATFORM_TOKEN: PLATFORM,
    }
    : { MEMBERS_CONFIG_DIR: profileDir };
  const result = await run(args, { env: { ...env, ...options.env }, input: options.input });
  const ran = { ...result, args };
  runs.push(ran);
  return ran;
}

const json = <T>(ran: Ran): T => JSON.parse(ran.stdout) as T;

interface Student { id: string; email: string; document: string | null; subscriptions?: Array<{ id: string | number; product_id: string }> }

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 11, students: 30, apiToken: API, developerToken: DEVELOPER, platformToken: PLATFORM });
  work = mkdtempSync(join(tmpdir(), 'members-secrets-'));
  profileDir = join(work, 'profile-config');
  envDir = join(work, 'env-config');
});

afterAll(async () => {
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('members api and the report tokens', () => {
  it('a report body holding the tokens in path and next_page_url prints them as ***', async () => {
    const ran = await run(['api', `/api/partners/reports/engaged-courses/${DEVELOPER}/${PLATFORM}`, '-f', 'limit=2'], {
      env: { MEMBERS_CONFIG_DIR: join(work, 'api-config'), MEMBERS_BASE_URL: sandbox.url, MEMBERS_TOKEN: API, MEMBERS_DEVELOPER_TOKEN: DEVELOPER, MEMBERS_PLATFORM_TOKEN: PLATFORM },
    });
    expect(ran.code, ran.stderr).toBe(0);
    const body = JSON.parse(ran.stdout) as { path: string; next_page_url: string };
    expect(body.path).toContain('/***/***');
    expect(ran.stdout).not.toContain(DEVELOPER);
    expect(ran.stdout).not.toContain(PLATFORM);
  });
});

describe('no secret in any output or file', () => {
  it('runs every kind of command, succeeding and failing, and none prints a secret', async () => {
    // --- auth: a profile that holds all three tokens, checked against the API.
    const login = await members(['auth', 'login', '--base-url', sandbox.url, '--token-stdin', '-v'], {
      dir: 'profile', input: `${API}\n`, env: { MEMBERS_DEVELOPER_TOKEN: DEVELOPER, MEMBERS_PLATFORM_TOKEN: PLATFORM },
    });
    expect(login.code).toBe(0);
    await members(['auth', 'login', '--profile', 'spare', '--base-url', sandbox.url, '--no-verify'], { dir: 'profile', env: { MEMBERS_TOKEN: WRONG_API } });
    for (const args of [['auth', 'status'], ['auth', 'status', '-v'], ['auth', 'status', '-o', 'json'], ['auth', 'status', '--offline']]) {
      expect((await members(args, { dir: 'profile' })).code).toBe(0);
    }
    expect((await members(['auth', 'status', '--profile', 'spare'], { dir: 'profile' })).code).toBe(3);

    // --- reads, with tokens from the profile and from the environment, in every format.
    const list = await members(['students', 'list', '--all', '--with-subscriptions', '-o', 'json', '-v'], { dir: 'profile' });
    expect(list.code).toBe(0);
    const students = json<Student[]>(list);
    const withSub = students.find((s) => (s.subscriptions?.length ?? 0) > 0);
    const withDoc = students.find((s) => s.document);
    if (!withSub || !withDoc) throw new Error('the sandbox has no student with a subscription or a document');
    const subscription = withSub.subscriptions?.[0] as { id: string | number; product_id: string };
    const products = json<Array<{ id: string }>>(await members(['products', 'list', '--all', '-o', 'json', '-v']));
    const courses = json<Array<{ id: string }>>(await members(['courses', 'list', '-o', 'json']));
    const product = products.find((p) => !withSub.subscriptions?.some((s) => s.product_id === p.id));
    const course = courses[0];
    if (!product || !course) throw new Error('the sandbox has no spare product or no course');
    const outDir = join(work, 'out');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(outDir);

    const reads: Array<Promise<void>> = [];
    for (const args of [
      ['students', 'list'], ['students', 'list', '-o', 'ndjson', '--per-page', '7', '--all', '-v'],
      ['students', 'list', '--all', '-o', 'csv', '--out', join(outDir, 'students.csv'), '-v'],
      ['students', 'get', withSub.email, '-v'], ['students', 'get', `doc:${withDoc.document}`, '-o', 'json'],
      ['students', 'products', withSub.email, '-v'], ['scores', 'get', withSub.email, '-v'],
      ['products', 'get', product.id, '-v'], ['subscriptions', 'list', '--all', '-o', 'csv', '-v'],
      ['subscriptions', 'get', String(subscription.id), '-v'], ['courses', 'get', course.id, '-v'],
      ['courses', 'accesses', course.id, '-o', 'ndjson', '-v'],
      ['api', '/api/v1/students', '--paginate', '-v'], ['api', '/api/v1/products', '-v'],
      ['report', 'engaged-courses', '--limit', '2', '--max-pages', '3', '-v'],
      ['report', 'engaged-courses', '-o', 'csv', '--out', join(outDir, 'report.csv'), '-v'],
      ['completion', 'bash'],
    ]) {
      reads.push(members(args).then((ran) => {
        expect({ args, code: ran.code, stderr: ran.code === 0 ? '' : ran.stderr }).toEqual({ args, code: 0, stderr: '' });
      }));
    }
    // Reads change nothing: run them side by side.
    await Promise.all(reads);
    expect((await members(['report', 'engaged-courses', '--max-pages', '1', '-v'], { dir: 'profile' })).code).toBe(0);

    // --- changes: single and bulk, each written to the audit log.
    const email = 'ana.sentinel@example.com';
    const changes: Array<[string[], number]> = [
      [['students', 'create', '--first-name', 'Ana', '--last-name', 'Sentinela', '--email', email, '-v', '--reason', 'leak test'], 0],
      [['students', 'grant', email, product.id, '-v', '--reason', 'leak test'], 0],
      [['scores', 'set', email, '7', '-v'], 0],
      [['magic-link', email, '-v'], 0],
      [['magic-link', email, '-o', 'json'], 0],
      [['students', 'revoke', email, product.id, '--yes', '-v'], 0],
    ];
    for (const [args, code] of changes) {
      const ran = await members(args);
      expect({ args, code: ran.code, stderr: ran.code === code ? '' : ran.stderr }).toEqual({ args, code, stderr: '' });
    }
    const grantFile = join(work, 'grant.csv');
    writeFileSync(grantFile, `student,product_id\n${email},${product.id}\n${withSub.email},${product.id}\nnobody.sentinel@example.com,${product.id}\n`);
    const importFile = join(work, 'import.csv');
    writeFileSync(importFile, 'first_name,last_name,email\nBia,Import,bia.sentinel@example.com\nAna,Again,ana.sentinel@example.com\n');
    expect((await members(['students', 'grant', '--file', grantFile, '--yes', '-v', '-o', 'json'])).code).toBe(7);
    expect((await members(['students', 'revoke', '--file', grantFile, '--yes', '--dry-run', '-v'])).code).not.toBe(1);
    expect((await members(['students', 'import', importFile, '--yes', '-v', '--out', join(outDir, 'import.json'), '-o', 'json'])).code).toBe(0);
    expect((await members(['students', 'delete', email, '--yes', '-v', '--reason', 'leak test'])).code).toBe(0);
    const history = await members(['history', '-o', 'json']);
    expect(history.code).toBe(0);
    expect((await members(['history'])).code).toBe(0);
    const undoable = json<Array<{ id: string; command?: string }>>(history).find((entry) => entry.command?.includes('grant'));
    if (!undoable) throw new Error('history shows no grant');
    // Whatever its outcome (the student may be gone), never an internal error.
    expect((await members(['undo', undoable.id, '--yes', '-v'])).code).not.toBe(1);

    // --- failures: 401, 403, 404, 422, usage errors, network errors, a refused base URL.
    const failures: Array<[string[], number, Record<string, string>?]> = [
      [['students', 'list', '-v'], 3, { MEMBERS_TOKEN: WRONG_API }],
      [['students', 'get', withSub.email, '-o', 'json', '-v'], 3, { MEMBERS_TOKEN: WRONG_API }],
      [['students', 'get', withSub.email, '-v'], 3, { MEMBERS_TOKEN: WRONG_API, MEMBERS_DEBUG: '1' }],
      [['auth', 'status', '-v'], 3, { MEMBERS_TOKEN: WRONG_API }],
      [['report', 'engaged-courses', '-v'], 3, { MEMBERS_PLATFORM_TOKEN: WRONG_PLATFORM }],
      [['report', 'engaged-courses', '-o', 'json', '-v'], 3, { MEMBERS_PLATFORM_TOKEN: WRONG_PLATFORM, MEMBERS_DEBUG: '1' }],
      [['students', 'get', 'nobody.sentinel@example.com', '-v'], 4],
      [['products', 'get', 'no-such-product', '-v', '-o', 'ndjson'], 4],
      [['api', '/api/v1/nothing-here', '-v'], 4],
      [['students', 'create', '--first-name', 'X', '--last-name', 'Y', '--email', withSub.email, '-v'], 5],
      [['students', 'grant', withSub.email, 'no-such-product', '-v'], 2],
      [['students', 'grant', withSub.email, '00000000-0000-4000-8000-000000000000', '-v'], 5],
      [['api', '/api/v1/students', '-X', 'POST', '-f', 'email=not-an-email', '-v'], 5],
      [['students', 'list', '--page', 'x'], 2],
      [['students', 'list', '-v', '--retries', '0'], 6, { MEMBERS_BASE_URL: 'http://127.0.0.1:9' }],
      [['students', 'list', '--base-url', `http://user:${API}@127.0.0.1:9`], 2],
      [['students', 'list', '--base-url', `http://${API}.example.com`], 2],
      [['students', 'list', '--base-url', `https://example.com/?token=${API}`], 2],
    ];
    await Promise.all(failures.map(async ([args, code, env]) => {
      const ran = await members(args, { env });
      expect({ args, code: ran.code }).toEqual({ args, code });
      expect(ran.stderr).toMatch(/^error: /m);
    }));

    // --- the scan of everything printed.
    const leaked = runs.map((ran) => ({ args: ran.args.join(' '), leaks: leaks(ran.stdout + ran.stderr) })).filter((r) => r.leaks.length > 0);
    expect(leaked).toEqual([]);
    expect(runs.length).toBeGreaterThan(50);
    // The verbose runs did log their exchanges, secrets as ***.
    const reportLog = runs.find((ran) => ran.args[0] === 'report' && ran.args.includes('-v') && ran.code === 0)?.stderr ?? '';
    expect(reportLog).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/partners\/reports\/engaged-courses\/\*\*\*\/\*\*\*\?/m);

    // --- and of every file the tool wrote, but the config files.
    // Every file, in the folders too (audit-intents/).
    const files = [profileDir, envDir, outDir].flatMap((dir) => readdirSync(dir, { recursive: true }).map((name) => join(dir, String(name))))
      .filter((file) => statSync(file).isFile());
    expect(files.some((file) => file.endsWith('audit.jsonl'))).toBe(true);
    expect(files.filter((file) => file.startsWith(outDir)).map((file) => file.slice(outDir.length + 1)).sort())
      .toEqual(['import.json', 'report.csv', 'students.csv']);
    const fileLeaks = files.filter((file) => !file.endsWith('config.json'))
      .map((file) => ({ file, leaks: leaks(readFileSync(file, 'utf8')) }))
      .filter((f) => f.leaks.length > 0);
    expect(fileLeaks).toEqual([]);
    // The config file holds the tokens, readable by its owner alone.
    const config = join(profileDir, 'config.json');
    expect(readFileSync(config, 'utf8')).toContain(API);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    for (const file of files.filter((f) => f.startsWith(outDir) || f.endsWith('audit.jsonl'))) {
      expect({ file, mode: statSync(file).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    }
    chmodSync(config, 0o600);
  }, 240_000);

  it('auth token prints the token (by design), and nothing after logout', async () => {
    // A profile of its own: this test must not depend on the one above having logged in first.
    const dir = join(work, 'token-config');
    const env = { MEMBERS_CONFIG_DIR: dir };
    expect((await run(['auth', 'login', '--base-url', sandbox.url, '--token-stdin', '--no-verify'], { env, input: `${API}\n` })).code).toBe(0);
    const token = await run(['auth', 'token'], { env });
    expect(token).toEqual({ code: 0, stdout: `${API}\n`, stderr: '' });
    // The scan would have seen it.
    expect(leaks(token.stdout)).toEqual(['SENTINEL', API]);
    const logout = await run(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    const after = await run(['auth', 'token'], { env });
    expect(after.code).toBe(3);
    expect(leaks(after.stdout + after.stderr + logout.stdout + logout.stderr)).toEqual([]);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(API);
  });
});
