import { describe, expect, it } from 'vitest';
import { PageConcurrency, PaginationError, walkCursor, walkPages, type CursorTarget, type Page } from '../../../src/api/pagination/paginate.js';

const PER_PAGE = 3;
const LAST = 5;

/** Pages of 3 records; later pages answer faster, to prove order is kept anyway. */
function pager(withMeta: boolean) {
  const requested: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (page: number): Promise<Page<number>> => {
    requested.push(page);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, (LAST - page) * 3));
    inFlight--;
    const records = page <= LAST ? [0, 1, 2].map((i) => (page - 1) * PER_PAGE + i) : [];
    return {
      records,
      next: page < LAST ? `https://h/x?page=${page + 1}` : null,
      info: withMeta ? { currentPage: page, lastPage: LAST, perPage: PER_PAGE, total: LAST * PER_PAGE } : {},
    };
  };
  const fetchLink = (url: string) => fetchPage(Number(new URL(url).searchParams.get('page')));
  return { fetchPage, fetchLink, requested, maxInFlight: () => maxInFlight };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('walkPages', () => {
  it('prints one page by default', async () => {
    const p = pager(true);
    expect(await collect(walkPages(p.fetchPage, p.fetchLink, { all: false, concurrency: 4 }))).toEqual([0, 1, 2]);
    expect(p.requested).toEqual([1]);
  });

  it('fetches the remaining pages concurrently when last_page is known, yielding in order', async () => {
    const p = pager(true);
    const records = await collect(walkPages(p.fetchPage, p.fetchLink, { all: true, concurrency: 3 }));
    expect(records).toEqual([...Array(15).keys()]);
    expect(p.maxInFlight()).toBe(3);
  });

  it('follows links.next one by one without meta', async () => {
    const p = pager(false);
    expect(await collect(walkPages(p.fetchPage, p.fetchLink, { all: true, concurrency: 4 }))).toEqual([...Array(15).keys()]);
    expect(p.maxInFlight()).toBe(1);
  });

  it('fetches only the pages --limit needs', async () => {
    const p = pager(true);
    expect(await collect(walkPages(p.fetchPage, p.fetchLink, { all: false, limit: 7, concurrency: 4 }))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(p.requested.sort()).toEqual([1, 2, 3]);
  });

  it('starts at --page', async () => {
    const p = pager(true);
    expect(await collect(walkPages(p.fetchPage, p.fetchLink, { startPage: 4, all: true, concurrency: 2 }))).toEqual([9, 10, 11, 12, 13, 14]);
  });
});

describe('walkCursor', () => {
  const pages: Record<string, { records: string[]; nextCursor: string | null }> = {
    start: { records: ['a', 'b'], nextCursor: 'c1' },
    c1: { records: ['c', 'd'], nextCursor: 'c2' },
    c2: { records: ['e'], nextCursor: null },
  };
  const fetch = async (target?: CursorTarget) => pages[target && 'cursor' in target ? target.cursor : 'start'] as { records: string[]; nextCursor: string | null };

  it('follows next_cursor to the end', async () => {
    expect(await collect(walkCursor(fetch, {}))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('starts from --cursor and stops at --max-pages', async () => {
    expect(await collect(walkCursor(fetch, { cursor: 'c1', maxPages: 1 }))).toEqual(['c', 'd']);
  });

  it('follows next_page_url when the page has no next_cursor (Laravel 8)', async () => {
    const byUrl: Record<string, { records: string[]; nextUrl: string | null }> = {
      start: { records: ['a'], nextUrl: 'https://h/r?cursor=x' },
      'https://h/r?cursor=x': { records: ['b'], nextUrl: null },
    };
    const targets: Array<CursorTarget | undefined> = [];
    const records = await collect(walkCursor(async (target) => {
      targets.push(target);
      return byUrl[target && 'url' in target ? target.url : 'start']!;
    }, {}));
    expect(records).toEqual(['a', 'b']);
    expect(targets).toEqual([undefined, { url: 'https://h/r?cursor=x' }]);
  });

  it('fails on a row that the next page repeats (a cursor over a sort key that is not unique)', async () => {
    const rows = (...ids: string[]) => ids.map((id) => ({ id }));
    const byCursor: Record<string, { records: Array<{ id: string }>; nextCursor: string | null }> = {
      start: { records: rows('u1|c1', 'u2|c1'), nextCursor: 'k1' },
      k1: { records: rows('u2|c1', 'u3|c1'), nextCursor: null },
    };
    const walk = walkCursor(async (target) => byCursor[target && 'cursor' in target ? target.cursor : 'start']!, {});
    await expect(collect(walk)).rejects.toThrow(/page 2 repeats record u2\|c1/);
  });

  it('fails on a page that points back to one already read, or an empty page with a next one', async () => {
    const loop = walkCursor(async () => ({ records: ['a'], nextUrl: 'https://h/r?cursor=x' }), {});
    await expect(collect(loop)).rejects.toThrow(/points back to a page already read/);
    const empty = walkCursor(async () => ({ records: [], nextCursor: 'again' }), {});
    await expect(collect(empty)).rejects.toThrow(PaginationError);
  });
});

describe('walkPages, pages that cannot add up', () => {
  const record = (id: number) => ({ id });
  const page = (ids: number[], info: Page<{ id: number }>['info'], next: string | null = null): Page<{ id: number }> => ({ records: ids.map(record), info, next });

  it('fails on an empty page before the last_page the server announced', async () => {
    const walk = walkPages(
      async (n) => page(n === 1 ? [1, 2] : [], { currentPage: n, lastPage: 1_000_000_000, perPage: 2 }),
      async () => page([], {}), { all: true, concurrency: 2 },
    );
    await expect(collect(walk)).rejects.toThrow(/page 2 is empty although the server said there are 1000000000 pages/);
  });

  it('fails when the records read are fewer than the total of the first page', async () => {
    const walk = walkPages(
      async (n) => page(n === 1 ? [1, 2] : [3], { currentPage: n, lastPage: 2, perPage: 2, total: 5 }),
      async () => page([], {}), { all: true, concurrency: 2 },
    );
    await expect(collect(walk)).rejects.toThrow(/read 3 records where the server announced 5/);
  });

  it('fails on a record served twice', async () => {
    const walk = walkPages(
      async (n) => page(n === 1 ? [1, 2] : [2, 3], { currentPage: n, lastPage: 2, perPage: 2, total: 4 }),
      async () => page([], {}), { all: true, concurrency: 2 },
    );
    await expect(collect(walk)).rejects.toThrow(/page 2 repeats record 2/);
  });

  it('following links.next, fails when the pages stop short of the total the first page announced', async () => {
    // A raw `api --paginate`: links.next is null after page 2 although meta counted 5 records.
    const walk = walkPages(
      async () => page([1, 2], { currentPage: 1, total: 5 }, 'https://h/x?page=2'),
      async () => page([3], { currentPage: 2 }), { all: true, concurrency: 1 },
    );
    await expect(collect(walk)).rejects.toThrow(/read 3 records where the server announced 5/);
  });

  it('following links.next, holds to the total only from page 1', async () => {
    const fromPage2 = walkPages(
      async () => page([3, 4], { currentPage: 2, total: 5 }, 'https://h/x?page=3'),
      async () => page([5], { currentPage: 3 }), { all: true, concurrency: 1 },
    );
    expect((await collect(fromPage2)).map((r) => r.id)).toEqual([3, 4, 5]);
    const whole = walkPages(
      async () => page([1, 2], { currentPage: 1, total: 3 }, 'https://h/x?page=2'),
      async () => page([3], { currentPage: 2 }), { all: true, concurrency: 1 },
    );
    expect((await collect(whole)).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('fails on a links.next that points to the page it is on', async () => {
    const walk = walkPages(
      async () => page([1], { currentPage: 1 }, 'https://h/x?page=1'),
      async () => page([1], { currentPage: 1 }, 'https://h/x?page=1'),
      { all: true, concurrency: 1 },
    );
    await expect(collect(walk)).rejects.toThrow(/leads to page 1 again/);
  });
});

describe('PageConcurrency', () => {
  it('grows by one while pages come back about as fast as the fastest, up to its maximum', () => {
    const concurrency = new PageConcurrency(4, 6);
    for (const ms of [20, 25, 30, 21, 22]) concurrency.observe(ms);
    expect(concurrency.limit).toBe(6);
  });

  it('holds between 1.5× and 3× the fastest, and halves beyond (never below 1)', () => {
    const concurrency = new PageConcurrency(4, 8);
    concurrency.observe(20);
    expect(concurrency.limit).toBe(5);
    concurrency.observe(45);
    expect(concurrency.limit).toBe(5);
    concurrency.observe(61);
    expect(concurrency.limit).toBe(2);
    for (let i = 0; i < 3; i++) concurrency.observe(500);
    expect(concurrency.limit).toBe(1);
  });

  it('stays fixed without a maximum above its start', () => {
    const concurrency = new PageConcurrency(1);
    for (const ms of [5, 5, 5]) concurrency.observe(ms);
    expect(concurrency.limit).toBe(1);
  });

  it('lets walkPages put more pages in flight while they keep their pace', async () => {
    let inFlight = 0;
    let most = 0;
    const fetchPage = async (page: number): Promise<Page<number>> => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return { records: [page], info: { currentPage: page, lastPage: 40, perPage: 1, total: 40 } };
    };
    const records = await collect(walkPages(fetchPage, () => Promise.reject(new Error('no links')), { all: true, concurrency: 2, maxConcurrency: 6 }));
    expect(records).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Timers on a busy machine can make a page look slow, so not exactly 6: more than it started with, never past 6.
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(6);
  });
});
