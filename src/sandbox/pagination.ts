import type { Reply, RequestContext } from './http.js';
import { Validator } from './validation.js';

const DEFAULT_PER_PAGE = 15;
const MAX_PER_PAGE = 100;
/** Laravel's `onEachSide` default: pages shown either side of the current one in `meta.links`. */
const ON_EACH_SIDE = 3;

/**
 * A Laravel page of `items` (query `page`, `per_page`) as an API resource
 * collection returns it: `data`, `links`, `meta`. The dialect decides between
 * `paginate()` and `simplePaginate()`, and whether links keep the request's
 * other query parameters (`withQueryString()`) or carry `page` alone.
 */
export function paginate<T>(ctx: RequestContext, items: readonly T[], view: (item: T) => unknown): Reply {
  const validator = new Validator(Object.fromEntries(ctx.query), 'query');
  const page = validator.integer('page', false, 1, Number.MAX_SAFE_INTEGER) ?? 1;
  const { perPage, perPageShown } = pageSize(ctx, validator);
  validator.check();

  const { dialect } = ctx;
  const start = (page - 1) * perPage;
  const pageItems = items.slice(start, start + perPage);
  const path = ctx.origin + ctx.path;
  const link = (number: number): string => {
    const query = dialect.links === 'query' ? new URLSearchParams(ctx.query) : new URLSearchParams();
    query.set('page', String(number));
    return `${path}?${query}`;
  };
  const from = pageItems.length > 0 ? start + 1 : null;
  const to = pageItems.length > 0 ? start + pageItems.length : null;

  if (dialect.paginator === 'simple') {
    const hasMore = items.length > start + perPage;
    return {
      status: 200,
      body: {
        data: pageItems.map(view),
        links: { first: link(1), last: null, prev: page > 1 ? link(page - 1) : null, next: hasMore ? link(page + 1) : null },
        meta: { current_page: page, from, path, per_page: perPageShown, to },
      },
    };
  }

  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const prev = page > 1 ? link(page - 1) : null;
  const next = page < lastPage ? link(page + 1) : null;
  // In Laravel's order (LengthAwarePaginator::toArray, less the URLs PaginatedResourceResponse moves to `links`).
  const meta = {
    current_page: page, from, last_page: lastPage, links: linkCollection(page, lastPage, link, prev, next), path, per_page: perPageShown, to, total,
  };
  return {
    status: 200,
    body: { data: pageItems.map(view), links: { first: link(1), last: link(lastPage), prev, next }, meta },
  };
}

/**
 * The page size the controller uses (the dialect's `pageSize`), and `meta.per_page` as Laravel
 * shows it: the paginator keeps what the controller passed, so the query string's text (`"10"`)
 * when it came from there unchanged (PHP's `min("10", 50)` is `"10"`), a number when the
 * controller chose it (`paginate(15)`, or `min("500", 50)`, which is `50`).
 */
function pageSize(ctx: RequestContext, validator: Validator): { perPage: number; perPageShown: number | string } {
  const rule = ctx.dialect.pageSize;
  if (rule.kind === 'ignored') return { perPage: rule.size, perPageShown: rule.size };
  const asked = validator.integer('per_page', false, 1, rule.kind === 'capped' ? Number.MAX_SAFE_INTEGER : MAX_PER_PAGE);
  const perPage = Math.min(asked ?? DEFAULT_PER_PAGE, rule.kind === 'capped' ? rule.max : MAX_PER_PAGE);
  const fromQuery = asked !== null && asked === perPage;
  return { perPage, perPageShown: ctx.dialect.perPage === 'string' && fromQuery ? String(perPage) : perPage };
}

interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** LengthAwarePaginator::linkCollection of Laravel 8: Previous, a window of pages with `...` gaps (UrlWindow), Next. */
function linkCollection(page: number, lastPage: number, link: (n: number) => string, prev: string | null, next: string | null): PageLink[] {
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const window = ON_EACH_SIDE + 4;
  let groups: number[][];
  if (lastPage < ON_EACH_SIDE * 2 + 8) groups = [range(1, lastPage)];
  else if (page <= window) groups = [range(1, window + ON_EACH_SIDE), range(lastPage - 1, lastPage)];
  else if (page > lastPage - window) groups = [range(1, 2), range(lastPage - (window + (ON_EACH_SIDE - 1)), lastPage)];
  else groups = [range(1, 2), range(page - ON_EACH_SIDE, page + ON_EACH_SIDE), range(lastPage - 1, lastPage)];
  const pages = groups.flatMap((group, index) => [
    ...(index > 0 ? [{ url: null, label: '...', active: false }] : []),
    ...group.map((number) => ({ url: link(number), label: String(number), active: number === page })),
  ]);
  return [{ url: prev, label: '&laquo; Previous', active: false }, ...pages, { url: next, label: 'Next &raquo;', active: false }];
}
