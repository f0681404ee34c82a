import { ascii } from './strings.js';

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 (UTC) of a real calendar date `YYYY-MM-DD`; undefined otherwise. */
export function parseDay(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  // Date.UTC rolls 2023-02-29 over to March: a real date survives the round trip.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

/** Days since 1970-01-01 of a date given by its parts (month 1-12). */
export function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function isDateShaped(text: string): boolean {
  return DATE_PATTERN.test(text);
}

/** Seeded data has a few thousand distinct days across hundreds of thousands of fields: share one string per day. */
const dayTexts: (string | undefined)[] = [];

export function formatDay(day: number): string {
  let text = dayTexts[day];
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (day >= 0) dayTexts[day] = text;
  }
  return text;
}

/** Laravel's serialisation of a timestamp: `2024-03-05T14:22:10.000000Z`. */
export function formatTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const inDay = ms - day * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  return ascii
    .text(formatDay(day))
    .text('T')
    .digits(Math.floor(seconds / 3600), 2)
    .text(':')
    .digits(Math.floor(seconds / 60) % 60, 2)
    .text(':')
    .digits(seconds % 60, 2)
    .text('.')
    .digits(inDay % 1000, 3)
    .text('000Z')
    .done();
}

export function dayStartMs(day: number): number {
  return day * DAY_MS;
}

export { DAY_MS };
