/**
 * The Laravel serialisation of an answer, applied to the body a handler
 * built in the sandbox's plain dialect: Eloquent date casts, integer
 * subscription ids, the exception handler's error bodies, json_encode's
 * escapes. Handlers stay dialect-free except for pages, cursors and routing.
 */
import { formatTimestamp, parseDay, dayStartMs, DAY_MS } from './dates.js';
import type { Dialect } from './dialect.js';
import type { Reply } from './http.js';

/** `date` casts: a calendar day, serialised as the instant its midnight starts in the server's zone. */
const DATE_KEYS = new Set(['birth', 'accession_date', 'expiration_date']);
/** `datetime` casts the seed only dates: given a deterministic time of day (server time) so that some cross midnight UTC. */
const DATETIME_KEYS = new Set(['cancel_date', 'payment_last_date']);

/** Converts the answer of a handler to the dialect's wording. */
export function serialize(reply: Reply, dialect: Dialect): Reply {
  if (reply.body === undefined) return reply;
  let body: unknown = reply.body;
  if (dialect.dates === 'instants' || dialect.subscriptionIds === 'integer') body = convert(body, dialect);
  if (dialect.errors === 'laravel' && reply.status >= 400) body = laravelError(reply.status, body as Record<string, unknown>);
  return { ...reply, body };
}

function convert(value: unknown, dialect: Dialect): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, dialect));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const isSubscription = 'product_id' in record && 'accession_date' in record;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(record)) {
    if (typeof field === 'string' && dialect.dates === 'instants' && DATE_KEYS.has(key)) {
      out[key] = midnightInstant(field, dialect.serverTz);
    } else if (typeof field === 'string' && dialect.dates === 'instants' && DATETIME_KEYS.has(key)) {
      out[key] = timeOnDay(field, `${String(record.id)}:${key}`, dialect.serverTz);
    } else if (key === 'id' && isSubscription && typeof field === 'string' && dialect.subscriptionIds === 'integer') {
      out[key] = subscriptionNumber(field);
    } else {
      out[key] = typeof field === 'object' ? convert(field, dialect) : field;
    }
  }
  return out;
}

/**
 * The integer a subscription is known by in the `integer` dialect: the first
 * 48 bits of its uuid, so it is stable across restarts and data files.
 */
export function subscriptionNumber(id: string): number {
  return Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
}

/** Laravel's Handler with APP_DEBUG off: `message` only (plus `errors` on a 422). */
function laravelError(status: number, body: Record<string, unknown>): Record<string, unknown> {
  if (status === 422) return { message: 'The given data was invalid.', errors: body.errors };
  if (status === 404 && body.exception === 'StudentNotFoundException') {
    // Route-model binding / firstOrFail(): the ModelNotFoundException's own message.
    return { message: 'No query results for model [App\\Models\\Student].' };
  }
  return { message: body.message };
}

/**
 * json_encode's defaults: `/` as `\/` and every non-ASCII UTF-16 unit as
 * `\uXXXX`. Both can only occur inside strings, so the whole text is safe to rewrite.
 */
export function escapeJson(text: string): string {
  return text.replace(/[/\u0080-\uffff]/g, (char) => (char === '/' ? '\\/' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of `zone` from UTC at the instant `ms`, in milliseconds (east positive). */
export function zoneOffsetMs(zone: string, ms: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of the wall-clock time `wallMs` (ms since the epoch, read as local) in `zone`. */
function localToUtc(wallMs: number, zone: string): number {
  const guess = wallMs - zoneOffsetMs(zone, wallMs);
  return wallMs - zoneOffsetMs(zone, guess);
}

const midnights = new Map<string, string>();

/** `2025-03-01` in Asia/Tokyo → `2025-02-28T15:00:00.000000Z`; anything that is not a date is left alone. */
export function midnightInstant(day: string, zone: string): string {
  const key = `${zone} ${day}`;
  let text = midnights.get(key);
  if (text === undefined) {
    const days = parseDay(day);
    if (days === undefined) return day;
    text = formatTimestamp(localToUtc(dayStartMs(days), zone));
    midnights.set(key, text);
  }
  return text;
}

/** A day at a time of day drawn from `salt` (so the same record always gets the same time), as a UTC instant. */
function timeOnDay(day: string, salt: string, zone: string): string {
  const days = parseDay(day);
  if (days === undefined) return day;
  let hash = 2166136261;
  for (let i = 0; i < salt.length; i++) hash = Math.imul(hash ^ salt.charCodeAt(i), 16777619);
  const minute = (hash >>> 0) % (DAY_MS / 60_000);
  return formatTimestamp(localToUtc(dayStartMs(days) + minute * 60_000, zone));
}
