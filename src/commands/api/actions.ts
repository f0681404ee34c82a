import { readFile } from 'node:fs/promises';
import { UsageError } from '../../lib/errors.js';
import type { Method, Query } from '../../api/transport/http.js';
import { readAll } from '../../lib/read-input.js';
import type { Session } from '../../session/session.js';
import type { Api } from '../../api/client.js';
import { walkPages, type Page } from '../../api/pagination/paginate.js';
import type { View } from '../../output/view.js';
import { RAW_VIEW, rawFieldsView } from './view.js';
import { flatten, getPath } from '../../output/fields.js';
import { pluralWord } from '../../lib/values.js';
import { eachBatch, type Batched } from '../../lib/batches.js';

export async function callApi(
  session: Session, rawPath: string, opts: { method: string; field: string[]; input?: string; paginate?: boolean },
): Promise<void> {
  const method = opts.method as Method;
  const fields = parseFields(opts.field);
  if (opts.input && opts.field.length > 0 && method !== 'GET') throw new UsageError('use either --input or -f fields for the body, not both');
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  const body = opts.input ? await readBody(session, opts.input) : method === 'GET' || opts.field.length === 0 ? undefined : fields;
  const query: Query | undefined = method === 'GET' ? fields as Query : undefined;
  const path = /^[a-z][a-z0-9+.-]*:/i.test(rawPath) || rawPath.startsWith('/') ? rawPath : `/${rawPath}`;

  const api = await session.api();
  // The escape hatch prints JSON unless another machine format was asked for.
  const output = await session.output({ output: session.globals.output === 'table' ? 'json' : session.globals.output });
  try {
    if (!opts.paginate) {
      const response = await api.raw({ method, path, query, body });
      const record = redacted(api, response.body) as Record<string, unknown> | null;
      if (record !== null) await output.one(record, method === 'GET' ? RAW_VIEW : await afterChange(session, record, method));
    } else {
      await output.list(redactEach(api, paginate(api, path, query)), RAW_VIEW);
    }
    await output.close();
  } catch (error) {
    await output.abort();
    throw error;
  }
}

/**
 * The view of a change's answer. Its fields are known only once it is sent, so
 * an unknown --fields name cannot be exit 2 (nothing sent) any more: each
 * comes out as null, with a warning, and the change is reported as made.
 */
async function afterChange(session: Session, record: Record<string, unknown>, method: Method): Promise<View> {
  const fields = session.globals.fields ?? [];
  const missing = fields.filter((field) => getPath(record, field) === undefined);
  if (missing.length > 0) {
    const names = missing.map((field) => JSON.stringify(field)).join(', ');
    (await session.messages()).warn(`the answer to the ${method} has no ${pluralWord(missing.length, 'field')} ${names} (printed as null); the request was sent and succeeded. Available fields: ${Object.keys(flatten(record)).join(', ')}`);
  }
  return rawFieldsView(fields);
}

/**
 * Known secrets never print, even inside a body: the report answers with its
 * two tokens in `path` and `next_page_url` (contract §1.5).
 */
function redacted(api: Api, value: unknown): unknown {
  if (typeof value === 'string') return api.redact(value);
  if (Array.isArray(value)) return value.map((item) => redacted(api, item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redacted(api, item)]));
  return value;
}

function redactEach(api: Api, records: Batched<Record<string, unknown>>): Batched<Record<string, unknown>> {
  return eachBatch(records, (batch) => batch.map((record) => redacted(api, record) as Record<string, unknown>));
}

/**
 * Follows `links.next` whatever the body's meta says: the escape hatch
 * assumes nothing, except that every page keeps the `-f` query (a Laravel
 * link drops it unless the server calls `withQueryString()`); only the
 * link's `page` is taken from it.
 */
function paginate(api: Api, path: string, query: Query | undefined): Batched<Record<string, unknown>> {
  const { page: _page, ...kept } = query ?? {};
  const get = async (target: string, q?: Query): Promise<Page<Record<string, unknown>>> => {
    const { body } = await api.raw({ method: 'GET', path: target, query: q });
    const page = body as { data?: unknown; links?: { next?: string | null }; meta?: { current_page?: unknown; total?: unknown } } | null;
    if (!page || !Array.isArray(page.data)) {
      throw new UsageError('--paginate needs a paginated list (a body with a data array and links.next)');
    }
    const current = Number(page.meta?.current_page);
    const total = Number(page.meta?.total);
    // The count holds the walk to the whole list; no last_page, so that links.next is followed, not page numbers.
    const info = { currentPage: Number.isSafeInteger(current) ? current : undefined, total: Number.isSafeInteger(total) ? total : undefined };
    return { records: page.data as Array<Record<string, unknown>>, next: page.links?.next, info };
  };
  return walkPages(() => get(path, query), (link) => get(link, kept), { all: true, concurrency: 1 });
}

/** `-f key=value`; values that read as JSON numbers, booleans or null are sent as such (like gh's -F). */
function parseFields(pairs: string[]): Record<string, unknown> {
  return Object.fromEntries(pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`invalid field ${JSON.stringify(pair)}: use key=value`);
    const raw = pair.slice(at + 1);
    const typed = /^(-?\d+(\.\d+)?|true|false|null)$/.test(raw) ? JSON.parse(raw) : raw;
    return [pair.slice(0, at), typed];
  }));
}

async function readBody(session: Session, source: string): Promise<unknown> {
  const text = source === '-' ? await readAll(session.io.stdin) : await readFile(source, 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${source} is not valid JSON`);
  }
}
