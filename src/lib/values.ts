/** Parsers for the value types of contract §1.2 (DURATION, DATE) and small integers. */
import { UsageError } from './errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `90s`, `15m`, `2h`, `7d` → seconds. */
export function parseDuration(input: string, what = 'duration'): number {
  const match = /^(\d+)([smhd]?)$/.exec(input.trim());
  const seconds = match ? Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] as number) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(input)}: use seconds or a number with a unit, e.g. 90, 90s, 15m, 2h, 7d`);
  }
  return seconds;
}

/**
 * A real calendar date `YYYY-MM-DD` (proleptic Gregorian, 0001–9999); returns
 * it unchanged. Plain arithmetic, not `Date.UTC`, which maps years 0–99 to 1900–1999.
 */
export function parseDate(input: string, what = 'date'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return input;
  }
  throw new UsageError(`invalid ${what} ${JSON.stringify(input)}: expected a real calendar date as YYYY-MM-DD`);
}

/**
 * A date cell of a bulk file: `YYYY-MM-DD`, or `DD/MM/YYYY` as Brazilian
 * spreadsheets write it (`05/03/2026` is 5 March 2026; a day or month may
 * have one digit). `MM/DD` is never guessed: `03/25/2026` is an error.
 * Returns `YYYY-MM-DD`; an impossible date is a usage error naming `what`.
 */
export function parseFileDate(input: string, what: string): string {
  const text = input.trim();
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!match) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseDate(text, what);
    throw new UsageError(`invalid ${what} ${JSON.stringify(input)}: expected a date as DD/MM/YYYY or YYYY-MM-DD`);
  }
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || year < 1 || day > daysInMonth(year, month)) {
    throw new UsageError(`invalid ${what} ${JSON.stringify(input)}: read as DD/MM/YYYY (day ${day}, month ${month}), no such date; dates are never read as MM/DD`);
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function parseInteger(input: string, what: string, range: { min?: number; max?: number } = {}): number {
  const value = /^-?\d+$/.test(input.trim()) ? Number(input) : NaN;
  const { min = -Infinity, max = Infinity } = range;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const bounds = Number.isFinite(min) && Number.isFinite(max) ? ` between ${min} and ${max}`
      : Number.isFinite(min) ? ` of at least ${min}` : '';
    throw new UsageError(`invalid ${what} ${JSON.stringify(input)}: expected an integer${bounds}`);
  }
  return value;
}

/** Today in the local calendar, as the API's YYYY-MM-DD. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A plausible address: something, one `@`, a domain with a dot. `+` and the like are the server's business. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The word for `count` things: `row`, `rows`; `many` for irregular plurals. */
export const pluralWord = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);

/** `1 row`, `3 rows`. */
export const plural = (count: number, one: string, many?: string) => `${count} ${pluralWord(count, one, many)}`;

/** `a, b ,c` → ['a', 'b', 'c'], each one of `allowed` (case-insensitive); a usage error otherwise. */
export function parseChoiceList<T extends string>(input: string, flag: string, allowed: readonly T[]): T[] {
  const values = input.split(',').map((value) => value.trim().toLowerCase()).filter(Boolean);
  const unknown = values.filter((value) => !(allowed as readonly string[]).includes(value));
  if (values.length === 0) throw new UsageError(`${flag} needs at least one of ${allowed.join(', ')} (comma-separated)`);
  if (unknown.length > 0) {
    const what = unknown.map((value) => JSON.stringify(value)).join(', ');
    throw new UsageError(`invalid ${flag} value ${what}: use a comma-separated list of ${allowed.join(', ')}`);
  }
  return [...new Set(values)] as T[];
}
