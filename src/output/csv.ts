/**
 * `csv`: RFC 4180 quoting (csv-stringify's rules), UTF-8 without a BOM, LF line
 * ends, a header row of field paths unless --no-header.
 *
 * Columns: the --fields in their order, or else every scalar field of the
 * FIRST record, flattened to dot paths in the API's key order. Keys that only
 * later records have are dropped; arrays appear only when asked for with
 * --fields (as JSON text). An empty list prints the header alone when
 * --fields names it, and nothing otherwise: there is no record to take it from.
 */
import { cellText } from './cell.js';
import { flatten, getPath } from './fields.js';
import type { Format, Write } from './format.js';
import type { JsonRecord } from './view.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const PHONE_CHARACTERS = /^\+[\d ().-]+$/;
const PHONE_MIN_DIGITS = 8;

/**
 * A cell a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
 * tab or carriage return) gets a leading `'`. Left alone: plain numbers
 * (`-12.5`, `+3`, `1e5`) and phone numbers — a `+` followed only by digits,
 * spaces, dots, hyphens and parentheses, with at least 8 digits
 * (`+55 11 91234-5678`). Neither can call a function.
 */
export function guardCell(value: string): string {
  if (!FORMULA_START.test(value) || PLAIN_NUMBER.test(value) || isPhoneNumber(value)) return value;
  return `'${value}`;
}

function isPhoneNumber(value: string): boolean {
  return PHONE_CHARACTERS.test(value) && (value.match(/\d/g)?.length ?? 0) >= PHONE_MIN_DIGITS;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV line: a cell holding a comma, a double quote or a line break is
 * quoted, its quotes doubled. These are csv-stringify's rules with its
 * defaults (test/property/csv-record.test.ts checks them against it),
 * without the cost of a call to it per line: a fifth of the CPU time of a
 * 100,000-row export.
 */
export function csvRecord(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\n`;
}

function scalarPaths(record: JsonRecord): string[] {
  return Object.entries(flatten(record)).filter(([, value]) => !Array.isArray(value)).map(([path]) => path);
}

export function csvFormat(write: Write, options: { fields?: string[]; header: boolean; raw: boolean }): Format {
  const format: Format = {
    async one(record, view) {
      await format.list([record], view);
    },
    async list(records, view) {
      const line = (cells: string[]) => write(csvRecord(options.raw ? cells : cells.map(guardCell)));
      let columns = options.fields;
      let count = 0;
      for await (const record of records) {
        columns ??= scalarPaths(record);
        if (count++ === 0 && options.header) await line(columns);
        await line(columns.map((path) => cellText(getPath(record, path))));
      }
      // No record to take the fields from: the view's column paths make the header (contract §3).
      if (count === 0 && options.header) await line(columns ?? view.columns.map((column) => column.path));
      return count;
    },
  };
  return format;
}
