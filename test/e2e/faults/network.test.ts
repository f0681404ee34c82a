/**
 * The built binary against servers that fail the way real ones do: dying in
 * the middle of a list, never answering, answering garbage, answering with a
 * shape the schemas do not know. Every case ends (no hang), with the exit code
 * of contract §4, a message that says what happened, and no stack trace.
 * Run `npm run build` first.
 */
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, run, tempDir } from '../harness.js';
import {
  STACK_FRAME, cliEnv, httpServer, queryOf, sendJson, silentServer, student, studentPage, type TestServer,
} from './servers.js';

let configDir: string;
beforeAll(() => {
  configDir = tempDir('members-faults-');
});
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function track<T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> {
  const started = await server;
  servers.push(started);
  return started;
}

const members = (server: { url: string }, args: string[]) => run(args, { env: cliEnv(configDir, server.url) });
const ndjsonIds = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);

describe('a server that dies in the middle of a list', () => {
  it('stops listening after page 1 of 5: exit 6, page 1 printed, stderr says the output is incomplete', async () => {
    const server = await track(httpServer((request, response, self) => {
      if (queryOf(request).get('page') === '1') {
        sendJson(response, 200, studentPage(self.url, 1, 100, 500));
        // Gone for good: no longer listening, every connection cut.
        setImmediate(() => void self.close());
        return;
      }
      response.socket?.destroy();
    }));
    // No hang: the test's own timeout bounds the run, not a wall-clock assertion.
    const { code, stdout, stderr } = await members(server, ['students', 'list', '--all', '-o', 'ndjson', '--retries', '1']);
    expect(code).toBe(6);
    expect(ndjsonIds(stdout)).toEqual(Array.from({ length: 100 }, (_, i) => student(i + 1).id));
    expect(stdout.endsWith('\n')).toBe(true);
    const [message, json, ...rest] = stderr.split('\n');
    expect(message).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(\w+\) after 1 retry; check the network and --base-url \(GET \/api\/v1\/students\?[^)]*page=2[^)]*\) \(output is incomplete: 100 records were written before the failure\)$/);
    expect(JSON.parse(json as string)).toEqual({ error: { exit_code: 6, status: null, message: (message as string).slice('error: '.length) } });
    expect(rest).toEqual(['']);
  });

  it('cuts page 2 off in the middle of its body: exit 6, page 1 printed, incomplete output said', async () => {
    const server = await track(httpServer((request, response, self) => {
      const page = Number(queryOf(request).get('page'));
      if (page === 1) return sendJson(response, 200, studentPage(self.url, 1, 100, 500));
      const text = JSON.stringify(studentPage(self.url, page, 100, 500));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      // Cut once the first 1000 bytes are out, not after a guessed delay.
      response.write(text.slice(0, 1000), () => response.socket?.destroy());
    }));
    const { code, stdout, stderr } = await members(server, ['students', 'list', '--all', '-o', 'ndjson', '--retries', '1']);
    expect(code).toBe(6);
    expect(ndjsonIds(stdout)).toHaveLength(100);
    expect(stderr).toMatch(/^error: .*\(output is incomplete: 100 records were written before the failure\)\n/);
    expect(stderr).not.toMatch(STACK_FRAME);
  });

  it('says nothing about incomplete output when the first page already failed', async () => {
    const server = await track(httpServer((_request, response) => void response.socket?.destroy()));
    const { code, stdout, stderr } = await members(server, ['students', 'list', '--all', '-o', 'ndjson', '--retries', '0']);
    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr).not.toContain('incomplete');
  });

  it('writes no partial --out file and says nothing about incomplete output', async () => {
    const server = await track(httpServer((request, response, self) => {
      if (queryOf(request).get('page') === '1') return sendJson(response, 200, studentPage(self.url, 1, 100, 500));
      sendJson(response, 503, { message: 'Service Unavailable' });
    }));
    const out = `${configDir}/partial.ndjson`;
    const { code, stdout, stderr } = await members(server, ['students', 'list', '--all', '-o', 'ndjson', '--retries', '0', '--out', out]);
    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe('error: server unavailable (503): Service Unavailable; try again later or raise --retries (GET /api/v1/students?per_page=100&page=2)');
    expect(stderr).not.toContain('incomplete');
    const { existsSync, readdirSync } = await import('node:fs');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(configDir).filter((name) => name.includes('partial'))).toEqual([]);
  });
});

describe('a server that accepts the connection and never answers', () => {
  it('times out with --timeout 1 --retries 1: exit 6, "timed out", two attempts', async () => {
    const server = await track(silentServer());
    const { code, stdout, stderr } = await members(server, ['students', 'get', 'ana@example.com', '--timeout', '1', '--retries', '1']);
    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: timed out after 1000 ms after 1 retry; raise --timeout or try again later (GET /api/v1/students/email/ana%40example.com)\n');
    expect(server.connections()).toBeGreaterThanOrEqual(1);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s during a stalled list cancels the requests in flight: exit 130 at once, not after --timeout', async (signal) => {
    const server = await track(silentServer());
    // --timeout 1h: only the cancelled request lets the process end before the test's own timeout.
    const child = spawn(process.execPath, [BIN, 'students', 'list', '--all', '--timeout', '1h', '--retries', '0'], {
      env: cliEnv(configDir, server.url), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await vi.waitFor(() => expect(server.connections()).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
    child.kill(signal);
    expect(await exited).toBe(130);
    expect(stderr).toBe('error: interrupted\n');
  });

  it('times out a body that stops arriving after the headers', async () => {
    const server = await track(httpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"data": {');
    }));
    const { code, stderr } = await members(server, ['students', 'get', 'ana@example.com', '--timeout', '1', '--retries', '0']);
    expect(code).toBe(6);
    expect(stderr).toMatch(/^error: timed out after 1000 ms; raise --timeout or try again later \(GET \/api\/v1\/students\/email\/ana%40example\.com\)\n$/);
  });
});

describe('a server that answers garbage', () => {
  it('a 204 with a body after a DELETE: the deletion is reported and recorded (exit 0), not a network error', async () => {
    const server = await track(httpServer((request, response) => {
      if (request.method !== 'DELETE') return sendJson(response, 200, { data: student(1) });
      // Node's server never sends a body with 204: write the answer some servers give by hand.
      response.socket?.write('HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{"message":"ok"}');
    }));
    const id = student(1).id as string;
    const { code, stderr } = await members(server, ['students', 'delete', id, '--yes', '--retries', '0']);
    expect({ code, stderr: stderr.split('\n').filter((line) => line.startsWith('error')) }).toEqual({ code: 0, stderr: [] });
    expect(stderr).toContain('Deleted student Ana Lima 1');
    const history = await run(['history', '-o', 'json'], { env: cliEnv(configDir, server.url) });
    expect((JSON.parse(history.stdout) as Array<{ command: string; target?: unknown }>)[0]?.command).toMatch(/^students delete/);
  });

  it('a 200 with truncated JSON: exit 6, a clear message, no stack trace', async () => {
    const server = await track(httpServer((_request, response) => sendJson(response, 200, '{"data": [')));
    const { code, stdout, stderr } = await members(server, ['students', 'list', '-o', 'json']);
    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe('error: the server sent a response that is not JSON (status 200) (GET /api/v1/students?page=1)');
    expect(stderr).not.toMatch(STACK_FRAME);
  });

  it('a record with a field nested 100,000 levels deep: exit 6 and a clear message (was a stack overflow, exit 1), with the api command too', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const server = await track(httpServer((_request, response) => sendJson(response, 200, `{"data":${JSON.stringify(student(1)).replace(/}$/, `,"extra":${deep}}`)}}`)));
    for (const args of [['students', 'get', 'ana@example.com'], ['api', '/api/v1/students/email/ana%40example.com']]) {
      const { code, stdout, stderr } = await members(server, [...args, '--retries', '0']);
      expect({ args, code, stdout }).toEqual({ args, code: 6, stdout: '' });
      expect(stderr).toMatch(/^error: the server sent JSON nested more than 64 levels deep \(status 200\); refusing to read it \(report it to the platform\) \(GET \/api\/v1\/students\/email\/ana%40example\.com\)\n$/);
    }
  });

  it('an HTML error page (502): exit 6 after the retries, the status named, no HTML or stack trace', async () => {
    const server = await track(httpServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body><h1>Bad gateway</h1></body></html>');
    }));
    const { code, stdout, stderr } = await members(server, ['students', 'get', 'ana@example.com', '--retries', '1']);
    expect(code).toBe(6);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: server unavailable (502) after 1 retry; try again later or raise --retries (GET /api/v1/students/email/ana%40example.com)\n');
    expect(server.received).toHaveLength(2);
  });

  it('an HTML page with status 200: exit 6, not JSON', async () => {
    const server = await track(httpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>Login</html>');
    }));
    const { code, stderr } = await members(server, ['products', 'get', 'p1']);
    expect(code).toBe(6);
    expect(stderr).toBe('error: the server sent a response that is not JSON (status 200) (GET /api/v1/products/p1)\n');
  });

  it('an HTML 404 page: exit 4 naming what was not found', async () => {
    const server = await track(httpServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html>Not Found</html>');
    }));
    const { code, stderr } = await members(server, ['students', 'get', 'ana@example.com']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: student with e-mail ana@example.com not found (GET /api/v1/students/email/ana%40example.com)\n');
  });
});

describe('a 200 whose body does not match the schema', () => {
  it('names the field (data.email a number on students get), exit 1, no stack trace', async () => {
    const server = await track(httpServer((_request, response) => sendJson(response, 200, { data: { ...student(1), email: 42 } })));
    const { code, stdout, stderr } = await members(server, ['students', 'get', 'ana@example.com']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: unexpected response from the server: data.email: Invalid input: expected string, received number; ' +
        'the API may have changed, report it with --verbose output (GET /api/v1/students/email/ana%40example.com)\n',
    );
  });

  it('names the field on a list page (data.3.id missing)', async () => {
    const server = await track(httpServer((_request, response, self) => {
      const page = studentPage(self.url, 1, 10, 10) as { data: Array<Record<string, unknown>> };
      delete page.data[3]?.id;
      sendJson(response, 200, page);
    }));
    const { code, stderr } = await members(server, ['students', 'list', '-o', 'ndjson']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: unexpected response from the server: data\.3\.id: Invalid input: expected string, received undefined; /);
    expect(stderr).not.toMatch(STACK_FRAME);
  });

  it('a JSON array or null where an object belongs', async () => {
    for (const body of ['[]', 'null', '"text"', '{"data": null}']) {
      const server = await track(httpServer((_request, response) => sendJson(response, 200, body)));
      const { code, stderr } = await members(server, ['students', 'get', 'ana@example.com']);
      expect({ body, code }).toEqual({ body, code: 1 });
      expect(stderr).toMatch(/^error: unexpected response from the server: /);
      expect(stderr).not.toMatch(STACK_FRAME);
    }
  });
});

describe('links to other origins', () => {
  it('refuses a links.next to another origin when there is no meta: no request reaches it', async () => {
    const other = await track(httpServer((request, response, self) => sendJson(response, 200, studentPage(self.url, 2, 100, 200, { meta: false }))));
    const server = await track(httpServer((_request, response) => {
      const page = studentPage(other.url, 1, 100, 200, { meta: false }) as { links: { next: string } };
      sendJson(response, 200, page);
    }));
    const { code, stdout, stderr } = await members(server, ['students', 'list', '--all', '-o', 'ndjson']);
    expect(other.received).toEqual([]);
    expect(code).toBe(5);
    expect(ndjsonIds(stdout)).toHaveLength(100);
    expect(stderr.split('\n')[0]).toBe(
      `error: refusing to follow a link to another origin (${other.url}); only ${server.url} receives requests ` +
        `(GET ${other.url}/api/v1/students?page=2&per_page=100) (output is incomplete: 100 records were written before the failure)`,
    );
  });

  it('refuses `members api --paginate` links to another origin too', async () => {
    const other = await track(httpServer((_request, response) => sendJson(response, 200, { data: [] })));
    const server = await track(httpServer((_request, response) => sendJson(response, 200, { data: [{ id: 'a' }], links: { next: `${other.url}/steal` } })));
    const { code, stderr } = await members(server, ['api', '/api/v1/students', '--paginate']);
    expect(other.received).toEqual([]);
    expect(code).toBe(5);
    expect(stderr).toContain(`refusing to follow a link to another origin (${other.url})`);
  });

  it('never follows a 302 to another origin: the Authorization header never reaches it', async () => {
    const other = await track(httpServer((_request, response) => sendJson(response, 200, { data: student(1) })));
    const server = await track(httpServer((_request, response) => {
      response.writeHead(302, { location: `${other.url}/api/v1/students/email/ana%40example.com` });
      response.end();
    }));
    const { code, stdout, stderr } = await members(server, ['students', 'get', 'ana@example.com', '-v']);
    expect(other.received.map((r) => r.headers.authorization)).toEqual([]);
    expect(other.received).toEqual([]);
    expect(server.received[0]?.headers.authorization).toBe('Bearer tok_faults_0123456789');
    expect(code).toBe(5);
    expect(stdout).toBe('');
    expect(stderr).toContain(`error: the server redirected (302) to ${other.url}/api/v1/students/email/ana%40example.com; redirects are not followed. Check --base-url`);
    expect(stderr).not.toContain('tok_faults_0123456789');
  });

  it('does not follow a same-origin 301 either, nor a 307 on a POST', async () => {
    const server: TestServer = await track(httpServer((_request, response, self) => {
      response.writeHead(307, { location: `${self.url}/elsewhere` });
      response.end();
    }));
    const get = await members(server, ['products', 'get', 'p1']);
    expect(get.code).toBe(5);
    const post = await members(server, ['scores', 'set', '00000000-0000-4000-8000-000000000001', '5', '--reason', 'faults']);
    expect(post.code).toBe(5);
    expect(server.received.map((r) => r.url)).not.toContain('/elsewhere');
  });
});

/**
 * Network errors injected into POSTs (contract §7.1): a POST whose connection is
 * cut may or may not have been applied, so it goes again only after a check
 * finds no trace of it, and never twice when it was applied.
 */
describe('a POST whose connection is cut', () => {
  const NOT_FOUND = { message: 'No query results for model [App\\Models\\Student].' };
  /** A tiny student API that applies the POSTs it is told to, then resets the connection instead of answering. */
  async function cuttingServer(cut: (post: number) => 'after' | 'before' | 'answer') {
    const students = new Map<string, Record<string, unknown>>();
    let posts = 0;
    const server = await track(httpServer(async (request, response) => {
      const email = /^\/api\/v1\/students\/email\/([^/?]+)/.exec(request.url ?? '')?.[1];
      if (request.method === 'GET' && email) {
        const found = students.get(decodeURIComponent(email));
        return found ? sendJson(response, 200, { data: found }) : sendJson(response, 404, NOT_FOUND);
      }
      if (request.method !== 'POST' || request.url !== '/api/v1/students') return sendJson(response, 404, { message: '' });
      let text = '';
      for await (const chunk of request) text += String(chunk);
      const what = cut(++posts);
      if (what === 'before') return void response.socket?.resetAndDestroy();
      const body = JSON.parse(text) as { first_name: string; last_name: string; email: string };
      const created = { ...student(students.size + 1), ...body, full_name: `${body.first_name} ${body.last_name}` };
      students.set(body.email, created);
      if (what === 'after') return void response.socket?.resetAndDestroy();
      sendJson(response, 201, { data: created });
    }));
    return { server, students, posts: () => posts };
  }
  const create = ['students', 'create', '--first-name', 'Ana', '--last-name', 'Reset', '--email', 'ana.reset@example.com', '-o', 'json'];

  it('applied, then reset: the check finds the student, who is created once and printed (exit 0), the POST not resent', async () => {
    const { server, students, posts } = await cuttingServer((post) => (post === 1 ? 'after' : 'answer'));
    const { code, stdout, stderr } = await members(server, create);
    expect({ code, posts: posts(), students: students.size }).toEqual({ code: 0, posts: 1, students: 1 });
    expect(JSON.parse(stdout)).toMatchObject({ email: 'ana.reset@example.com' });
    expect(stderr).toContain('found after an interrupted request');
  });

  it('reset before it was applied: the check finds nothing, the POST goes once more, one student', async () => {
    const { server, students, posts } = await cuttingServer((post) => (post === 1 ? 'before' : 'answer'));
    const { code, stdout } = await members(server, create);
    expect({ code, posts: posts(), students: students.size }).toEqual({ code: 0, posts: 2, students: 1 });
    expect(JSON.parse(stdout)).toMatchObject({ email: 'ana.reset@example.com' });
    expect(server.received.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('reset every time with --retries 1: exit 6 saying the outcome is unknown, and never more POSTs than checks allow', async () => {
    const { server, posts } = await cuttingServer(() => 'before');
    const { code, stderr } = await members(server, [...create, '--retries', '1']);
    expect(code).toBe(6);
    expect(posts()).toBe(2);
    expect(server.received.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(stderr.split('\n')[1]).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \((ECONNRESET|UND_ERR_SOCKET)\) after 1 retry; check the network and --base-url; the change may or may not have been applied; check before trying again \(POST \/api\/v1\/students\)$/);
  });
});
