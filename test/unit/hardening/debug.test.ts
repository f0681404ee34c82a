/**
 * Contract §4: no stack trace for an expected error, unless MEMBERS_DEBUG=1.
 * Through the built binary (`npm run build` first).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir } from '../../e2e/harness.js';
import { httpServer, sendJson, type TestServer } from '../../e2e/faults/servers.js';

const STACK_FRAME = /^ {4}at /m;
const TOKEN = 'tok_DEBUG_secret_0123456789';

let server: TestServer;
let configDir: string;

beforeAll(async () => {
  configDir = tempDir('members-debug-');
  server = await httpServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(response, 401, { message: 'Unauthenticated.' });
    if (request.url?.startsWith('/api/v1/products/')) return sendJson(response, 404, { message: 'Not Found' });
    sendJson(response, 422, { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(configDir, { recursive: true, force: true });
});

const CASES: Array<[string, string[], number, Record<string, string>?]> = [
  ['a usage error', ['students', 'list', '--page', 'zero'], 2],
  ['an unknown option', ['students', 'list', '--bogus'], 2],
  ['a 401', ['products', 'list'], 3, { MEMBERS_TOKEN: 'tok_DEBUG_wrong_0123456789' }],
  ['missing credentials', ['products', 'list'], 3, { MEMBERS_TOKEN: '' }],
  ['a 404', ['products', 'get', 'p-404'], 4],
  ['a 422', ['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@example.com', '--yes', '--quiet'], 5],
  ['a network error', ['products', 'list', '--retries', '0'], 6, { MEMBERS_BASE_URL: 'http://127.0.0.1:9' }],
  ['a refused base URL', ['products', 'list', '--base-url', 'http://members.example.com'], 2],
];

describe('expected errors', () => {
  it.each(CASES)('%s: one error line, no stack trace; MEMBERS_DEBUG=1 adds it', async (_what, args, code, extra = {}) => {
    const env = { MEMBERS_CONFIG_DIR: configDir, MEMBERS_BASE_URL: server.url, MEMBERS_TOKEN: TOKEN, ...extra };
    const plain = await run(args, { env });
    expect(plain.code).toBe(code);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^error: \S/);
    expect(plain.stderr).not.toMatch(STACK_FRAME);
    // One line, or the field errors of a 422 indented below it.
    expect(plain.stderr.split('\n').filter((line) => line && !line.startsWith('  '))).toHaveLength(1);

    const debug = await run(args, { env: { ...env, MEMBERS_DEBUG: '1' } });
    expect(debug.code).toBe(code);
    expect(debug.stderr.startsWith(plain.stderr.split('\n')[0] as string)).toBe(true);
    expect(debug.stderr).toMatch(STACK_FRAME);
    // The stack trace is about our code, and never holds the token.
    expect(debug.stderr).toContain('Error');
    expect(debug.stderr).not.toContain(TOKEN);
  });

  it('MEMBERS_DEBUG other than 1 shows no stack trace', async () => {
    const env = { MEMBERS_CONFIG_DIR: configDir, MEMBERS_BASE_URL: server.url, MEMBERS_TOKEN: TOKEN, MEMBERS_DEBUG: '0' };
    const result = await run(['products', 'get', 'p-404'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('error: product p-404 not found (GET /api/v1/products/p-404)\n');
  });
});
