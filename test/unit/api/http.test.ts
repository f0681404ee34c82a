import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { HttpClient, MAX_JSON_DEPTH, deeperThan, type HttpOptions } from '../../../src/api/transport/http.js';
import { ExitCode, RouteMissError } from '../../../src/lib/errors.js';

const BASE = 'https://members.example.com';
const TOKEN = 'tok_SENTINEL_abcdef123456';

let agent: MockAgent;
let lines: string[];

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  lines = [];
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

function client(overrides: Partial<HttpOptions> = {}): HttpClient {
  return new HttpClient({
    baseUrl: new URL(BASE), token: TOKEN, timeoutMs: 5_000, retries: 3, userAgent: 'members-cli/test',
    secrets: [TOKEN], log: (line) => lines.push(line), dispatcher: agent,
    backoff: { baseMs: 1, maxMs: 2, maxRetryAfterMs: 10, rateLimitBudgetMs: 60_000, random: () => 0.5 }, ...overrides,
  });
}

const pool = () => agent.get(BASE);

describe('HttpClient', () => {
  it('sends Bearer auth and the User-Agent, and parses JSON', async () => {
    pool().intercept({
      path: '/api/v1/products', method: 'GET',
      headers: { authorization: `Bearer ${TOKEN}`, 'user-agent': 'members-cli/test' },
    }).reply(200, { data: [] });
    const response = await client().send({ method: 'GET', path: '/api/v1/products' });
    expect(response).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('retries a 429 after Retry-After and then succeeds', async () => {
    pool().intercept({ path: '/api/v1/subscriptions', method: 'GET' }).reply(429, { message: 'slow down' }, { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/api/v1/subscriptions', method: 'GET' }).reply(200, { data: [1] });
    const response = await client().send({ method: 'GET', path: '/api/v1/subscriptions' });
    expect(response.body).toEqual({ data: [1] });
    expect(lines).toEqual([expect.stringMatching(/^GET https:\/\/members\.example\.com\/api\/v1\/subscriptions 200 \d+ms retries=1$/)]);
  });

  it('retries a 503 and then succeeds', async () => {
    pool().intercept({ path: '/api/v1/products/p1', method: 'GET' }).reply(503, { message: 'down' });
    pool().intercept({ path: '/api/v1/products/p1', method: 'GET' }).reply(200, { data: { id: 'p1' } });
    await expect(client().send({ method: 'GET', path: '/api/v1/products/p1' })).resolves.toMatchObject({ status: 200 });
  });

  it('does not retry a POST answered 500: its outcome is unknown', async () => {
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(500, { message: 'boom' });
    const failure = client().send({ method: 'POST', path: '/api/v1/students', body: { email: 'a@b.c' } });
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.transient, status: 500 });
    await expect(failure).rejects.toThrow(/may or may not have been applied/);
  });

  it('says so when it waits longer than its own backoff because the server asked (Retry-After)', async () => {
    const notices: string[] = [];
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '0.005' } });
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, { data: [] });
    await client({ notice: (text) => notices.push(text) }).send({ method: 'GET', path: '/api/v1/products' });
    expect(notices).toEqual(['GET /api/v1/products: rate limited (429); waiting 1s as the server asks (Retry-After) before trying again']);
  });

  it('does not retry a Retry-After beyond its cap early: rate limited, exit 6, saying when to come back', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '60' } });
    const failure = client().send({ method: 'GET', path: '/api/v1/products' });
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.transient, status: 429 });
    await expect(failure).rejects.toThrow(/^rate limited \(429\): Too Many Attempts\.; the server asks to wait 60s: try again after /);
  });

  it('names a POST whose check failed too (maintenance mode answers 503 to everything)', async () => {
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(503, { message: 'Service Unavailable' });
    const failure = client().send({
      method: 'POST', path: '/api/v1/students', body: {}, alreadyApplied: () => Promise.reject(new Error('503 as well')),
    });
    await expect(failure).rejects.toThrow(
      'server unavailable (503): Service Unavailable; the change may or may not have been applied (the check for it failed too: 503 as well); check before trying again (POST /api/v1/students)',
    );
  });

  it('tells a route miss (404, empty message) from a record not found', async () => {
    pool().intercept({ path: '/api/v1/students/document/RG/1', method: 'GET' }).reply(404, { message: '' });
    pool().intercept({ path: '/api/v1/students/x', method: 'GET' }).reply(404, { message: 'No query results for model [App\\Models\\Student].' });
    const miss = client().send({ method: 'GET', path: '/api/v1/students/document/RG/1', notFound: 'student with document RG/1' });
    await expect(miss).rejects.toBeInstanceOf(RouteMissError);
    await expect(miss).rejects.toThrow('the server has no route for this path (404 without a model, empty message), so it did not say whether student with document RG/1 exists');
    const model = client().send({ method: 'GET', path: '/api/v1/students/x', notFound: 'student x' });
    await expect(model).rejects.not.toBeInstanceOf(RouteMissError);
    await expect(model).rejects.toMatchObject({ exitCode: ExitCode.notFound, message: 'student x not found (GET /api/v1/students/x)' });
  });

  it('retries a POST answered 429', async () => {
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(429, {}, { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/api/v1/students', method: 'POST', body: '{"email":"a@b.c"}' }).reply(201, { data: { id: 's1' } });
    await expect(client().send({ method: 'POST', path: '/api/v1/students', body: { email: 'a@b.c' } })).resolves.toMatchObject({ status: 201 });
  });

  it('gives up after the retry budget with exit 6', async () => {
    pool().intercept({ path: '/api/v1/courses', method: 'GET' }).reply(503, { message: 'down' }).times(3);
    const failure = client({ retries: 2 }).send({ method: 'GET', path: '/api/v1/courses' });
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.transient, status: 503 });
    await expect(failure).rejects.toThrow('server unavailable (503) after 2 retries: down; try again later or raise --retries (GET /api/v1/courses)');
  });

  it('maps 401 to exit 3, 404 to exit 4 with what was missing, 422 to exit 5 with field errors', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(401, { message: 'Unauthenticated.' });
    await expect(client().send({ method: 'GET', path: '/api/v1/products' })).rejects.toMatchObject({
      exitCode: ExitCode.auth,
      message: 'unauthorized (401): Unauthenticated.; run `members auth login` or set MEMBERS_TOKEN (GET /api/v1/products)',
    });
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET' }).reply(404, { message: 'nope' });
    await expect(client().send({ method: 'GET', path: '/api/v1/students/email/maria%40example.com', notFound: 'student maria@example.com' }))
      .rejects.toMatchObject({ exitCode: ExitCode.notFound, message: 'student maria@example.com not found (GET /api/v1/students/email/maria%40example.com)' });
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(422, {
      message: 'The given data was invalid.', errors: { email: ['The email has already been taken.'] },
    });
    const rejected = client().send({ method: 'POST', path: '/api/v1/students', body: {} });
    await expect(rejected).rejects.toMatchObject({ exitCode: ExitCode.rejected, fieldErrors: { email: ['The email has already been taken.'] } });
    await expect(rejected).rejects.toThrow('email: The email has already been taken.');
  });

  it('refuses a link to another origin without sending anything', () => {
    expect(() => client().url('https://evil.example.net/api/v1/students?page=2')).toThrow(/another origin/);
  });

  it('does not follow redirects, so Authorization never reaches another origin', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(302, '', { headers: { location: 'https://evil.example.net/steal' } });
    await expect(client().send({ method: 'GET', path: '/api/v1/products' })).rejects.toMatchObject({ exitCode: ExitCode.rejected, status: 302 });
  });

  it('omits Authorization for the report and redacts its path tokens in logs and errors', async () => {
    const dev = 'dev_SENTINEL_0123456789';
    const plat = 'plat_SENTINEL_0123456789';
    const path = `/api/partners/reports/engaged-courses/${dev}/${plat}`;
    pool().intercept({ path: `${path}?limit=2`, method: 'GET', headers: (h) => !('authorization' in h) }).reply(422, { message: `bad ${dev}` });
    const failure = client({ secrets: [TOKEN, dev, plat] }).send({ method: 'GET', path, query: { limit: 2 }, auth: false });
    await expect(failure).rejects.toThrow('the server rejected the request (422): bad *** (GET /api/partners/reports/engaged-courses/***/***?limit=2)');
    expect(lines.join('\n')).not.toMatch(/SENTINEL/);
    expect(lines[0]).toContain('/engaged-courses/***/***?limit=2 422');
  });

  it('reads a body that starts with a UTF-8 byte-order mark (a PHP file saved with one), as undici\'s body.text() did, errors included', async () => {
    const bom = (json: unknown) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(json))]);
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, bom({ data: [{ title: 'Ação' }] }));
    await expect(client().send({ method: 'GET', path: '/api/v1/products' })).resolves.toMatchObject({ body: { data: [{ title: 'Ação' }] } });
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(503, bom({ message: 'Em manutenção' }));
    await expect(client({ retries: 0 }).send({ method: 'GET', path: '/api/v1/products' })).rejects.toThrow(/^server unavailable \(503\): Em manutenção;/);
  });

  it('reports a body that is not JSON as a clear error', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, '<html>maintenance</html>');
    await expect(client().send({ method: 'GET', path: '/api/v1/products' })).rejects.toThrow('the server sent a response that is not JSON (status 200)');
  });
});

describe('HttpClient against a server that never answers', () => {
  let server: Server;
  let url: string;
  beforeEach(async () => {
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('times out with exit 6 after its retries', async () => {
    const http = new HttpClient({
      baseUrl: new URL(url), token: TOKEN, timeoutMs: 100, retries: 1, userAgent: 't', secrets: [TOKEN],
      backoff: { baseMs: 1, maxMs: 1, maxRetryAfterMs: 1, rateLimitBudgetMs: 60_000, random: () => 0 },
    });
    try {
      await expect(http.send({ method: 'GET', path: '/api/v1/products' })).rejects.toMatchObject({
        exitCode: ExitCode.transient, message: expect.stringContaining('timed out after 100 ms after 1 retry'),
      });
    } finally {
      await http.close();
    }
  });
});

describe('HttpClient against a hostile server', () => {
  it('caps a response body with a clear error, exit 6', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, `{"data":"${'x'.repeat(5000)}"}`);
    const failure = client({ maxBodyBytes: 1000 }).send({ method: 'GET', path: '/api/v1/products' });
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.transient });
    await expect(failure).rejects.toThrow(/^the server sent more than 1000 bytes in one response/);
  });

  it('a body nested 100,000 levels deep is a bad response (exit 6), before anything recursive reads it', async () => {
    const deep = `{"data":{"id":"s1","extra":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`;
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, deep);
    const failure = client().send({ method: 'GET', path: '/api/v1/students/s1' });
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.transient, status: 200 });
    await expect(failure).rejects.toThrow(`the server sent JSON nested more than ${MAX_JSON_DEPTH} levels deep (status 200); refusing to read it (report it to the platform) (GET /api/v1/students/s1)`);
  });

  it('counts nesting exactly: MAX_JSON_DEPTH levels pass, one more does not; scalars and empty containers are no level below', () => {
    // Objects and arrays in turn: both count as a level.
    const nested = (levels: number, leaf: unknown = 1): unknown => (levels === 0 ? leaf : levels % 2 ? [nested(levels - 1, leaf)] : { a: nested(levels - 1, leaf) });
    expect(deeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(deeperThan(nested(MAX_JSON_DEPTH - 1, []), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(nested(MAX_JSON_DEPTH, []), MAX_JSON_DEPTH)).toBe(true);
    expect(deeperThan({ wide: Array.from({ length: 1000 }, (_, i) => ({ i })), deepInLast: [1, 2, nested(MAX_JSON_DEPTH)] }, MAX_JSON_DEPTH)).toBe(true);
    expect(deeperThan('text', 0)).toBe(false);
    expect(deeperThan(null, 0)).toBe(false);
  });

  it('a links.next that is not a URL is a bad response, not a crash', () => {
    expect(() => client().url('http://exa mple.com:99999/x')).toThrow(/the server sent a link that is not a URL/);
  });

  it('--timeout is a deadline for the body too: a body trickled byte by byte ends (and a GET is retried from scratch)', async () => {
    let served = 0;
    const server = createServer((_request, response) => {
      served++;
      response.writeHead(200, { 'content-type': 'application/json' });
      // One byte every 100 ms: never idle for long, never done.
      const timer = setInterval(() => response.write(' '), 100);
      response.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const http = new HttpClient({
        baseUrl: new URL(base), token: TOKEN, timeoutMs: 400, retries: 1, userAgent: 'test', secrets: [TOKEN],
        backoff: { baseMs: 1, maxMs: 2, maxRetryAfterMs: 10, rateLimitBudgetMs: 60_000, random: () => 0.5 },
      });
      await expect(http.send({ method: 'GET', path: '/slow' })).rejects.toMatchObject({ exitCode: ExitCode.transient });
      await http.close();
      expect(served).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a body that comes in pieces', () => {
  /** A server that writes each answer as `parts`, one socket write every 5 ms; `status(n)` for the n-th request. */
  async function piecewise(status: (n: number) => number, parts: Buffer[]) {
    let served = 0;
    const server = createServer((_request, response) => {
      served++;
      response.writeHead(status(served), { 'content-type': 'application/json', 'content-length': Buffer.concat(parts).length });
      let next = 0;
      const timer = setInterval(() => {
        response.write(parts[next++]);
        if (next < parts.length) return;
        clearInterval(timer);
        response.end();
      }, 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = new HttpClient({
      baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), token: TOKEN, timeoutMs: 5_000, retries: 1,
      userAgent: 'test', secrets: [TOKEN], backoff: { baseMs: 1, maxMs: 2, maxRetryAfterMs: 10, rateLimitBudgetMs: 60_000, random: () => 0.5 },
    });
    return {
      http,
      served: () => served,
      async close() {
        await http.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('reads a body whose characters (and byte-order mark) are cut between socket writes as one text', async () => {
    const json = Buffer.from(JSON.stringify({ data: [{ first_name: 'João', last_name: 'da Conceição', note: '🎓'.repeat(3) }] }));
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]);
    // Cut inside the BOM, inside "ã" and inside the first emoji.
    const cuts = [1, body.indexOf(Buffer.from('ã')) + 1, body.indexOf(Buffer.from('🎓')) + 2];
    const parts = [0, ...cuts].map((start, i) => body.subarray(start, [...cuts, body.length][i]));
    const server = await piecewise(() => 200, parts);
    try {
      const response = await server.http.send({ method: 'GET', path: '/api/v1/students' });
      expect(response.body).toEqual(JSON.parse(json.toString('utf8')));
    } finally {
      await server.close();
    }
  });

  it('keeps a failing answer\'s message that came in pieces, to say it when the retries run out', async () => {
    const message = `Service Unavailable: back after the maintenance window (${'x'.repeat(2000)})`;
    const body = Buffer.from(JSON.stringify({ message }));
    const server = await piecewise(() => 503, [body.subarray(0, 700), body.subarray(700, 1500), body.subarray(1500)]);
    try {
      await expect(server.http.send({ method: 'GET', path: '/api/v1/students' }))
        .rejects.toMatchObject({ exitCode: ExitCode.transient, message: expect.stringContaining('Service Unavailable: back after the maintenance window') });
      expect(server.served()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('--timeout is one deadline per attempt, headers and body together', () => {
  it('headers within it and a body within it after them still time out; a retry has its own clock', async () => {
    // The first request of each path: headers after 300 ms, the body 300 ms later, each phase within 500 ms, the whole not.
    // Any later one answers at once.
    const seen = new Map<string, number>();
    const server = createServer((request, response) => {
      const count = (seen.get(request.url ?? '') ?? 0) + 1;
      seen.set(request.url ?? '', count);
      if (count > 1) return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[1]}');
      const later = setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.flushHeaders();
        const end = setTimeout(() => response.end('{"data":[]}'), 300);
        response.on('close', () => clearTimeout(end));
      }, 300);
      response.on('close', () => clearTimeout(later));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = (retries: number) => new HttpClient({
      baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), token: TOKEN, timeoutMs: 500, retries,
      userAgent: 'test', secrets: [TOKEN], backoff: { baseMs: 1, maxMs: 2, maxRetryAfterMs: 10, rateLimitBudgetMs: 60_000, random: () => 0.5 },
    });
    try {
      await expect(http(0).send({ method: 'GET', path: '/once' })).rejects.toMatchObject({
        exitCode: ExitCode.transient, message: 'timed out after 500 ms; raise --timeout or try again later (GET /once)',
      });
      // Sent again after the first attempt's 500 ms: a clock for the whole exchange would already have run out.
      await expect(http(1).send({ method: 'GET', path: '/retried' })).resolves.toMatchObject({ status: 200, body: { data: [1] } });
      expect(Object.fromEntries(seen)).toEqual({ '/once': 1, '/retried': 2 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('HttpClient under a rate limit', () => {
  it('429s do not spend --retries: five of them, then the answer, with --retries 1', async () => {
    for (let i = 0; i < 5; i++) pool().intercept({ path: '/api/v1/subscriptions', method: 'GET' }).reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/api/v1/subscriptions', method: 'GET' }).reply(200, { data: [] });
    await expect(client({ retries: 1 }).send({ method: 'GET', path: '/api/v1/subscriptions' })).resolves.toMatchObject({ status: 200 });
  });

  it('--retries 0 means no retry at all, a 429 included', async () => {
    pool().intercept({ path: '/api/v1/subscriptions', method: 'GET' }).reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '0' } });
    await expect(client({ retries: 0 }).send({ method: 'GET', path: '/api/v1/subscriptions' })).rejects.toMatchObject({ status: 429 });
  });
});

describe('one retry loop: a body broken after the headers is a failure like any other', () => {
  /** A local server answering each request with the next of `answers`; records each request's method and Range header. */
  async function serve(answers: Array<(response: import('node:http').ServerResponse, request: import('node:http').IncomingMessage) => void>) {
    const seen: Array<{ method?: string; range?: string }> = [];
    const server = createServer((request, response) => {
      seen.push({ method: request.method, range: request.headers.range });
      request.resume();
      (answers[seen.length - 1] ?? answers[answers.length - 1] as (r: typeof response, q: typeof request) => void)(response, request);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const http = (retries: number) => new HttpClient({
      baseUrl: new URL(base), token: TOKEN, timeoutMs: 5_000, retries, userAgent: 'test', secrets: [TOKEN],
      backoff: { baseMs: 1, maxMs: 2, maxRetryAfterMs: 10, rateLimitBudgetMs: 60_000, random: () => 0.5 },
    });
    const stop = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
    return { seen, http, stop };
  }
  /** Headers announcing 100 bytes, 8 of them, then the connection cut. */
  const cut = (response: import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', 'accept-ranges': 'bytes' });
    response.write('{"data":', () => response.socket?.destroy());
  };
  const answer = (status: number, body: unknown) => (response: import('node:http').ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  it('a GET whose body is cut is sent again from scratch (no Range), and the whole second answer is the result', async () => {
    const { seen, http, stop } = await serve([cut, answer(200, { data: [1, 2] })]);
    try {
      await expect(http(3).send({ method: 'GET', path: '/api/v1/products' })).resolves.toMatchObject({ body: { data: [1, 2] } });
      expect(seen).toEqual([{ method: 'GET', range: undefined }, { method: 'GET', range: undefined }]);
    } finally {
      await stop();
    }
  });

  it('a body cut by a reset is fetched again from scratch, never resumed with Range and spliced onto the first', async () => {
    // Two versions of one page under one ETag: a splice of the first's head and the second's tail would name records neither holds.
    const first = JSON.stringify({ data: [{ id: 'a-old' }, { id: 'b-old' }] });
    const second = JSON.stringify({ data: [{ id: 'a-new' }, { id: 'b-new' }] });
    const headers = { 'content-type': 'application/json', etag: '"v1"', 'accept-ranges': 'bytes' };
    const halfThenReset = (response: import('node:http').ServerResponse) => {
      response.writeHead(200, { ...headers, 'content-length': first.length });
      response.write(first.slice(0, 20), () => response.socket?.resetAndDestroy());
    };
    // What a server that honours Range answers: the rest of the CURRENT version.
    const current = (response: import('node:http').ServerResponse, request: import('node:http').IncomingMessage) => {
      const start = /^bytes=(\d+)-/.exec(request.headers.range ?? '')?.[1];
      if (start === undefined) return void response.writeHead(200, headers).end(second);
      response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${second.length - 1}/${second.length}` });
      response.end(second.slice(Number(start)));
    };
    const { seen, http, stop } = await serve([halfThenReset, current]);
    try {
      await expect(http(2).send({ method: 'GET', path: '/api/v1/students' })).resolves.toMatchObject({ status: 200, body: JSON.parse(second) });
      expect(seen).toEqual([{ method: 'GET', range: undefined }, { method: 'GET', range: undefined }]);
    } finally {
      await stop();
    }
  });

  it('503s and cut bodies spend the same --retries: 2 retries are 3 requests in all, then the last failure', async () => {
    const { seen, http, stop } = await serve([answer(503, { message: 'down' }), cut, answer(503, { message: 'still down' }), answer(200, { data: [] })]);
    try {
      await expect(http(2).send({ method: 'GET', path: '/api/v1/products' })).rejects.toThrow(
        'server unavailable (503) after 2 retries: still down; try again later or raise --retries (GET /api/v1/products)',
      );
      expect(seen).toHaveLength(3);
    } finally {
      await stop();
    }
  });

  it('a POST whose body is cut is not resent while its check finds it applied', async () => {
    const { seen, http, stop } = await serve([cut, answer(201, { data: { id: 's2' } })]);
    let checks = 0;
    try {
      const failure = http(3).send({ method: 'POST', path: '/api/v1/students', body: {}, alreadyApplied: async () => (++checks, true) });
      await expect(failure).rejects.toThrow(/^cannot reach .*; the change was applied \(POST \/api\/v1\/students\)$/);
      expect({ requests: seen.length, checks }).toEqual({ requests: 1, checks: 1 });
    } finally {
      await stop();
    }
  });

  it('a POST whose body is cut goes again once its check finds nothing', async () => {
    const { seen, http, stop } = await serve([cut, answer(201, { data: { id: 's2' } })]);
    try {
      await expect(http(3).send({ method: 'POST', path: '/api/v1/students', body: {}, alreadyApplied: async () => false }))
        .resolves.toMatchObject({ status: 201, body: { data: { id: 's2' } } });
      expect(seen.map(({ method }) => method)).toEqual(['POST', 'POST']);
    } finally {
      await stop();
    }
  });
});
