/**
 * Dates and times as the API sends them, read for people (tables, in the
 * user's zone: the TZ environment variable, else the system's) and for
 * round trips (calendar dates, whatever the server's zone).
 */

/** `2024-06-10`, `2024-06-10T01:49:00.000000Z`, `2024-06-10 01:49:00`, `2024-06-09T22:49:00-03:00`. */
const STAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

interface Stamp {
  day: string;
  /** Present when the text has a time of day. */
  time?: { hours: string; minutes: string; seconds: string };
  /** `Z`, `+09:00`, `-0300`; absent for a wall-clock time. */
  zone?: string;
}

function parseStamp(text: string): Stamp | undefined {
  const match = STAMP.exec(text);
  if (!match) return undefined;
  const [, day, hours, minutes, seconds, , zone] = match;
  return { day: day as string, time: hours === undefined ? undefined : { hours, minutes: minutes as string, seconds: seconds ?? '00' }, zone };
}

/** The instant of a stamp with a zone; undefined for a date, a wall-clock time or an impossible date. */
function instantOf(stamp: Stamp): Date | undefined {
  if (!stamp.time || !stamp.zone) return undefined;
  const zone = stamp.zone === 'Z' ? 'Z' : stamp.zone.length === 5 ? `${stamp.zone.slice(0, 3)}:${stamp.zone.slice(3)}` : stamp.zone;
  const date = new Date(`${stamp.day}T${stamp.time.hours}:${stamp.time.minutes}:${stamp.time.seconds}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/**
 * A time for a table: an instant in the user's zone, `2024-06-09 22:49`; a
 * time without a zone as sent (guessing its zone would be worse); anything
 * else unchanged.
 */
export function localDateTime(text: string): string {
  const stamp = parseStamp(text);
  if (!stamp?.time) return text;
  const instant = instantOf(stamp);
  if (!instant) return stamp.zone ? text : `${stamp.day} ${stamp.time.hours}:${stamp.time.minutes}`;
  return `${localDay(instant)} ${pad(instant.getHours())}:${pad(instant.getMinutes())}`;
}

/**
 * A time for a spreadsheet (csv --csv-dialect excel*): `2024-06-09 22:49:00`,
 * which Excel and LibreOffice read as a date and time in every locale; an
 * instant in the user's zone, a time without a zone as sent, a date alone
 * kept. Undefined for text that is no date.
 */
export function spreadsheetDateTime(text: string): string | undefined {
  const stamp = parseStamp(text);
  if (!stamp) return undefined;
  if (!stamp.time) return stamp.day;
  const instant = instantOf(stamp);
  if (instant) return `${localDay(instant)} ${pad(instant.getHours())}:${pad(instant.getMinutes())}:${pad(instant.getSeconds())}`;
  return stamp.zone ? undefined : `${stamp.day} ${stamp.time.hours}:${stamp.time.minutes}:${stamp.time.seconds}`;
}

/** A date for a table: an instant's day in the user's zone (a cancel at 22:49 in São Paulo is that day), else the date as sent. */
export function localDate(text: string): string {
  const stamp = parseStamp(text);
  if (!stamp) return /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0] ?? text;
  const instant = instantOf(stamp);
  return instant ? localDay(instant) : stamp.day;
}

/** How far east of UTC midnight the rule below reads a server's midnight: 13 h 45 min (Chatham in summer). */
const MIDNIGHT_WINDOW_MS = 13.75 * 3_600_000;

/**
 * The calendar date the server meant by a date-only field (accession_date,
 * expiration_date, birth), whatever its time zone. Laravel's `date` cast
 * sends midnight of that day in the server's zone as a UTC instant: the
 * previous day at 15:00Z from Tokyo, 03:00Z the same day from São Paulo. An
 * instant in UTC is read as local midnight of a zone from UTC−10 to
 * UTC+13:45 (every populated zone but UTC−11 and +14, which send the same
 * instants as +13 and −10): the day of the instant plus 13 h 45 min. A time with another offset, or none,
 * is a wall-clock time on the server: its own date. A plain date is kept.
 */
export function calendarDate(text: string): string {
  const stamp = parseStamp(text);
  if (!stamp) return text;
  if (!stamp.time || !stamp.zone || !/^(Z|[+-]00:?00)$/.test(stamp.zone)) return stamp.day;
  const instant = instantOf(stamp);
  return instant ? new Date(instant.getTime() + MIDNIGHT_WINDOW_MS).toISOString().slice(0, 10) : text;
}

/** The user's zone when it is not UTC (the API's own zone, where times need no label), for table headers. */
export function localZoneLabel(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return /^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/.test(zone) ? undefined : zone;
}

/** Date-only fields of the API's records (api-spec §2): given as `YYYY-MM-DD` however the server serialised them. */
const DATE_ONLY_FIELDS = new Set(['birth', 'accession_date', 'expiration_date']);

/**
 * Rewrites, in place, every date-only field of a response body (nested
 * subscriptions included) to its calendar date, so that a date sent by grant
 * comes back, is shown, exported, recorded for undo and re-sent unchanged.
 * In place: the records keep the server's key order for csv.
 */
export function normaliseDates(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) normaliseDates(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const field = record[key];
    if (typeof field === 'string') {
      if (DATE_ONLY_FIELDS.has(key) && field.length > 10) record[key] = calendarDate(field);
    } else if (typeof field === 'object' && field !== null) {
      normaliseDates(field);
    }
  }
}
