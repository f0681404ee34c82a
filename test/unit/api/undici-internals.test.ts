/**
 * src/api/transport/http.ts and proxy.ts import undici's own modules instead of its
 * index (start-up time), and relies on how its RetryHandler behaves (with whole-answer.ts
 * below it). undici is pinned to one version in package.json; these tests
 * state the contract an upgrade must keep.
 */
import { describe, expect, it } from 'vitest';
import { Agent as IndexAgent, Dispatcher as IndexDispatcher, EnvHttpProxyAgent as IndexEnvHttpProxyAgent, interceptors } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import retryInterceptor from 'undici/lib/interceptor/retry.js';
import request from 'undici/lib/api/api-request.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import connect from 'undici/lib/api/api-connect.js';
import type { RetryHandler } from 'undici';
import { useMockAgent } from '../../helpers/mock-api.js';

const agent = useMockAgent();

const ORIGIN = 'https://api.example.com';

describe('the undici modules http.ts and proxy.ts import', () => {
  it('are the very values the index exports', () => {
    expect(Agent).toBe(IndexAgent);
    expect(retryInterceptor).toBe(interceptors.retry);
    expect(request).toBe((IndexDispatcher.prototype as unknown as { request: unknown }).request);
    expect(EnvHttpProxyAgent).toBe(IndexEnvHttpProxyAgent);
    expect(Dispatcher).toBe(IndexDispatcher);
    // proxy.ts attaches it as the index does: the proxy agent's tunnels need it.
    expect(connect).toBe(IndexDispatcher.prototype.connect);
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

  it('starts over from scratch (no Range) after an error reported before any headers, unless the controller it comes with says aborted', async () => {
    // whole-answer.ts reports a broken body this way, with a controller of its own that is aborted only when the caller aborted.
    const outcomes: Array<{ aborted: boolean; asked: number; result: string }> = [];
    for (const aborted of [false, true]) {
      let asked = 0;
      const retry: RetryHandler.RetryCallback = (_err, _context, callback) => {
        asked++;
        callback(null);
      };
      let dispatches = 0;
      const failFirst: IndexDispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
        if (dispatches++ > 0) return dispatch(opts, handler);
        const controller = { aborted, reason: null, paused: false, abort() {}, pause() {}, resume() {} };
        handler.onRequestStart?.(controller as never, {});
        queueMicrotask(() => handler.onResponseError?.(controller as never, Object.assign(new Error('cut'), { code: 'UND_ERR_SOCKET' })));
        return true;
      };
      const dispatcher = agent().compose(failFirst, retryInterceptor({ statusCodes: [503], methods: ['GET'], errorCodes: ['UND_ERR_SOCKET'], maxRetries: 3 }));
      if (!aborted) agent().get(ORIGIN).intercept({ path: '/whole', method: 'GET', headers: (h) => !('range' in h) }).reply(200, 'all of it');
      const result = await request.call(dispatcher, { origin: ORIGIN, path: '/whole', method: 'GET', retryOptions: { retry } } as never)
        .then((response) => response.body.text(), (error: Error) => `rejected: ${error.message}`);
      outcomes.push({ aborted, asked, result });
    }
    expect(outcomes).toEqual([
      { aborted: false, asked: 1, result: 'all of it' },
      { aborted: true, asked: 0, result: 'rejected: cut' },
    ]);
  });
});
