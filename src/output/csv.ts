/**
 * `csv`: RFC 4180 quoting (csv-stringify's rules), UTF-8 without a BOM, LF line
 * ends, a header row of field paths unless --no-header.
 *
 * Columns: the --fields in their order, or else every scalar field of the
 * FIRST record, flattened to dot paths in the API's key order. Keys that only
 * later records have are dropped; arrays appear only when asked for with
 * --fields (as JSON text). An empty list prints the header alone when
 * --fields names it, and nothing otherwise: there is no record to take it from.
 *
 * --csv-dialect excel and excel-br write for spreadsheets opened with a
 * double click (see SPREADSHEET below); rfc4180 stays the default for scripts.
 */
import { cellText } from './cell.js';
import { printable } from './sanitize.js';
import { getPath, scalarPaths } from './fields.js';
import type { Format, Write } from './format.js';
import { spreadsheetDateTime } from '../lib/time/zones.js';
import type { CsvDialect } from '../lib/io.js';
import { batchesOf } from '../lib/batches.js';

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
  if (!PHONE_CHARACTERS.test(value)) return false;
  // Counted in place: match(/\d/g) built an array per phone cell (a sixth of a report's CSV time).
  let digits = 0;
  for (let i = 0; i < value.length && digits < PHONE_MIN_DIGITS; i++) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
  }
  return digits >= PHONE_MIN_DIGITS;
}

const NEEDS_QUOTES = { ',': /[",\r\n]/, ';': /[";\r\n]/ };

/**
 * One CSV line: a cell holding the separator, a double quote or a line break
 * is quoted, its quotes doubled. These are csv-stringify's rules with its
 * defaults (test/property/csv-record.test.ts checks them against it),
 * without the cost of a call to it per line: a fifth of the CPU time of a
 * 100,000-row export.
 */
export function csvRecord(cells: readonly string[], separator: ',' | ';' = ',', eol = '\n'): string {
  const needsQuotes = NEEDS_QUOTES[separator];
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (i > 0) line += separator;
    line += needsQuotes.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return line + eol;
}

/** A string of digits a spreadsheet would turn into a number and change: a leading zero, or more than 11 digits (shown as 1.2E+11). */
const FRAGILE_DIGITS = /^(?:0\d+|\d{12,})$/;
const DECIMAL = /^-?\d+\.\d+$/;

interface Dialect {
  bom: string;
  separator: ',' | ';';
  eol: string;
  /** A cell's text from its value (--csv-raw: as is; otherwise guarded against formulas). */
  cell(value: unknown): string;
}

/**
 * Excel and LibreOffice opening a file with a double click: a BOM, or the
 * accents are read as Windows-1252; CRLF; dates and times as
 * `YYYY-MM-DD HH:MM:SS` (instants in the user's zone, TZ), which both read as
 * dates in every locale; digit strings that a spreadsheet would change
 * (documents, phones with a leading zero, long references) as `="0123"`, a
 * text formula both show as 0123. excel-br is Excel and LibreOffice in
 * Portuguese (Brazil): `;` separators and decimal commas (`100,00`), or the
 * numbers stay text and the columns run together.
 */
function spreadsheet(separator: ',' | ';', decimalComma: boolean): Dialect {
  const number = (text: string) => (decimalComma ? text.replace('.', ',') : text);
  return {
    bom: '\uFEFF',
    separator,
    eol: '\r\n',
    cell(value) {
      if (typeof value === 'number') return number(String(value));
      const text = cellText(value);
      if (typeof value !== 'string') return guardCell(text);
      if (FRAGILE_DIGITS.test(text)) return `="${text}"`;
      if (DECIMAL.test(text)) return number(text);
      return spreadsheetDateTime(text) ?? guardCell(text);
    },
  };
}

function onTerminal(dialect: Dialect, terminal: boolean): Dialect & { name(text: string): string } {
  if (!terminal) return { ...dialect, name: (text) => text };
  return { ...dialect, cell: (value) => printable(dialect.cell(value)), name: printable };
}

function dialectOf(name: CsvDialect, raw: boolean): Dialect {
  const rfc4180: Dialect = { bom: '', separator: ',', eol: '\n', cell: (value) => guardCell(cellText(value)) };
  const dialect = name === 'excel' ? spreadsheet(',', false) : name === 'excel-br' ? spreadsheet(';', true) : rfc4180;
  return raw ? { ...dialect, cell: cellText } : dialect;
}

/** `terminal`: stdout is a terminal, so cells (and header names, the server's keys) go through the sanitizer, --csv-raw or not. */
export function csvFormat(write: Write, options: { fields?: string[]; header: boolean; raw: boolean; dialect: CsvDialect; terminal?: boolean }): Format {
  const dialect = onTerminal(dialectOf(options.dialect, options.raw), options.terminal === true);
  let started = false;
  const line = (cells: string[]) => {
    const text = csvRecord(cells, dialect.separator, dialect.eol);
    if (started) return write(text);
    started = true;
    return write(dialect.bom + text);
  };
  // The header is names, never run as formulas.
  const header = (columns: string[]) => line((options.raw ? columns : columns.map(guardCell)).map(dialect.name));
  const format: Format = {
    async one(record, view) {
      await format.list([record], view);
    },
    async list(records, view) {
      let columns = options.fields;
      let count = 0;
      for await (const batch of batchesOf(records)) {
        for (const record of batch) {
          columns ??= scalarPaths(record);
          if (count++ === 0 && options.header) await header(columns);
          const full = line(columns.map((path) => dialect.cell(getPath(record, path))));
          if (full) await full;
        }
      }
      // No record to take the fields from: the view's column paths make the header (contract §3.1).
      if (count === 0 && options.header) await header(columns ?? view.columns.map((column) => column.path));
      return count;
    },
  };
  return format;
}
