import { describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call, type ErrorBody } from './helpers.js';

async function withSandbox(options: Parameters<typeof startSandbox>[0], run: (box: Sandbox) => Promise<void>): Promise<void> {
  const box = await startSandbox({ port: 0, students: 20, ...options });
  try {
    await run(box);
  } finally {
    await box.close();
  }
}

describe('fail rate', () => {
  it('with failRate 1 answers every API request 500 or 503 with a JSON message', async () => {
    await withSandbox({ failRate: 1 }, async (box) => {
      const statuses = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const reply = await call<ErrorBody>(box, '/api/v1/products');
        statuses.add(reply.status);
        expect(reply.body).toEqual({ message: reply.status === 500 ? 'Server Error' : 'Service Unavailable' });
        expect(reply.headers['x-request-id']).toBeTruthy();
      }
      expect(statuses).toEqual(new Set([500, 503]));
    });
  });

  it('applies about half of the failed POSTs before answering, and those took effect', async () => {
    await withSandbox({ failRate: 1 }, async (box) => {
      const when: string[] = [];
      for (let i = 0; i < 30; i++) {
        const email = `falha${i}@example.com`;
        const reply = await call(box, '/api/v1/students', { method: 'POST', body: { first_name: 'Teste', last_name: 'Falha', email } });
        expect([500, 503]).toContain(reply.status);
        const fault = String(reply.headers['x-sandbox-fault']);
        when.push(fault);
        expect(box.store.studentByEmail(email) !== undefined).toBe(fault === 'after');
      }
      expect(when.filter((fault) => fault === 'after').length).toBeGreaterThan(5);
      expect(when.filter((fault) => fault === 'before').length).toBeGreaterThan(5);
    });
  });

  it('never applies a failed GET, PUT or DELETE', async () => {
    await withSandbox({ failRate: 1 }, async (box) => {
      const student = box.store.students[0];
      for (let i = 0; i < 10; i++) {
        const reply = await call(box, `/api/v1/students/${student?.id}/scores`, { method: 'PUT', body: { score: 999_999 } });
        expect(reply.headers['x-sandbox-fault']).toBe('before');
      }
      expect(student?.score).not.toBe(999_999);
    });
  });

  it('is reproducible from the seed', async () => {
    const run = async (): Promise<number[]> => {
      const statuses: number[] = [];
      await withSandbox({ failRate: 0.5, seed: 9 }, async (box) => {
        for (let i = 0; i < 30; i++) statuses.push((await call(box, '/api/v1/courses')).status);
      });
      return statuses;
    };
    const first = await run();
    expect(first).toContain(200);
    expect(first.some((status) => status >= 500)).toBe(true);
    expect(await run()).toEqual(first);
  });

  it('exempts the introspection routes, yet counts the failed requests', async () => {
    await withSandbox({ failRate: 1 }, async (box) => {
      await call(box, '/api/v1/courses');
      const stats = await call<{ total: number }>(box, '/__sandbox/stats');
      expect(stats.status).toBe(200);
      expect(stats.body.total).toBe(1);
    });
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After in whole seconds beyond the rate', async () => {
    await withSandbox({ rateLimit: 3 }, async (box) => {
      const replies = [];
      for (let i = 0; i < 8; i++) replies.push(await call<ErrorBody>(box, '/api/v1/products'));
      expect(replies.slice(0, 3).map((reply) => reply.status)).toEqual([200, 200, 200]);
      const limited = replies.filter((reply) => reply.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const reply of limited) {
        expect(reply.headers['retry-after']).toBe('1');
        expect(reply.body).toEqual({ message: 'Too Many Attempts.' });
      }
    });
  });

  it('lets requests through again after Retry-After', async () => {
    await withSandbox({ rateLimit: 2 }, async (box) => {
      for (let i = 0; i < 4; i++) await call(box, '/api/v1/products');
      // The throttle reads Date.now(): move the clock, not the test, past the second Retry-After names.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        expect((await call(box, '/api/v1/products')).status).toBe(429);
        vi.setSystemTime(Date.now() + 1_000);
        expect((await call(box, '/api/v1/products')).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});

describe('latency', () => {
  it('delays every response by latencyMs', async () => {
    await withSandbox({ latencyMs: 150 }, async (box) => {
      // The answer waits for a 150 ms timer (asserted on the timer, not on a stopwatch).
      const timers = vi.spyOn(globalThis, 'setTimeout');
      try {
        const reply = await call(box, '/api/v1/nothing', { token: null });
        expect(reply.status).toBe(404);
        expect(timers.mock.calls.filter(([, ms]) => ms === 150)).toHaveLength(1);
      } finally {
        timers.mockRestore();
      }
    });
  });
});

describe('options', () => {
  it.each([{ failRate: 1.5 }, { rateLimit: 0 }, { students: -1 }, { latencyMs: -5 }, { port: 70000 }])('rejects %j', async (options) => {
    await expect(startSandbox(options)).rejects.toThrow(RangeError);
  });
});
