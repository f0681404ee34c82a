/** Fetches one page of a Laravel paginator and normalises it for walkPages. */
import type { z } from 'zod';
import type { Api } from './client.js';
import type { Query } from './http.js';
import type { Page } from './paginate.js';
import { page as pageSchema } from './schemas.js';

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
    },
  };
}
