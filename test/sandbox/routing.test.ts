import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { call, useSandbox, type ErrorBody, type Page } from './helpers.js';

const sandbox = useSandbox({ students: 10 });

interface Stats {
  requests: Record<string, number>;
  statuses: Record<string, number>;
  total: number;
  in_flight: number;
  client_connections: number;
}

describe('routing', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const { status, body } = await call<ErrorBody>(sandbox(), '/api/v1/teachers');
    expect(status).toBe(404);
    expect(body).toEqual({ message: 'The route api/v1/teachers could not be found.' });
  });

  it('answers a known route with the wrong method with 405 and Allow', async () => {
    const { status, headers, body } = await call<ErrorBody>(sandbox(), '/api/v1/students/x/scores', { method: 'POST', body: {} });
    expect(status).toBe(405);
    expect(headers.allow).toBe('GET, PUT, HEAD');
    expect(body.message).toBe('The POST method is not supported for route api/v1/students/x/scores. Supported methods: GET, PUT, HEAD.');
  });

  it('prefers the literal segment where templates overlap', async () => {
    const student = sandbox().store.students[0];
    const byEmail = await call<{ data: { id: string } }>(sandbox(), `/api/v1/students/email/${encodeURIComponent(student?.email ?? '')}`);
    expect(byEmail.body.data.id).toBe(student?.id);
  });

  it('ignores a trailing slash', async () => {
    const { status, body } = await call<Page<unknown>>(sandbox(), '/api/v1/products/');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(sandbox().store.products.length);
  });

  it('answers 400 to a path that is not valid percent-encoding', async () => {
    expect((await call(sandbox(), '/api/v1/students/email/%E0%A4%A')).status).toBe(400);
  });

  it('sets a distinct X-Request-Id on every response, errors included', async () => {
    const replies = await Promise.all([
      call(sandbox(), '/api/v1/products'),
      call(sandbox(), '/api/v1/products', { token: null }),
      call(sandbox(), '/nowhere'),
    ]);
    const ids = replies.map((reply) => reply.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('answers HEAD like GET without a body', async () => {
    const reply = await call(sandbox(), '/api/v1/courses', { method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeUndefined();
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(0);
  });
});

describe('/__sandbox/stats', () => {
  it('counts requests per route template and answers per status, failures included, and resets', async () => {
    expect((await call(sandbox(), '/__sandbox/stats/reset', { method: 'POST' })).status).toBe(204);
    const student = sandbox().store.students[1];
    await call(sandbox(), `/api/v1/students/${student?.id}/products`, { method: 'POST', body: { product_id: 'nope', accession_date: '2025-01-01' } });
    await call(sandbox(), `/api/v1/students/${student?.id}/products`, { method: 'POST', body: {} });
    await call(sandbox(), '/api/v1/students', { token: null });
    await call(sandbox(), '/api/v1/nothing-here');
    const { status, body } = await call<Stats>(sandbox(), '/__sandbox/stats');
    expect(status).toBe(200);
    expect(body).toEqual({
      requests: { 'POST /api/v1/students/{id}/products': 2, 'GET /api/v1/students': 1, 'GET (unmatched)': 1 },
      statuses: { 401: 1, 404: 1, 422: 2 },
      total: 4, in_flight: 0, client_connections: 0,
    });
    await call(sandbox(), '/__sandbox/stats/reset', { method: 'POST' });
    expect((await call<Stats>(sandbox(), '/__sandbox/stats')).body).toEqual({ requests: {}, statuses: {}, total: 0, in_flight: 0, client_connections: 0 });
  });

  it('says what is under way: an API request until it is answered, a members process\'s connection until it closes', async () => {
    const stats = async () => (await call<Stats>(sandbox(), '/__sandbox/stats')).body;
    const student = sandbox().store.students[0];
    // A grant whose body never ends: under way for as long as its client wants.
    const sending = request(`${sandbox().url}/api/v1/students/${student?.id}/products`, {
      method: 'POST', headers: { authorization: `Bearer ${sandbox().apiToken}`, 'user-agent': 'members-cli/0.0.0', 'content-type': 'application/json', 'content-length': '100' },
    });
    sending.on('error', () => undefined);
    sending.write('{"product_id":');
    await expect.poll(stats).toMatchObject({ in_flight: 1, client_connections: 1 });
    // The client killed halfway: its request ends unanswered, its connection closes, nothing is under way.
    sending.destroy();
    await expect.poll(stats).toMatchObject({ in_flight: 0, client_connections: 0 });
  });

  it('requires the API token', async () => {
    expect((await call(sandbox(), '/__sandbox/stats', { token: null })).status).toBe(401);
    expect((await call(sandbox(), '/__sandbox/stats/reset', { method: 'POST', token: 'wrong' })).status).toBe(401);
  });
});
