import { describe, expect, it, vi } from 'vitest';
import { Pacer, type Clock } from '../../../src/api/transport/pacer.js';

/** A clock that only moves when someone sleeps: each acquire() says when its request starts. */
function fakeClock(): Clock & { starts: number[]; time: number } {
  const clock = {
    time: 0,
    starts: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.time += ms;
    },
  };
  return clock;
}

async function starts(pacer: Pacer, clock: ReturnType<typeof fakeClock>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await pacer.acquire();
    times.push(clock.time);
  }
  return times;
}

/** A clock whose sleeps end only when the test moves it on. */
function manualClock(): Clock & { advance(ms: number): void } {
  let time = 0;
  let timers: Array<{ at: number; wake: () => void }> = [];
  return {
    now: () => time,
    sleep: (ms, cut) => new Promise<void>((wake) => {
      timers.push({ at: time + ms, wake });
      void cut?.then(wake);
    }),
    advance(ms) {
      time += ms;
      for (const timer of timers.filter(({ at }) => at <= time)) timer.wake();
      timers = timers.filter(({ at }) => at > time);
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Pacer', () => {
  it('lets requests through at once while the server never refused', async () => {
    const clock = fakeClock();
    expect(await starts(new Pacer(clock), clock, 3)).toEqual([0, 0, 0]);
  });

  it('holds every request until a 429 Retry-After has passed', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    pacer.observe(429, { 'retry-after': '2', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' });
    expect(await starts(pacer, clock, 2)).toEqual([2000, 2000]);
    // Headers were sent: the server's timing is followed, no guessed gap.
    expect(pacer.currentGapMs).toBe(0);
  });

  it('once Remaining is down to the requests in flight, spaces starts by the limit\'s refill (2 % under), and lets go when it grows', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    await starts(pacer, clock, 3); // three in flight
    pacer.observe(200, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '30' });
    expect(pacer.currentGapMs).toBe(0);
    pacer.observe(200, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '1' }); // one still in flight
    expect(pacer.currentGapMs).toBeCloseTo(20.4);
    // The one in flight may spend the last: the next start waits one refill too.
    expect((await starts(pacer, clock, 3)).map((at) => Math.round(at * 10) / 10)).toEqual([20.4, 40.8, 61.2]);
    pacer.observe(200, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '40' });
    expect(pacer.currentGapMs).toBe(0);
  });

  it('workers starting together after one answer spend no more than it told, then go at the refill\'s pace', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    await starts(pacer, clock, 1);
    pacer.observe(200, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3' });
    // Eight start at once (a list's last page answered, then a bulk run's changes): three go, five wait their turn.
    expect((await starts(pacer, clock, 8)).map(Math.round)).toEqual([0, 0, 0, 102, 204, 306, 408, 510]);
  });

  it('waits for X-RateLimit-Reset when Remaining reaches 0, before any 429', async () => {
    const clock = fakeClock();
    clock.time = 10_000;
    const pacer = new Pacer(clock);
    pacer.observe(200, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '11' });
    expect(await starts(pacer, clock, 1)).toEqual([11_000]);
  });

  it('without headers, adapts as TCP does: each 429 doubles the gap, each success narrows it', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    pacer.observe(429, {});
    expect(pacer.currentGapMs).toBe(20);
    pacer.observe(429, {});
    pacer.observe(429, {});
    expect(pacer.currentGapMs).toBe(80);
    expect(await starts(pacer, clock, 3)).toEqual([0, 80, 160]);
    for (let i = 0; i < 10; i++) pacer.observe(200, {});
    expect(pacer.currentGapMs).toBeLessThan(80);
    expect(pacer.currentGapMs).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) pacer.observe(429, {});
    expect(pacer.currentGapMs).toBe(2000);
  });
  it('when Remaining reaches 0 without a Reset, one request probes and the others wait for its answer (one 429 a window, not one a worker)', async () => {
    const clock = manualClock();
    const pacer = new Pacer(clock);
    pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    const started: string[] = [];
    await pacer.acquire();
    started.push('probe@0');
    const others = [1, 2].map((n) => pacer.acquire().then(() => started.push(`worker${n}@${clock.now()}`)));
    await settle();
    expect(started).toEqual(['probe@0']);
    // Laravel's 429 at the window's end: Retry-After, and now everyone knows.
    pacer.observe(429, { 'retry-after': '30', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    await settle();
    clock.advance(30_000);
    await others[0];
    expect(started).toEqual(['probe@0', 'worker1@30000']);
    // The budget is still down to what is in flight: the next start comes a refill later (1000 ms / 600, 2 % under).
    clock.advance(2);
    await others[1];
    expect(started).toEqual(['probe@0', 'worker1@30000', 'worker2@30002']);
  });

  it('a probe whose answer never comes (lost to a network error) holds the others 5 s at most', async () => {
    const clock = manualClock();
    const pacer = new Pacer(clock);
    pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    await pacer.acquire();
    let startedAt: number | undefined;
    const other = pacer.acquire().then(() => (startedAt = clock.now()));
    await settle();
    clock.advance(4_999);
    await settle();
    expect(startedAt).toBeUndefined();
    clock.advance(1);
    await other;
    expect(startedAt).toBe(5_000);
  });
  it('a probe answered leaves no timer behind (the 5 s bound must not keep the process alive after the run)', async () => {
    vi.useFakeTimers();
    try {
      const pacer = new Pacer(); // the real clock, on vitest's timers
      pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
      await pacer.acquire(); // the probe
      const other = pacer.acquire();
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1); // the other's 5 s bound
      pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' });
      await vi.advanceTimersByTimeAsync(2); // the budget's refill gap (1000 ms / 600, 2 % under)
      await other;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a wait longer than the retry policy honours (Retry-After: 3600, a Reset an hour away) holds no one and teaches no window', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    // That request fails ("try again after …"); the rest of a bulk run must not sleep an hour, deaf to SIGTERM.
    pacer.observe(429, { 'retry-after': '3600', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    pacer.observe(429, { 'x-ratelimit-reset': '3600', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    pacer.observe(200, { 'x-ratelimit-reset': '3600', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    expect(await starts(pacer, clock, 2)).toEqual([0, expect.closeTo(1.7)]);
    pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '1' });
    // Paced over a second, not over the hour: 1000 ms / 600, 2 % under.
    expect(pacer.currentGapMs).toBeCloseTo(1.7);
  });

  it('learns a window longer than a second from a Retry-After (a per-minute throttle) and paces the end of the next budget by it', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock);
    pacer.observe(429, { 'retry-after': '45', 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0' });
    await starts(pacer, clock, 2); // after the wait, two in flight
    pacer.observe(200, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '1' });
    // 45 s / 600 requests, 2 % under: the limit's refill over the window the server showed.
    expect(pacer.currentGapMs).toBeCloseTo(76.5);
  });

  describe('a fixed window the run opened (Laravel throttle:N,1, no Reset before a 429)', () => {
    const told = (pacer: Pacer, remaining: number, limit = 10) =>
      pacer.observe(200, { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) });
    /** A pacer whose first request was told `first` Remaining of 10, with the clock then moved to `at`. */
    const toldFirst = async (first: number, at: number) => {
      const clock = fakeClock();
      const pacer = new Pacer(clock);
      await pacer.acquire();
      told(pacer, first);
      clock.time = at;
      return { clock, pacer };
    };
    /** Requests one after another, each answered with the next Remaining. */
    const oneByOne = async (pacer: Pacer, remainings: number[]) => {
      for (const remaining of remainings) {
        await pacer.acquire();
        told(pacer, remaining);
      }
    };

    it('is never overspent: once the requests in flight will use it up, nothing starts until a minute after it opened, then one probes', async () => {
      // The run's first request opened the window at 0.
      const { clock, pacer } = await toldFirst(9, 1_000);
      await oneByOne(pacer, [8, 7, 6, 5, 4]);
      // Remaining 4: four more may go, three of them at once (in flight), then one.
      await starts(pacer, clock, 4);
      expect(clock.time).toBe(1_000);
      told(pacer, 3);
      told(pacer, 2);
      told(pacer, 1);
      told(pacer, 0);
      await pacer.acquire();
      expect(clock.time).toBe(60_000);
    });

    it('stops starting while what is in flight will spend it, before any answer says 0', async () => {
      const { clock, pacer } = await toldFirst(9, 1_000);
      await oneByOne(pacer, [8]);
      // Eight may go; they are all in flight when the ninth asks.
      expect(await starts(pacer, clock, 8)).toEqual(Array(8).fill(1_000));
      await pacer.acquire();
      expect(clock.time).toBe(60_000);
    });

    it('a bucket (a Remaining value told twice: it refilled) is paced as before, never held for a minute', async () => {
      const { clock, pacer } = await toldFirst(9, 1_000);
      await oneByOne(pacer, [8, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      await pacer.acquire();
      expect(clock.time).toBe(1_000);
    });

    it('a window the run did not open (its first answer was not Limit - 1) is left to the probe at Remaining 0', async () => {
      const { clock, pacer } = await toldFirst(5, 2_000);
      await oneByOne(pacer, [4, 3, 2, 1, 0]);
      await pacer.acquire();
      expect(clock.time).toBe(2_000);
    });
  });
});


describe('Pacer: one budget shared by the runs on a token', () => {
  it('paces two runs on one timeline: together they start no faster than the limit refills', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { LocalRateBudget } = await import('../../../src/audit/rate-budget.js');
    const dir = await mkdtemp(join(tmpdir(), 'members-pacer-'));
    try {
      const clock = fakeClock();
      const shared = { budget: new LocalRateBudget(dir), key: 'k' };
      const [a, b] = [new Pacer(clock, shared), new Pacer(clock, shared)];
      // A 20/s limit whose budget is spent down to the requests in flight: each run alone would start every 51 ms.
      for (const pacer of [a, b]) {
        await pacer.acquire();
        pacer.observe(200, { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' });
      }
      const times: number[] = [];
      for (let i = 0; i < 8; i++) {
        await (i % 2 ? a : b).acquire();
        times.push(clock.time);
      }
      const gaps = times.slice(1).map((time, index) => time - (times[index] as number));
      // Interleaved, the starts of both runs keep the gap of a 20/s limit between them (a reserved batch may leave a hole, never a
      // shorter gap); each pacing on its own, one run's start would follow the other's at once.
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(51);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('paces alone as before when the budget does not answer', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock, { key: 'k', budget: { reserve: () => Promise.reject(new Error('gone')) } });
    await pacer.acquire();
    pacer.observe(429, {});
    expect(await starts(pacer, clock, 3)).toEqual([0, 20, 40]);
  });

  const silent = { key: 'k', budget: { reserve: () => Promise.reject(new Error('gone')) } };
  const told = (remaining: number) => ({ 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': String(remaining) });

  it('sends one request before the others: its answer says whether another run spends the budget', async () => {
    const clock = manualClock();
    const pacer = new Pacer(clock, silent);
    await pacer.acquire();
    let second = false;
    const waiting = pacer.acquire().then(() => (second = true));
    await settle();
    expect(second).toBe(false);
    pacer.observe(200, told(19));
    await waiting;
    expect(second).toBe(true);
    // Without a shared budget, the opening burst goes at once (one run alone, as before).
    const alone = new Pacer(clock);
    await alone.acquire();
    await alone.acquire();
  });

  it("counts another run's requests in flight as many as its own at their most", async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock, silent);
    await pacer.acquire();
    pacer.observe(200, told(19));
    // The opening burst: 8 out at once (the other run's may be as many), then 5 answered: 3 still in flight.
    for (let i = 0; i < 8; i++) await pacer.acquire();
    for (let i = 0; i < 5; i++) pacer.observe(200, told(11));
    // 3 + 8 ≥ 11: the next starts wait for the refill (51 ms at 20/s apart), where one run alone counts 3 and goes at once.
    expect(await starts(pacer, clock, 2)).toEqual([51, 102]);
    expect(pacer.currentGapMs).toBe(51);
    const alone = new Pacer(clock);
    const now = clock.time;
    for (let i = 0; i < 8; i++) await alone.acquire();
    for (let i = 0; i < 5; i++) alone.observe(200, told(11));
    expect(await starts(alone, clock, 2)).toEqual([now, now]);
  });

  it('a run alone on a shared budget, past its first bucket, counts its own requests in flight only', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock, silent);
    // A bucket's worth of requests, the budget kept full by the refill: nobody else on it.
    for (let i = 0; i < 20; i++) {
      await pacer.acquire();
      pacer.observe(200, told(19));
    }
    for (let i = 0; i < 8; i++) await pacer.acquire();
    for (let i = 0; i < 5; i++) pacer.observe(200, told(11));
    const now = clock.time;
    expect(await starts(pacer, clock, 2)).toEqual([now, now]);
  });

  it('runs pacing together spend a surplus the budget tells, the gap back to the refill once it is spent', async () => {
    const clock = fakeClock();
    const pacer = new Pacer(clock, silent);
    await pacer.acquire();
    // Half spent at the first answer: another run shares the budget, this one paces with it.
    pacer.observe(200, told(10));
    const gap = async () => {
      const [first, second] = await starts(pacer, clock, 2);
      return (second as number) - (first as number);
    };
    // 10 told, nothing in flight but 1 at the most (counted for the other run): 9 to spare over a limit of 20, 51 ms × 20 / 29.
    expect(await gap()).toBeCloseTo((51 * 20) / 29, 5);
    pacer.observe(200, told(1));
    pacer.observe(200, told(1));
    // Spent: the refill's gap again.
    expect(await gap()).toBeCloseTo(51, 5);
  });
});
