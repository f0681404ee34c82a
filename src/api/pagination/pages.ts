/** Fetches one page of a Laravel paginator and normalises it for walkPages. */
import type { z } from 'zod';
import type { Batched } from '../../lib/batches.js';
import type { Api } from '../client.js';
import type { Query } from '../transport/http.js';
import { walkPages, type Page, type PageWalk } from './paginate.js';
import { page as pageSchema } from '../endpoints/schemas.js';

export async function fetchPage<S extends z.ZodType>(
  api: Api, item: S, req: { path: string; query?: Query },
): Promise<Page<z.infer<S>>> {
  const { data } = await api.call(pageSchema(item), { method: 'GET', ...req });
  const perPage = data.meta?.per_page === undefined || data.meta?.per_page === null ? undefined : Number(data.meta.per_page);
  return {
    records: data.data as Array<z.infer<S>>,
    next: data.links?.next,
    info: {
      currentPage: data.meta?.current_page ?? undefined,
      lastPage: data.meta?.last_page ?? undefined,
      total: data.meta?.total ?? undefined,
      perPage: Number.isFinite(perPage) ? perPage : undefined,
      hasMore: Boolean(data.links?.next),
    },
  };
}

/**
 * Walks one list, asking every page with the command's own query (per_page,
 * with, filters). A `links.next` is followed for its page number only: the
 * query is set over it again, since Laravel drops it unless the server calls
 * `withQueryString()`.
 */
export function walkList<S extends z.ZodType>(
  api: Api, item: S, path: string, query: Query, walk: PageWalk,
): Batched<z.infer<S>> {
  return walkPages(
    (page) => fetchPage(api, item, { path, query: { ...query, page } }),
    (link) => fetchPage(api, item, { path: link, query }),
    walk,
  );
}
