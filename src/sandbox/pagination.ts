import type { Reply, RequestContext } from './http.js';
import { Validator } from './validation.js';

const DEFAULT_PER_PAGE = 15;
const MAX_PER_PAGE = 100;

/**
 * A Laravel length-aware page of `items` (query `page`, `per_page`), with
 * absolute links that keep the request's other query parameters.
 */
export function paginate<T>(ctx: RequestContext, items: readonly T[], view: (item: T) => unknown): Reply {
  const validator = new Validator(Object.fromEntries(ctx.query), 'query');
  const page = validator.integer('page', false, 1, Number.MAX_SAFE_INTEGER) ?? 1;
  const perPage = validator.integer('per_page', false, 1, MAX_PER_PAGE) ?? DEFAULT_PER_PAGE;
  validator.check();

  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const pageItems = items.slice(start, start + perPage);
  const path = ctx.origin + ctx.path;
  const link = (number: number): string => {
    const query = new URLSearchParams(ctx.query);
    query.set('page', String(number));
    return `${path}?${query}`;
  };
  return {
    status: 200,
    body: {
      data: pageItems.map(view),
      links: {
        first: link(1),
        last: link(lastPage),
        prev: page > 1 ? link(page - 1) : null,
        next: page < lastPage ? link(page + 1) : null,
      },
      meta: {
        current_page: page,
        from: pageItems.length > 0 ? start + 1 : null,
        last_page: lastPage,
        path,
        per_page: perPage,
        to: pageItems.length > 0 ? start + pageItems.length : null,
        total,
      },
    },
  };
}
