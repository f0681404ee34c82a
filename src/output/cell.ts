/** A value as the text of one cell, for csv and tables. */
import { personName } from '../people.js';
import { getPath } from './fields.js';
import type { CellFormat, Column, JsonRecord } from './view.js';

/** null and undefined are empty; objects and arrays are JSON text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// C0 controls except tab and newline, DEL, C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text from the API may hold escape sequences that would rewrite a terminal: they become U+FFFD. */
export function printable(text: string): string {
  return text.replace(CONTROL, '\uFFFD');
}

/** A person's name for a table, from the record the `full_name` column belongs to. */
export const personNameCell: CellFormat = (_value, record) => personName(record);

/** A table cell: formatted for people, on one line (a line break would split the row). */
export function tableCell(column: Column, record: JsonRecord): string {
  const value = getPath(record, column.path);
  const { format } = column;
  const text = typeof format === 'function' ? format(value, record) : format ? FORMATTERS[format](value) : cellText(value);
  return printable(text.replace(/\r?\n|\t/g, ' '));
}

const DATE = /^\d{4}-\d{2}-\d{2}/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const FORMATTERS = {
  /** A calendar date is shown as the API dated it, never shifted to another zone. */
  date: (value: unknown) => {
    const text = cellText(value);
    return DATE.exec(text)?.[0] ?? text;
  },
  /** `2024-03-05 14:22` in UTC; a time without a zone is shown as sent rather than guessed. */
  datetime: (value: unknown) => {
    const text = cellText(value);
    const match = DATE_TIME.exec(text);
    if (!match) return text;
    const [, day, minutes, zone] = match;
    if (!zone) return `${day} ${minutes}`;
    const instant = new Date(`${day}T${minutes}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`);
    return Number.isNaN(instant.getTime()) ? text : instant.toISOString().slice(0, 16).replace('T', ' ');
  },
  bool01: (value: unknown) => {
    if (value === true || value === 1 || value === '1') return 'yes';
    if (value === false || value === 0 || value === '0') return 'no';
    return cellText(value);
  },
} satisfies Record<Extract<CellFormat, string>, (value: unknown) => string>;
