/** The deprecated engaged-courses report (api-spec §4.5): path tokens, cursor pages. */
import type { Batched } from '../../lib/batches.js';
import type { Api } from '../client.js';
import { apiPath } from './path.js';
import { walkCursor } from '../pagination/paginate.js';
import { ReportItem, cursorPage } from './schemas.js';

export interface ReportQuery {
  developerToken: string;
  platformToken: string;
  topCourses: number;
  limit: number;
  cursor?: string;
  maxPages?: number;
}

export function engagedCourses(api: Api, q: ReportQuery): Batched<ReportItem> {
  const path = apiPath`/api/partners/reports/engaged-courses/${q.developerToken}/${q.platformToken}`;
  const schema = cursorPage(ReportItem);
  return walkCursor(async (target) => {
    const { data } = await api.call(schema, {
      method: 'GET', auth: false,
      // A next_page_url is followed on the same origin only (the transport checks), and every page repeats
      // top_courses and limit (api-spec §4.5, rule 2), even when the URL dropped them.
      path: target && 'url' in target ? target.url : path,
      query: { top_courses: q.topCourses, limit: q.limit, cursor: target && 'cursor' in target ? target.cursor : undefined },
    });
    return { records: data.data, nextCursor: data.next_cursor, nextUrl: data.next_page_url };
  }, { cursor: q.cursor, maxPages: q.maxPages });
}
