/**
 * walkPages and walkCursor at their edges (test/unit/api/paginate.test.ts has
 * the common walks): when a walk stops, which ids count as repeats, how pages
 * are numbered in messages, --max-pages.
 */
import { describe, expect, it } from 'vitest';
import { PaginationError, walkCursor, walkPages, type CursorPage, type CursorTarget, type Page, type PageInfo } from '../../../src/api/pagination/paginate.js';
import { ExitCode } from '../../../src/lib/errors.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
const failure = (walk: AsyncIterable<unknown>) => collect(walk).then(() => undefined, (error: unknown) => error as PaginationError);
const page = <T>(records: T[], info: PageInfo = {}, next: string | null = null): Page<T> => ({ records, info, next });
const noLinks = async (): Promise<Page<never>> => {
  throw new Error('no link to follow');
};

describe('walkPages stops', () => {
  it('after the first page when it is empty, even with --all', async () => {
    const asked: number[] = [];
    const walk = walkPages(async (n) => (asked.push(n), page([], { lastPage: 5, total: 0 }, 'https://h/x?page=2')), noLinks, { all: true, concurrency: 2 });
    expect(await collect(walk)).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('after the first page when --limit is already met by it', async () => {
    const asked: number[] = [];
    const walk = walkPages(async (n) => (asked.push(n), page([{ id: 1 }, { id: 2 }], { lastPage: 5, perPage: 2 })), noLinks, { all: true, limit: 2, concurrency: 2 });
    expect(await collect(walk)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(asked).toEqual([1]);
  });

  it('without perPage, --limit still stops taking records, and no total is checked on a partial read', async () => {
    const walk = walkPages(async (n) => page([{ id: n * 10 }, { id: n * 10 + 1 }], { lastPage: 4, total: 8 }), noLinks, { all: false, limit: 3, concurrency: 1 });
    expect(await collect(walk)).toEqual([{ id: 10 }, { id: 11 }, { id: 20 }]);
  });

  it('following links, at --limit, without asking for the next page', async () => {
    const links: string[] = [];
    const walk = walkPages(
      async () => page([{ id: 1 }], { currentPage: 1 }, 'https://h/x?page=2'),
      async (url) => (links.push(url), page([{ id: 2 }], { currentPage: 2 }, 'https://h/x?page=3')),
      { all: false, limit: 2, concurrency: 1 },
    );
    expect(await collect(walk)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(links).toEqual(['https://h/x?page=2']);
  });

  it('checks the total only for a walk from page 1', async () => {
    const walk = walkPages(async (n) => page([{ id: n }], { lastPage: 3, perPage: 1, total: 10 }), noLinks, { startPage: 2, all: true, concurrency: 1 });
    expect(await collect(walk)).toEqual([{ id: 2 }, { id: 3 }]);
  });
});

describe('walkPages repeats', () => {
  it('counts string and number ids, and ignores records without a usable id', async () => {
    const first = [{ id: 'a' }, { id: 7 }, { name: 'no id' }, null, { id: { nested: 1 } }];
    const walk = walkPages(async (n) => page(n === 1 ? first : [{ name: 'no id' }, null, { id: { nested: 1 } }], { lastPage: 2, perPage: 5 }), noLinks, { all: true, concurrency: 1 });
    expect(await collect(walk)).toHaveLength(8);
    const repeated = walkPages(async (n) => page(n === 1 ? [{ id: 'a' }, { id: 7 }] : [{ id: 7 }], { lastPage: 2, perPage: 2 }), noLinks, { all: true, concurrency: 1 });
    const error = await failure(repeated);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error?.exitCode).toBe(ExitCode.transient);
    expect(error?.message).toBe('page 2 repeats record 7 of an earlier page: the list changed while it was read, or the server pages it inconsistently; run the command again');
  });

  it('names the first page by its number, --page included', async () => {
    const error = await failure(walkPages(async () => page([{ id: 1 }, { id: 1 }]), noLinks, { startPage: 3, all: false, concurrency: 1 }));
    expect(error?.message).toMatch(/^page 3 repeats record 1 of an earlier page/);
  });
});

describe('walkPages following links', () => {
  it('numbers pages without currentPage from the page before, in its messages', async () => {
    const error = await failure(walkPages(
      async () => page([{ id: 1 }], {}, 'https://h/x?p=2'),
      async (url) => (url.endsWith('2') ? page([{ id: 2 }], {}, 'https://h/x?p=3') : page([{ id: 2 }], {}, null)),
      { all: true, concurrency: 1 },
    ));
    expect(error?.message).toMatch(/^page 3 repeats record 2 of an earlier page/);
  });

  it('fails on a link already followed, as a broken server (exit 1)', async () => {
    const error = await failure(walkPages(
      async () => page([{ id: 1 }], {}, 'https://h/x?p=2'),
      async (url) => (url.endsWith('2') ? page([{ id: 2 }], {}, 'https://h/x?p=3') : page([{ id: 3 }], {}, 'https://h/x?p=2')),
      { all: true, concurrency: 1 },
    ));
    expect(error).toBeInstanceOf(PaginationError);
    expect(error?.exitCode).toBe(ExitCode.internal);
    expect(error?.message).toBe("links.next points back to a page already read (https://h/x?p=2); the server's pagination is broken, so the list cannot be read to the end");
  });

  it('fails on a page numbered before the current one, and accepts the next number', async () => {
    const back = await failure(walkPages(
      async () => page([{ id: 1 }], { currentPage: 4 }, 'https://h/x?p=5'),
      async () => page([{ id: 2 }], { currentPage: 3 }, null),
      { all: true, concurrency: 1 },
    ));
    expect(back?.message).toMatch(/^links\.next of page 4 leads to page 3 again;/);
    const ahead = walkPages(
      async () => page([{ id: 1 }], { currentPage: 4 }, 'https://h/x?p=5'),
      async () => page([{ id: 2 }], { currentPage: 5 }, null),
      { all: true, concurrency: 1 },
    );
    expect(await collect(ahead)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('fails on an empty page that links on, and ends on an empty last page', async () => {
    const error = await failure(walkPages(
      async () => page([{ id: 1 }], {}, 'https://h/x?p=2'),
      async () => page([], {}, 'https://h/x?p=3'),
      { all: true, concurrency: 1 },
    ));
    expect(error?.message).toMatch(/^page 2 is empty but links to a next page;/);
    const ends = walkPages(async () => page([{ id: 1 }], {}, 'https://h/x?p=2'), async () => page([], {}, null), { all: true, concurrency: 1 });
    expect(await collect(ends)).toEqual([{ id: 1 }]);
  });
});

describe('walkCursor', () => {
  it('--max-pages N reads N pages, fetching no page past them', async () => {
    const asked: Array<CursorTarget | undefined> = [];
    const fetch = async (target?: CursorTarget): Promise<CursorPage<number>> => {
      asked.push(target);
      const n = target && 'cursor' in target ? Number(target.cursor) : 1;
      return { records: [n], nextCursor: String(n + 1) };
    };
    expect(await collect(walkCursor(fetch, { maxPages: 3 }))).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, { cursor: '2' }, { cursor: '3' }]);
  });

  it('names the page and the cursor or URL in its errors', async () => {
    const empty = await failure(walkCursor(async (target) => (target ? { records: [], nextCursor: 'c3' } : { records: [1], nextCursor: 'c2' }), {}));
    expect(empty?.message).toMatch(/^page 2 is empty but names a next page \(cursor c3\);/);
    const loop = await failure(walkCursor(async () => ({ records: [1], nextUrl: 'https://h/r?cursor=x' }), {}));
    expect(loop?.message).toMatch(/^page 2 points back to a page already read \(next_page_url https:\/\/h\/r\?cursor=x\);/);
  });
});
