/**
 * `interruptible` after its rewrite without Promise.race (which kept every
 * record of a long list reachable): Ctrl-C still ends the iteration whether a
 * record is pending or being handled, and the handlers are removed.
 */
import { describe, expect, it } from 'vitest';
import { batched } from '../../../src/lib/batches.js';
import { interruptible } from '../../../src/session/run-kit.js';
import { InterruptedError } from '../../../src/lib/errors.js';
import { fakeIo } from '../../helpers/fake-io.js';

describe('interruptible', () => {
  it('ends with InterruptedError when Ctrl-C comes while a record is being handled', async () => {
    const fake = fakeIo();
    let closed = false;
    async function* source() {
      try {
        for (let i = 1; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    const seen: number[] = [];
    const run = (async () => {
      for await (const n of interruptible(source(), fake.io)) {
        seen.push(n);
        if (n === 3) fake.interrupt();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
    expect(seen).toEqual([1, 2, 3]);
    // The source was not pending, so it was closed.
    expect(closed).toBe(true);
    // Both handlers (Ctrl-C, SIGTERM) were removed when the iteration ended.
    expect(fake.signalHandlers()).toBe(0);
  });

  it('passes a long stream through untouched and in order', async () => {
    function* source() {
      for (let i = 0; i < 50_000; i++) yield { i };
    }
    let count = 0;
    for await (const record of interruptible(source(), fakeIo().io)) {
      expect(record.i).toBe(count);
      count++;
    }
    expect(count).toBe(50_000);
  });

  it('passes on the error of the source', async () => {
    async function* source() {
      yield 1;
      throw new Error('page 2 failed');
    }
    const seen: number[] = [];
    await expect((async () => {
      for await (const n of interruptible(source(), fakeIo().io)) seen.push(n);
    })()).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([1]);
  });

  it('tells the Io of each page it passes on (the real process holds its young generation there)', async () => {
    const fake = fakeIo();
    const pages = batched(async function* () {
      yield [1, 2];
      yield [3];
      yield [4, 5, 6];
    });
    const seen: number[] = [];
    for await (const n of interruptible(pages, fake.io)) {
      seen.push(n);
      // Told as each page goes on, not at the end.
      if (n === 3) expect(fake.pagesStreamed()).toBe(2);
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fake.pagesStreamed()).toBe(3);
  });
});
