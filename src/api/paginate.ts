/**
 * Async iterators over the two paginators. They know pages, not retries: the
 * transport below them retries each request.
 */
export interface PageInfo {
  currentPage?: number;
  lastPage?: number;
  total?: number;
  perPage?: number;
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
  /** Pages in flight at once when the last page is known. */
  concurrency: number;
  /** Called once with the first page's meta (for the table footer). */
  onInfo?: (info: PageInfo) => void;
}

/**
 * Yields records in page order. When the first page tells the last page
 * number, the remaining pages are fetched `concurrency` at a time; otherwise
 * `links.next` is followed one page after another.
 */
export async function* walkPages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  fetchLink: (url: string) => Promise<Page<T>>,
  walk: PageWalk,
): AsyncGenerator<T> {
  const start = walk.startPage ?? 1;
  const first = await fetchPage(start);
  walk.onInfo?.(first.info);
  let remaining = walk.limit ?? Infinity;
  const take = function* (records: T[]) {
    for (const record of records) {
      if (remaining <= 0) return;
      remaining--;
      yield record;
    }
  };
  yield* take(first.records);
  if ((!walk.all && walk.limit === undefined) || remaining <= 0 || first.records.length === 0) return;

  const { lastPage, perPage } = first.info;
  if (lastPage !== undefined) {
    const pagesWanted = perPage && Number.isFinite(remaining) ? Math.ceil(remaining / perPage) : Infinity;
    const last = Math.min(lastPage, start + pagesWanted);
    const inFlight: Array<Promise<Page<T>>> = [];
    let nextPage = start + 1;
    const refill = () => {
      while (inFlight.length < walk.concurrency && nextPage <= last) {
        const pending = fetchPage(nextPage++);
        pending.catch(() => undefined); // awaited below, in order; avoid an unhandled rejection meanwhile
        inFlight.push(pending);
      }
    };
    refill();
    while (inFlight.length > 0 && remaining > 0) {
      const page = await (inFlight.shift() as Promise<Page<T>>);
      refill();
      yield* take(page.records);
    }
    return;
  }

  let next = first.next;
  while (next && remaining > 0) {
    const page = await fetchLink(next);
    yield* take(page.records);
    next = page.records.length > 0 ? page.next : null;
  }
}

export interface CursorPage<T> {
  records: T[];
  nextCursor?: string | null;
}

/**
 * Follows `next_cursor`, asking for the next page before handing out the rows
 * of the current one, so the network and the writer overlap. Memory holds at
 * most two pages.
 */
export async function* walkCursor<T>(
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>,
  options: { cursor?: string; maxPages?: number },
): AsyncGenerator<T> {
  let pages = 1;
  let current: Promise<CursorPage<T>> = fetchPage(options.cursor);
  for (;;) {
    const page = await current;
    const more = Boolean(page.nextCursor) && page.records.length > 0 && (options.maxPages === undefined || pages < options.maxPages);
    if (more) {
      current = fetchPage(page.nextCursor as string);
      current.catch(() => undefined);
      pages++;
    }
    yield* page.records;
    if (!more) return;
  }
}
