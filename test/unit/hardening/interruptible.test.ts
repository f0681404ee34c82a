/**
 * `interruptible` after its rewrite without Promise.race (which kept every
 * record of a long list reachable): Ctrl-C still ends the iteration whether a
 * record is pending or being handled, and the handlers are removed.
 */
import { describe, expect, it } from 'vitest';
import { interruptible } from '../../../src/commands/list-options.js';
import { InterruptedError } from '../../../src/errors.js';
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
});
