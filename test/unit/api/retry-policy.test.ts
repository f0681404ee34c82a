import { describe, expect, it } from 'vitest';
import {
  RETRYABLE_CODES, RETRYABLE_STATUS, RETRY_METHODS, backoffDelay, defaultBackoff, isRetryableCode, outcomeUnknown, parseRetryAfter,
  retryDecision, type Backoff,
} from '../../../src/api/transport/retry-policy.js';

const backoff: Backoff = { baseMs: 100, maxMs: 1_000, maxRetryAfterMs: 5_000, rateLimitBudgetMs: 60_000, random: () => 0 };

/** Contract §7.1, written out: the lists in the source must say exactly this (a code dropped from them fails here). */
const TRANSIENT_CODES = [
  'ECONNRESET', 'ECONNREFUSED', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN', 'EHOSTUNREACH', 'EPIPE', 'ETIMEDOUT',
  'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED',
];

describe('the lists handed to undici', () => {
  it('retries exactly 429, 500, 502, 503 and 504', () => {
    expect([...RETRYABLE_STATUS].sort()).toEqual([429, 500, 502, 503, 504]);
  });

  it('names every transient network code, and nothing else', () => {
    expect([...RETRYABLE_CODES].sort()).toEqual([...TRANSIENT_CODES].sort());
    for (const code of TRANSIENT_CODES) expect(isRetryableCode(code), code).toBe(true);
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'ERR_TLS_CERT_ALTNAME_INVALID', '']) expect(isRetryableCode(code), code).toBe(false);
  });

  it('lets undici ask about every method members sends (the decision per method is ours)', () => {
    expect([...RETRY_METHODS].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
  });

  it('waits 250 ms doubling up to 8 s, honours a Retry-After of up to a minute, and keeps trying 429s for 5 minutes', () => {
    expect(defaultBackoff).toMatchObject({ baseMs: 250, maxMs: 8_000, maxRetryAfterMs: 60_000, rateLimitBudgetMs: 300_000 });
    expect(defaultBackoff.random).toBe(Math.random);
  });
});

describe('retryDecision', () => {
  it.each(TRANSIENT_CODES)('retries a GET that failed with %s', (code) => {
    expect(retryDecision({ method: 'GET', code }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: false });
  });

  it('uses the default backoff when given none', () => {
    const decision = retryDecision({ method: 'GET', status: 503 }, 1, 3);
    // 250 ms with jitter in its upper half.
    expect(decision?.delayMs).toBeGreaterThanOrEqual(125);
    expect(decision?.delayMs).toBeLessThanOrEqual(250);
    expect(retryDecision({ method: 'GET', status: 429, retryAfter: '61' }, 1, 3)).toBeNull();
    expect(retryDecision({ method: 'GET', status: 429, retryAfter: '60' }, 1, 3)?.delayMs).toBe(60_000);
  });

  it.each(['GET', 'PUT', 'DELETE'])('retries %s on every retryable status and network code, without a check', (method) => {
    for (const status of RETRYABLE_STATUS) expect(retryDecision({ method, status }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: false });
    for (const code of RETRYABLE_CODES) expect(retryDecision({ method, code }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: false });
  });

  it.each([400, 401, 403, 404, 409, 422, 501])('never retries a %i', (status) => {
    expect(retryDecision({ method: 'GET', status }, 1, 3, backoff)).toBeNull();
  });

  it('never retries an unknown network code, nor ENOTFOUND (a name that does not resolve stays so)', () => {
    expect(retryDecision({ method: 'GET', code: 'ENOTFOUND' }, 1, 3, backoff)).toBeNull();
    expect(retryDecision({ method: 'GET', code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 1, 3, backoff)).toBeNull();
    expect(retryDecision({ method: 'GET' }, 1, 3, backoff)).toBeNull();
  });

  it('a POST goes again after a 429 as it is; after a 5xx or a cut connection only once checked', () => {
    expect(retryDecision({ method: 'POST', status: 429 }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: false });
    expect(retryDecision({ method: 'POST', status: 503 }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: true });
    expect(retryDecision({ method: 'POST', code: 'ECONNRESET' }, 1, 3, backoff)).toEqual({ delayMs: 50, checkFirst: true });
  });

  it('stops when the budget is spent: attempt N of a budget N is the last', () => {
    expect(retryDecision({ method: 'GET', status: 503 }, 3, 3, backoff)).not.toBeNull();
    expect(retryDecision({ method: 'GET', status: 503 }, 4, 3, backoff)).toBeNull();
    expect(retryDecision({ method: 'GET', status: 503 }, 1, 0, backoff)).toBeNull();
  });

  it("waits what the server's Retry-After says, and gives up when it asks for longer than the cap", () => {
    expect(retryDecision({ method: 'GET', status: 429, retryAfter: '2' }, 1, 3, backoff)?.delayMs).toBe(2_000);
    expect(retryDecision({ method: 'GET', status: 429, retryAfter: ['5'] }, 1, 3, backoff)?.delayMs).toBe(5_000);
    expect(retryDecision({ method: 'GET', status: 429, retryAfter: '6' }, 1, 3, backoff)).toBeNull();
    expect(retryDecision({ method: 'GET', status: 503, retryAfter: 'soon' }, 2, 3, backoff)?.delayMs).toBe(100);
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt, with jitter in the upper half, up to the ceiling', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, backoff))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 5].map((attempt) => backoffDelay(attempt, { ...backoff, random: () => 1 }))).toEqual([100, 200, 1_000]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates; nonsense and blanks are absent; the past is 0', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBe(0);
    expect(parseRetryAfter('', now)).toBeUndefined();
    // Blank is absent (Number('  ') would read it as 0 s: an immediate retry the server never asked for).
    expect(parseRetryAfter('   ', now)).toBeUndefined();
    expect(parseRetryAfter(['7', '1'], now)).toBe(7_000);
    expect(parseRetryAfter([], now)).toBeUndefined();
    expect(parseRetryAfter('later', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('outcomeUnknown', () => {
  it('a 5xx or a retryable network failure may have been applied; a 4xx and a refused name were not', () => {
    expect(outcomeUnknown({ method: 'POST', status: 500 })).toBe(true);
    expect(outcomeUnknown({ method: 'POST', code: 'UND_ERR_SOCKET' })).toBe(true);
    expect(outcomeUnknown({ method: 'POST', status: 429 })).toBe(false);
    expect(outcomeUnknown({ method: 'POST', status: 422 })).toBe(false);
    expect(outcomeUnknown({ method: 'POST', code: 'ENOTFOUND' })).toBe(false);
    expect(isRetryableCode(undefined)).toBe(false);
  });
});
