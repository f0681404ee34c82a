/** The list helpers shared by products, subscriptions, courses (and students). */
import { describe, expect, it, vi } from 'vitest';
import { listOptions, pageFooter } from '../../../src/commands/shared/list-flags.js';
import { parseChoiceList } from '../../../src/lib/values.js';
import { interruptible } from '../../../src/session/run-kit.js';
import { InterruptedError, UsageError } from '../../../src/lib/errors.js';
import { fakeIo } from '../../helpers/fake-io.js';

describe('listOptions', () => {
  it('one page by default, with the server page size', () => {
    expect(listOptions({})).toEqual({ startPage: undefined, perPage: undefined, all: false, limit: undefined, concurrency: 8, maxConcurrency: 8 });
  });

  it('--all asks for 100 per page unless --per-page says otherwise', () => {
    expect(listOptions({ all: true })).toMatchObject({ all: true, perPage: 100, concurrency: 8 });
    expect(listOptions({ all: true, perPage: '25' })).toMatchObject({ all: true, perPage: 25 });
  });

  it('--limit asks for no bigger pages than it needs', () => {
    expect(listOptions({ limit: '7' })).toMatchObject({ limit: 7, perPage: 7 });
    expect(listOptions({ limit: '250' })).toMatchObject({ limit: 250, perPage: 100 });
    expect(listOptions({ limit: '250', perPage: '10', page: '3' })).toMatchObject({ limit: 250, perPage: 10, startPage: 3 });
  });

  it('rejects values that are not positive integers', () => {
    expect(() => listOptions({ page: '0' })).toThrow(UsageError);
    expect(() => listOptions({ perPage: '1.5' })).toThrow('invalid --per-page "1.5": expected an integer of at least 1');
    expect(() => listOptions({ limit: '-1' })).toThrow(UsageError);
  });
});

describe('pageFooter', () => {
  it('names the page, the last page and the total, with thousands separators', () => {
    expect(pageFooter({ currentPage: 1, lastPage: 288, total: 4312 }, 'students')).toBe('Page 1 of 288 (4,312 students). Use --page N or --all.');
    expect(pageFooter({ currentPage: 1200, lastPage: 1500, total: 1_500_000 }, 'subscriptions'))
      .toBe('Page 1,200 of 1,500 (1,500,000 subscriptions). Use --page N or --all.');
  });

  it('takes the page asked for when the server does not say, and does without a total', () => {
    expect(pageFooter({ lastPage: 4 }, 'products', 2)).toBe('Page 2 of 4. Use --page N or --all.');
  });

  it('says nothing about a single page or an unknown last page', () => {
    expect(pageFooter({ currentPage: 1, lastPage: 1, total: 3 }, 'products')).toBeUndefined();
    expect(pageFooter({ currentPage: 1 }, 'products')).toBeUndefined();
  });

  it('says there are more pages when a simplePaginate page links to a next one', () => {
    expect(pageFooter({ currentPage: 1, hasMore: true }, 'students')).toBe('Page 1; there are more students. Use --page 2 or --all.');
  });
});

describe('parseChoiceList', () => {
  const statuses = ['active', 'canceled', 'refunded'] as const;
  it('splits, trims, lower-cases and dedupes', () => {
    expect(parseChoiceList(' Canceled, refunded ,canceled', '--status', statuses)).toEqual(['canceled', 'refunded']);
  });
  it('rejects unknown values and empty lists', () => {
    expect(() => parseChoiceList('active,bogus', '--status', statuses))
      .toThrow('invalid --status value "bogus": use a comma-separated list of active, canceled, refunded');
    expect(() => parseChoiceList(' , ', '--status', statuses)).toThrow('--status needs at least one of active, canceled, refunded (comma-separated)');
  });
});

describe('interruptible', () => {
  it('passes records through and closes the source when the consumer stops early', async () => {
    let closed = false;
    async function* source() {
      try {
        yield* [1, 2, 3];
      } finally {
        closed = true;
      }
    }
    const seen: number[] = [];
    for await (const n of interruptible(source(), fakeIo().io)) {
      seen.push(n);
      if (n === 2) break;
    }
    expect(seen).toEqual([1, 2]);
    expect(closed).toBe(true);
  });

  it('ends with InterruptedError on Ctrl-C while the source is still waiting, and unregisters its handler', async () => {
    const fake = fakeIo();
    async function* stuck() {
      yield 1;
      await new Promise(() => undefined);
    }
    const seen: number[] = [];
    const consuming = (async () => {
      for await (const n of interruptible(stuck(), fake.io)) seen.push(n);
    })();
    await vi.waitFor(() => expect(seen).toEqual([1]));
    expect(fake.signalHandlers()).toBe(2);
    fake.interrupt();
    await expect(consuming).rejects.toBeInstanceOf(InterruptedError);
    expect(seen).toEqual([1]);
    // Both handlers (Ctrl-C, SIGTERM) were removed when the iteration ended.
    expect(fake.signalHandlers()).toBe(0);
  });
});
