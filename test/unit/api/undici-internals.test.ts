/**
 * src/api/http.ts imports undici's own modules instead of its index (start-up
 * time), and relies on how its RetryHandler behaves. undici is pinned to one
 * version in package.json; these tests state the contract an upgrade must keep.
 */
import { describe, expect, it } from 'vitest';
import { Agent as IndexAgent, Dispatcher as IndexDispatcher, interceptors } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import retryInterceptor from 'undici/lib/interceptor/retry.js';
import request from 'undici/lib/api/api-request.js';
import type { RetryHandler } from 'undici';
import { useMockAgent } from '../../helpers/mock-api.js';

const agent = useMockAgent();

const ORIGIN = 'https://api.example.com';

describe('the undici modules http.ts imports', () => {
  it('are the very values the index exports', () => {
    expect(Agent).toBe(IndexAgent);
    expect(retryInterceptor).toBe(interceptors.retry);
    expect(request).toBe((IndexDispatcher.prototype as unknown as { request: unknown }).request);
  });

  it("the retry interceptor filters statuses with the list it is given, then asks the per-request callback", async () => {
    const seen: Array<number | undefined> = [];
    const retry: RetryHandler.RetryCallback = (err, _context, callback) => {
      seen.push((err as { statusCode?: number }).statusCode);
      callback(null);
    };
    const dispatcher = agent().compose(retryInterceptor({ statusCodes: [418], methods: ['GET'], errorCodes: [], maxRetries: 5 }));
    agent().get(ORIGIN).intercept({ path: '/teapot', method: 'GET' }).reply(418, 'short and stout').times(2);
    agent().get(ORIGIN).intercept({ path: '/teapot', method: 'GET' }).reply(200, 'ok');
    const response = await request.call(dispatcher, { origin: ORIGIN, path: '/teapot', method: 'GET', retryOptions: { retry } } as never);
    expect(await response.body.text()).toBe('ok');
    expect(seen).toEqual([418, 418]);

    // A status outside the list reaches the caller untouched, the callback never asked.
    agent().get(ORIGIN).intercept({ path: '/gone', method: 'GET' }).reply(503, 'down');
    const passed = await request.call(dispatcher, { origin: ORIGIN, path: '/gone', method: 'GET', retryOptions: { retry } } as never);
    expect(passed.statusCode).toBe(503);
    await passed.body.text();
    expect(seen).toHaveLength(2);
  });

  it('hands network errors to the callback with their code, for any method, whatever its errorCodes list', async () => {
    const codes: Array<string | undefined> = [];
    const retry: RetryHandler.RetryCallback = (err, _context, callback) => {
      codes.push((err as { code?: string }).code);
      callback(null);
    };
    const dispatcher = agent().compose(retryInterceptor({ statusCodes: [503], methods: ['GET'], errorCodes: [] }));
    agent().get(ORIGIN).intercept({ path: '/post', method: 'POST' }).replyWithError(Object.assign(new Error('reset'), { code: 'ETIMEDOUT' }));
    agent().get(ORIGIN).intercept({ path: '/post', method: 'POST' }).reply(201, 'made');
    const response = await request.call(dispatcher, { origin: ORIGIN, path: '/post', method: 'POST', body: '{}', retryOptions: { retry } } as never);
    expect(response.statusCode).toBe(201);
    await response.body.text();
    expect(codes).toEqual(['ETIMEDOUT']);
  });
});
