/**
 * Async iterators over the two paginators. They know pages, not retries: the
 * transport below them retries each request. They never end quietly on a
 * page sequence that cannot be whole (a page past the end before `last_page`,
 * a link back to a page already read, records seen twice, fewer records than
 * `total`): they throw a PaginationError, so no list exits 0 incomplete.
 */
import { batched, type Batched } from '../../lib/batches.js';
import { CliError, ExitCode, type ExitCodeValue } from '../../lib/errors.js';
import { monotonicMs } from '../../lib/time/monotonic.js';

/** The pages the server handed out cannot add up to the whole list. */
export class PaginationError extends CliError {
  constructor(message: string, exitCode: ExitCodeValue = ExitCode.transient) {
    super(message, exitCode);
  }
}

/** A page that repeats or skips: the list changed while it was read (exit 6), or the server's pages are broken (exit 1). */
const changedWhileRead = (what: string) =>
  new PaginationError(`${what}: the list changed while it was read, or the server pages it inconsistently; run the command again`);
const brokenPages = (what: string) =>
  new PaginationError(`${what}; the server's pagination is broken, so the list cannot be read to the end`, ExitCode.internal);

export interface PageInfo {
  currentPage?: number;
  lastPage?: number;
  total?: number;
  perPage?: number;
  /** The page links to a next one (what a simplePaginate page tells instead of `last_page`). */
  hasMore?: boolean;
}

export interface Page<T> {
  records: T[];
  info: PageInfo;
  /** `links.next`, an absolute URL the transport checks for origin. */
  next?: string | null;
}

export interface PageWalk {
  /** Page to start from (`--page`), default 1. */
  startPage?: number;
  /** Follow the pages to the end (`--all`). */
  all: boolean;
  /** Stop after this many records (`--limit`), fetching only the pages needed. */
  limit?: number;
  /** Pages in flight at first when the last page is known (lists start at the most: commands/shared/list-flags.ts). */
  concurrency: number;
  /** Up to how many pages in flight it may grow (see PageConcurrency); default: `concurrency`, fixed. */
  maxConcurrency?: number;
  /** Called once with the first page's meta (for the table footer). */
  onInfo?: (info: PageInfo) => void;
}

/**
 * Pages in flight, adapted as TCP adapts its window (AIMD): one more while a
 * page comes back about as fast as the fastest so far, half as many when one
 * takes three times as long (the server is busy, or a 429 made the page wait).
 */
export class PageConcurrency {
  private fastestMs = Infinity;

  constructor(
    public limit: number,
    private readonly max = limit,
  ) {}

  observe(ms: number): void {
    this.fastestMs = Math.min(this.fastestMs, ms);
    if (ms > this.fastestMs * 3) this.limit = Math.max(1, Math.floor(this.limit / 2));
    else if (ms <= this.fastestMs * 1.5 && this.limit < this.max) this.limit++;
  }
}

/** A record's id, to notice a record served twice; undefined for records without one. */
function identity(record: unknown): unknown {
  const id = (record as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Yields records in page order, a page at a time. When the first page tells
 * the last page number, the remaining pages are fetched `concurrency` at a
 * time; otherwise `links.next` is followed one page after another.
 */
export function walkPages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  fetchLink: (url: string) => Promise<Page<T>>,
  walk: PageWalk,
): Batched<T> {
  return batched(async function* () {
    const start = walk.startPage ?? 1;
    const first = await fetchPage(start);
    walk.onInfo?.(first.info);
    let remaining = walk.limit ?? Infinity;
    let taken = 0;
    // 53-bit hashes of the ids, not the ids: a 200,000-record list would otherwise keep every id (~20 MB) to the end.
    const seen = new Set<number>();
    /** The records of a page that --limit still wants, each checked against the earlier ones. */
    const take = (records: T[], where: string): T[] => {
      const kept = records.length > remaining ? records.slice(0, remaining) : records;
      for (const record of kept) {
        const id = identity(record);
        if (id === undefined) continue;
        const key = hash53(String(id));
        if (seen.has(key)) throw changedWhileRead(`${where} repeats record ${String(id)} of an earlier page`);
        seen.add(key);
      }
      remaining -= kept.length;
      taken += kept.length;
      return kept;
    };
    yield take(first.records, `page ${start}`);
    if ((!walk.all && walk.limit === undefined) || remaining <= 0 || first.records.length === 0) return;

    const { lastPage, perPage, total } = first.info;
    if (lastPage !== undefined) {
      const pagesWanted = perPage && Number.isFinite(remaining) ? Math.ceil(remaining / perPage) : Infinity;
      const last = Math.min(lastPage, start + pagesWanted);
      const inFlight: Array<Promise<Page<T>>> = [];
      let nextPage = start + 1;
      const concurrency = new PageConcurrency(walk.concurrency, walk.maxConcurrency);
      const refill = () => {
        while (inFlight.length < concurrency.limit && nextPage <= last) {
          const sent = monotonicMs();
          const pending = fetchPage(nextPage++);
          pending.then(() => concurrency.observe(monotonicMs() - sent), () => undefined); // awaited below, in order
          inFlight.push(pending);
        }
      };
      refill();
      let number = start;
      while (inFlight.length > 0 && remaining > 0) {
        const page = await (inFlight.shift() as Promise<Page<T>>);
        number++;
        refill();
        if (page.records.length === 0) throw changedWhileRead(`page ${number} is empty although the server said there are ${lastPage} pages`);
        yield take(page.records, `page ${number}`);
      }
      // Every page read from the first: the count must be the total the first page announced.
      const whole = start === 1 && remaining > 0 && total !== undefined;
      if (whole && taken !== total) throw changedWhileRead(`read ${taken} records where the server announced ${total}`);
      return;
    }

    // No page count (simplePaginate): follow `links.next`, which the caller re-aims with the command's own query.
    const followed = new Set<string>();
    let current = first.info.currentPage ?? start;
    let next = first.next;
    while (next && remaining > 0) {
      if (followed.has(next)) throw brokenPages(`links.next points back to a page already read (${next})`);
      followed.add(next);
      const page = await fetchLink(next);
      const number = page.info.currentPage;
      if (number !== undefined && number <= current) throw brokenPages(`links.next of page ${current} leads to page ${number} again`);
      current = number ?? current + 1;
      if (page.records.length === 0 && page.next) throw brokenPages(`page ${current} is empty but links to a next page`);
      yield take(page.records, `page ${current}`);
      next = page.next;
    }
    // A server that counts (a raw `api --paginate` of a paginate() list) is held to its count, as above.
    const whole = (first.info.currentPage ?? start) === 1 && remaining > 0 && first.info.total !== undefined;
    if (whole && taken !== first.info.total) throw changedWhileRead(`read ${taken} records where the server announced ${first.info.total}`);
  });
}

export interface CursorPage<T> {
  records: T[];
  nextCursor?: string | null;
  /** `next_page_url`: the way on when the page has no `next_cursor` (Laravel 8's cursor paginator). */
  nextUrl?: string | null;
}

/** Where the next page is: its cursor, or its URL when the server sends no cursor. */
export type CursorTarget = { cursor: string } | { url: string };

/**
 * Follows `next_cursor`, or `next_page_url` when there is no cursor, asking
 * for the next page before handing out the rows of the current one, so the
 * network and the writer overlap. Memory holds at most two pages, so a
 * record served twice is noticed across one page boundary only, where a
 * cursor over a sort key that is not unique repeats rows.
 */
export function walkCursor<T>(
  fetchPage: (target: CursorTarget | undefined) => Promise<CursorPage<T>>,
  options: { cursor?: string; maxPages?: number },
): Batched<T> {
  return batched(async function* () {
    let pages = 1;
    const followed = new Set<string>();
    let previous = new Set<unknown>();
    let current: Promise<CursorPage<T>> = fetchPage(options.cursor === undefined ? undefined : { cursor: options.cursor });
    for (;;) {
      const page = await current;
      const ids = new Set<unknown>();
      for (const record of page.records) {
        const id = identity(record);
        if (id === undefined) continue;
        if (ids.has(id) || previous.has(id)) throw changedWhileRead(`page ${pages} repeats record ${String(id)}`);
        ids.add(id);
      }
      previous = ids;
      const target: CursorTarget | undefined = page.nextCursor ? { cursor: page.nextCursor } : page.nextUrl ? { url: page.nextUrl } : undefined;
      if (target) {
        const key = 'cursor' in target ? `cursor ${target.cursor}` : `next_page_url ${target.url}`;
        if (page.records.length === 0) throw brokenPages(`page ${pages} is empty but names a next page (${key})`);
        if (followed.has(key)) throw brokenPages(`page ${pages} points back to a page already read (${key})`);
        followed.add(key);
      }
      const more = target !== undefined && (options.maxPages === undefined || pages < options.maxPages);
      if (more) {
        current = fetchPage(target);
        current.catch(() => undefined);
        pages++;
      }
      yield page.records;
      if (!more) return;
    }
  });
}

/** cyrb53: a fast 53-bit string hash; two ids of one list collide with odds of about 1 in 10^10 at 200,000 records. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
