import { describe, expect, it } from 'vitest';
import { Throttle } from '../../src/sandbox/throttle.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { call } from './helpers.js';

describe('Throttle, per minute (Laravel throttle:60,1)', () => {
  it('counts down X-RateLimit-Remaining, then 429 with Retry-After to the end of the window and X-RateLimit-Reset', () => {
    const start = 1_750_000_000_000;
    const throttle = new Throttle({ limit: 2, per: 'minute' }, start);
    expect(throttle.take(start)).toEqual({ allowed: true, headers: { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1' } });
    expect(throttle.take(start + 1000).headers['X-RateLimit-Remaining']).toBe('0');
    expect(throttle.take(start + 15_000)).toEqual({
      allowed: false,
      headers: { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '0', 'Retry-After': '45', 'X-RateLimit-Reset': String(start / 1000 + 60) },
    });
    expect(throttle.take(start + 60_000).allowed).toBe(true);
  });
});

describe('Throttle, per second (token bucket)', () => {
  it('sends the same headers with a one-second window', () => {
    const start = 1_750_000_000_000;
    const throttle = new Throttle({ limit: 1, per: 'second' }, start);
    expect(throttle.take(start).headers).toEqual({ 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0' });
    expect(throttle.take(start + 100)).toEqual({
      allowed: false,
      headers: { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'Retry-After': '1', 'X-RateLimit-Reset': String(start / 1000 + 1) },
    });
  });
});

describe('sandbox rateLimit per minute', () => {
  it('puts the X-RateLimit-* headers on answers and on the 429', async () => {
    const box = await startSandbox({ port: 0, students: 2, rateLimit: { limit: 2, per: 'minute' } });
    try {
      const first = await call(box, '/api/v1/products');
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      await call(box, '/api/v1/products');
      const limited = await call(box, '/api/v1/products');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 + 50);
    } finally {
      await box.close();
    }
  });
});
