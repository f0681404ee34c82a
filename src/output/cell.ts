/** A value as the text of one cell, for csv and tables. */
import { personName } from '../lib/people.js';
import { printableLine } from './sanitize.js';
import { localDate, localDateTime, localZoneLabel } from '../lib/time/zones.js';
import { getPath } from './fields.js';
import type { CellFormat, Column, JsonRecord } from './view.js';

/** null and undefined are empty; objects and arrays are JSON text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export { printable } from './sanitize.js';

/** A person's name for a table, from the record the `full_name` column belongs to. */
export const personNameCell: CellFormat = (_value, record) => personName(record);

/** A table cell: formatted for people, on one line (a line break would split the row). */
export function tableCell(column: Column, record: JsonRecord): string {
  const value = getPath(record, column.path);
  const { format } = column;
  const text = typeof format === 'function' ? format(value, record) : format ? FORMATTERS[format](value) : cellText(value);
  return printableLine(text);
}

/** A column's header; a time column names the user's zone unless it is UTC (see time/zones.ts). */
export function columnHeader(column: Column): string {
  const zone = column.format === 'datetime' ? localZoneLabel() : undefined;
  return zone ? `${column.header.toUpperCase()} (${zone})` : column.header.toUpperCase();
}

const FORMATTERS = {
  /** A calendar date as the API dated it (date-only fields arrive as dates, see api/client.ts); an instant's day in the user's zone. */
  date: (value: unknown) => localDate(cellText(value)),
  /** `2024-03-05 14:22` in the user's zone; a time without a zone is shown as sent rather than guessed. */
  datetime: (value: unknown) => localDateTime(cellText(value)),
  bool01: (value: unknown) => {
    if (value === true || value === 1 || value === '1') return 'yes';
    if (value === false || value === 0 || value === '0') return 'no';
    return cellText(value);
  },
} satisfies Record<Extract<CellFormat, string>, (value: unknown) => string>;
