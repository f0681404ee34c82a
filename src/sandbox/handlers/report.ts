import { HttpError, type Reply, type RequestContext } from '../http.js';
import { reportPage } from '../report.js';
import { unprocessable, Validator } from '../validation.js';

const DEFAULT_TOP_COURSES = 10;
const DEFAULT_LIMIT = 500;

interface Cursor {
  offset: number;
  top_courses: number;
  limit: number;
}

/** GET /api/partners/reports/engaged-courses/{developer_token}/{platform_token} (api-spec §4.5). */
export function engagedCoursesReport(ctx: RequestContext): Reply {
  // The platform's firewall turns away clients without a User-Agent before the application sees them.
  if (!ctx.headers['user-agent']) throw new HttpError(403, { message: 'Forbidden.' });
  const { developer, platform } = ctx.store.tokens;
  if (ctx.param('developer_token') !== developer || ctx.param('platform_token') !== platform) {
    throw new HttpError(401, { message: 'Unauthenticated.' });
  }
  const validator = new Validator(Object.fromEntries(ctx.query), 'query');
  const topCourses = validator.integer('top_courses', false, 1, 50) ?? DEFAULT_TOP_COURSES;
  const limit = validator.integer('limit', false, 2, 500) ?? DEFAULT_LIMIT;
  const cursor = validator.string('cursor', false);
  validator.check();

  const offset = cursor === null ? 0 : decodeCursor(cursor, topCourses, limit);
  const { rows, total } = reportPage(ctx.store, topCourses, offset, limit);
  const path = ctx.origin + ctx.path;
  const cursorAt = (position: number): string => encodeCursor({ offset: position, top_courses: topCourses, limit });
  const { dialect } = ctx;
  // Bare links: the cursor alone, as CursorPaginator::url() writes it without withQueryString().
  const pageUrl = (pageCursor: string | null): string | null => {
    if (pageCursor === null) return null;
    const query: Record<string, string> = dialect.links === 'bare' ? { cursor: pageCursor } : { top_courses: String(topCourses), limit: String(limit), cursor: pageCursor };
    return `${path}?${new URLSearchParams(query)}`;
  };
  const next = offset + limit < total ? cursorAt(offset + limit) : null;
  const prev = offset > 0 ? cursorAt(Math.max(0, offset - limit)) : null;
  const perPage = dialect.perPage === 'string' && ctx.query.has('limit') ? String(limit) : limit;
  const body = dialect.cursor === 'laravel8'
    // Laravel 8's CursorPaginator::toArray: no cursors, only the page URLs.
    ? { data: rows, path, per_page: perPage, next_page_url: pageUrl(next), prev_page_url: pageUrl(prev) }
    : { data: rows, path, per_page: perPage, next_cursor: next, next_page_url: pageUrl(next), prev_cursor: prev, prev_page_url: pageUrl(prev) };
  return { status: 200, body };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/**
 * The offset a cursor points at. A cursor is bound to the top_courses and
 * limit it was issued with (api-spec §4.5: later pages send the same values).
 */
function decodeCursor(text: string, topCourses: number, limit: number): number {
  let cursor: unknown;
  try {
    cursor = /^[A-Za-z0-9_-]+$/.test(text) ? JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) : undefined;
  } catch {
    cursor = undefined;
  }
  if (!isCursor(cursor)) throw unprocessable('cursor', 'The cursor is invalid.');
  if (cursor.top_courses !== topCourses || cursor.limit !== limit) {
    throw unprocessable('cursor', 'The cursor belongs to other top_courses and limit values; send the ones of the first page.');
  }
  return cursor.offset;
}

function isCursor(value: unknown): value is Cursor {
  if (typeof value !== 'object' || value === null) return false;
  const { offset, top_courses: topCourses, limit } = value as Record<string, unknown>;
  return [offset, topCourses, limit].every((field) => Number.isSafeInteger(field)) && (offset as number) >= 0;
}
