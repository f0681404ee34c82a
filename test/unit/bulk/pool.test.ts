import { describe, expect, it } from 'vitest';
import { InOrder, KeyedQueue, runPool } from '../../../src/domain/bulk/pool.js';

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runPool', () => {
  it('runs every index once, never more than `concurrency` at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await runPool(50, 4, async (index) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick(index % 3);
      seen.push(index);
      inFlight--;
    });
    expect(most).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('takes no new index once stopped, and waits for those in flight', async () => {
    let stop = false;
    const done: number[] = [];
    await runPool(100, 3, async (index) => {
      if (index === 5) stop = true;
      await tick();
      done.push(index);
    }, () => stop);
    // 3, 4 and 5 started together; 5 stopped the pool.
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('handles nothing to do', async () => {
    await runPool(0, 4, async () => {
      throw new Error('not called');
    });
  });
});

describe('KeyedQueue', () => {
  it('runs work for one key in turn, other keys alongside, and goes on after a failure', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const work = (name: string, ms: number, fail = false) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([
      queue.run('a', work('a1', 10, true)), queue.run('a', work('a2', 1)), queue.run('b', work('b1', 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });
});

describe('InOrder', () => {
  it('hands each result on once it and every one before it are known, whatever order they come in', async () => {
    const results = new InOrder<string>(4);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const result of results) seen.push(result);
    })();
    results.set(1, 'b');
    await tick();
    expect(seen).toEqual([]);
    results.set(0, 'a');
    await tick();
    expect(seen).toEqual(['a', 'b']);
    results.set(3, 'd');
    await tick();
    expect(seen).toEqual(['a', 'b']);
    expect(results.known()).toEqual(['a', 'b', 'd']);
    expect([results.has(2), results.has(3)]).toEqual([false, true]);
    // Index 2 never comes (a row not started): the end lets the rest through, without it.
    results.end();
    await reading;
    expect(seen).toEqual(['a', 'b', 'd']);
  });
});

describe('InOrder, every result known', () => {
  it('ends the reading at the last result, without waiting for end()', async () => {
    const results = new InOrder<string>(2);
    results.set(1, 'b');
    results.set(0, 'a');
    const order: string[] = [];
    // A macrotask: it runs only once every microtask the reading queues has run.
    setImmediate(() => {
      order.push('end');
      results.end();
    });
    const seen: string[] = [];
    for await (const result of results) seen.push(result);
    order.push('read');
    expect(seen).toEqual(['a', 'b']);
    expect(order).toEqual(['read']);
  });
});

describe('KeyedQueue, once its work is done', () => {
  it('keeps nothing for a key, so a run over 100,000 students does not grow with them', async () => {
    const queue = new KeyedQueue();
    await Promise.allSettled([queue.run('a', async () => 1), queue.run('a', async () => { throw new Error('x'); }), queue.run('b', async () => 2)]);
    await tick();
    expect(queue['tails'].size).toBe(0);
  });

  it('keeps the tail of a key while later work for it is queued, so a third waits for the second', async () => {
    const queue = new KeyedQueue();
    const releases: Array<() => void> = [];
    const held = () => new Promise<void>((resolve) => releases.push(resolve));
    const first = queue.run('a', held);
    const second = queue.run('a', held);
    await tick();
    releases[0]?.();
    await first;
    await tick();
    expect(queue['tails'].size).toBe(1);
    const log: string[] = [];
    const third = queue.run('a', async () => void log.push('third'));
    await tick();
    expect(log).toEqual([]);
    releases[1]?.();
    await Promise.all([second, third]);
    expect(log).toEqual(['third']);
    await tick();
    expect(queue['tails'].size).toBe(0);
  });
});
