/**
 * `xlsx`: a workbook a person opens with a double click, in any locale, and
 * finds what they expect: identifiers, documents and phones as text (leading
 * zeros kept), integers and decimals as numbers they can sum, dates and times
 * as dates in their own zone (TZ), a bold header row frozen at the top, and
 * columns as wide as their content. The columns are those of csv (csv.ts):
 * the --fields, or every scalar field of the first record.
 *
 * A list streams into the file a page at a time (xlsx-engine.ts, exceljs);
 * only the first rows are held, briefly, to size the columns.
 */
import { cellText } from './cell.js';
import { getPath, scalarPaths } from './fields.js';
import type { Format } from './format.js';
import type { JsonRecord } from './view.js';
import type { WriteBytes, XlsxSheet, XlsxValue, XlsxWriter } from './xlsx-engine.js';
import { batchesOf } from '../lib/batches.js';
import { spreadsheetDateTime } from '../lib/time/zones.js';

/** What a cell holds and its number format (undefined: General). */
export type XlsxCell = readonly [XlsxValue, string | undefined];

const TEXT = '@';
const INTEGER = '0';
const DATE = 'yyyy-mm-dd';
const DATE_TIME = 'yyyy-mm-dd hh:mm:ss';
/** Excel's limit on a cell's text: longer text is cut, with a warning. */
export const MAX_CELL_CHARS = 32_767;
/** Excel keeps 15 significant digits: a longer decimal stays text rather than change. */
const MAX_DIGITS = 15;
/** How Laravel sends decimal columns (`"87.50"`); a leading zero (`070.69`) is no number but a code. */
const DECIMAL_TEXT = /^-?(?:0|[1-9]\d*)\.(\d+)$/;
/** `id`, `user_id`, `product.id`: identifiers, text even when the API sends a number (Laravel's subscription ids). */
const IDENTIFIER = /(?:^|[._])id$/;
/** Excel's dates begin in 1900: an earlier one would show as #####. */
const FIRST_YEAR = 1900;

/**
 * The cell of one value of the field at `path`. Only a number, a decimal
 * string or a date becomes anything but text: a string of digits (a CPF, a
 * phone, a reference) is text whatever it looks like.
 */
export function xlsxCell(value: unknown, path: string): XlsxCell {
  if (value === null || value === undefined || value === '') return [null, undefined];
  if (IDENTIFIER.test(path)) return text(cellText(value));
  if (typeof value === 'number') return Number.isFinite(value) ? [value, Number.isInteger(value) ? INTEGER : undefined] : text(String(value));
  if (typeof value === 'boolean') return [value, undefined];
  if (typeof value !== 'string') return text(cellText(value));
  return decimal(value) ?? date(value) ?? text(value);
}

function text(value: string): XlsxCell {
  return [value, TEXT];
}

function decimal(value: string): XlsxCell | undefined {
  const places = DECIMAL_TEXT.exec(value)?.[1];
  // Significant digits: leading zeros (`0.000125`) are not.
  if (places === undefined || value.replace(/\D/g, '').replace(/^0+/, '').length > MAX_DIGITS) return undefined;
  return [Number(value), `0.${'0'.repeat(places.length)}`];
}

/**
 * An Excel date has no zone: the cell holds the wall-clock time of the
 * user's zone, as --csv-dialect excel writes it (spreadsheetDateTime), in a
 * Date whose UTC fields are that time, which is what exceljs writes.
 */
function date(value: string): XlsxCell | undefined {
  const local = spreadsheetDateTime(value);
  if (local === undefined) return undefined;
  const [year, month, day, hours = 0, minutes = 0, seconds = 0] = local.split(/[- :]/).map(Number) as [number, number, number, number?, number?, number?];
  const at = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  // Date.UTC rolls 2024-02-30 over into March and 10:59:60 into 11:00: an impossible time stays text, as sent.
  if (year < FIRST_YEAR || at.toISOString().slice(0, local.length).replace('T', ' ') !== local) return undefined;
  return [at, local.length === DATE.length ? DATE : DATE_TIME];
}

/** Rows held to size the columns before the first is written (widths precede the rows in the file). */
const SAMPLE_ROWS = 200;
const MAX_WIDTH = 60;
/** Numbers get room to grow beyond the first rows': a number wider than its column shows as #####, where text spills over. */
const MIN_NUMBER_WIDTH = 10;
const MIN_WIDTH = 6;
/** The header is bold, a little wider than its letters. */
const BOLD = 1.1;

type StringWidth = (text: string) => number;

/** What a person sees of a cell, in characters (CJK and most emoji count two). */
function shownWidth([value, format]: XlsxCell, stringWidth: StringWidth): number {
  if (value === null) return 0;
  if (value instanceof Date) return (format as string).length;
  if (typeof value === 'number') return format?.startsWith('0.') ? value.toFixed(format.length - 2).length : String(value).length;
  if (typeof value === 'boolean') return 5;
  let widest = 0;
  for (const line of value.split('\n')) widest = Math.max(widest, stringWidth(line));
  return widest;
}

export function columnWidths(headers: readonly string[], rows: ReadonlyArray<readonly XlsxCell[]>, stringWidth: StringWidth): number[] {
  return headers.map((header, i) => {
    let widest = Math.ceil(stringWidth(header) * BOLD);
    let numeric = false;
    for (const row of rows) {
      const cell = row[i] as XlsxCell;
      widest = Math.max(widest, shownWidth(cell, stringWidth));
      numeric ||= typeof cell[0] === 'number' || cell[0] instanceof Date;
    }
    return Math.min(MAX_WIDTH, Math.max(widest + 2, numeric ? MIN_NUMBER_WIDTH : MIN_WIDTH));
  });
}

/** An Excel sheet name: at most 31 characters, none of `[]:*?/\`; room is left for ` (2)`. */
export function sheetName(noun: string): string {
  return noun.replace(/[[\]:*?/\\]/g, ' ').slice(0, 26).trim() || 'members';
}

export interface XlsxOptions {
  fields?: string[];
  header: boolean;
  /** Said on stderr when a cell had to be cut to Excel's limit. */
  warn(text: string): void;
  /** Tests make sheets short. */
  rowsPerSheet?: number;
}

export function xlsxFormat(write: WriteBytes, options: XlsxOptions): Format {
  const format: Format = {
    async one(record, view) {
      await format.list([record], view);
    },
    async list(records, view) {
      let columns = options.fields;
      let sample: XlsxCell[][] = [];
      let writer: XlsxWriter | undefined;
      let count = 0;
      const cut = { cells: 0 };
      const cells = (record: JsonRecord) => rowCells(columns as string[], record, cut);
      const start = async () => {
        const paths = columns ?? view.columns.map((column) => column.path);
        const [{ openXlsx }, stringWidth] = await engine();
        const widths = columnWidths(paths, sample, stringWidth);
        writer = openXlsx(write, { name: sheetName(view.noun), headers: options.header ? paths : undefined, widths, rowsPerSheet: options.rowsPerSheet });
        for (const row of sample) put(writer, row);
        sample = [];
      };
      try {
        for await (const batch of batchesOf(records)) {
          for (const record of batch) {
            columns ??= scalarPaths(record);
            const row = cells(record);
            if (writer) put(writer, row);
            else sample.push(row);
            count++;
          }
          if (!writer && sample.length >= SAMPLE_ROWS) await start();
          // A page at a time: the zip takes what was written before the next page is asked for.
          await writer?.drained();
        }
        if (!writer) await start();
        await (writer as XlsxWriter).close();
      } catch (error) {
        writer?.abort();
        throw error;
      }
      warnCut(cut.cells, options);
      return count;
    },
    async book({ sheets, chart }) {
      const [{ writeWorkbook }, stringWidth] = await engine();
      const cut = { cells: 0 };
      const specs = sheets.map((sheet): XlsxSheet & { paths: string[] } => {
        const [first] = sheet.records;
        const paths = first ? scalarPaths(first) : sheet.view.columns.map((column) => column.path);
        const rows = sheet.records.map((record) => rowCells(paths, record, cut));
        const dataBar = sheet.dataBar && paths.includes(sheet.dataBar.path) ? { column: paths.indexOf(sheet.dataBar.path) + 1, max: sheet.dataBar.max } : undefined;
        return {
          name: sheetName(sheet.view.noun), headers: paths, widths: columnWidths(paths, rows, stringWidth), paths, dataBar,
          rows: rows.map((row) => ({ values: row.map((cell) => cell[0]), formats: row.map((cell) => cell[1]) })),
        };
      });
      const charted = chart && specs[chart.sheet];
      await writeWorkbook(write, specs, charted && {
        sheet: chart.sheet + 1, sheetName: charted.name, title: chart.title,
        categoryColumn: charted.paths.indexOf(chart.category) + 1, valueColumn: charted.paths.indexOf(chart.value) + 1, seriesName: chart.value,
        categories: (sheets[chart.sheet]?.records ?? []).map((record) => cellText(getPath(record, chart.category))),
        values: (sheets[chart.sheet]?.records ?? []).map((record) => finiteOrNull(getPath(record, chart.value))),
        max: chart.max, anchor: chartAnchor(charted.paths.indexOf(chart.category), charted.paths.length, charted.rows.length),
      });
      warnCut(cut.cells, options);
    },
  };
  return format;
}

/** Loaded only when a workbook is written: exceljs is a bundle of its own (dist/xlsx.cjs), string-width builds a large regex. */
async function engine(): Promise<[typeof import('./xlsx-engine.js'), StringWidth]> {
  const [xlsx, { default: stringWidth }] = await Promise.all([import('./xlsx-engine.js'), import('string-width')]);
  return [xlsx, stringWidth];
}

/** A record's cells; a text longer than a cell holds is cut, and counted in `cut`. */
function rowCells(columns: readonly string[], record: JsonRecord, cut: { cells: number }): XlsxCell[] {
  return columns.map((path): XlsxCell => {
    const cell = xlsxCell(getPath(record, path), path);
    if (typeof cell[0] !== 'string' || cell[0].length <= MAX_CELL_CHARS) return cell;
    cut.cells++;
    return [cell[0].slice(0, MAX_CELL_CHARS), cell[1]];
  });
}

function warnCut(cut: number, options: XlsxOptions): void {
  if (cut > 0) options.warn(`${cut === 1 ? '1 cell was' : `${cut} cells were`} cut to ${MAX_CELL_CHARS.toLocaleString('en-US')} characters, the most a spreadsheet cell holds; -o json has the whole text`);
}

/**
 * Under the table, two rows down, from the category column to the last one
 * (a page's width: the chart prints with its table), a row and a half a bar.
 */
export function chartAnchor(categoryColumn: number, columns: number, rows: number): { from: { column: number; row: number }; to: { column: number; row: number } } {
  const top = rows + 1 + 2;
  return { from: { column: Math.max(0, categoryColumn), row: top }, to: { column: columns, row: top + Math.max(14, Math.ceil(rows * 1.5) + 6) } };
}

function finiteOrNull(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function put(writer: XlsxWriter, row: readonly XlsxCell[]): void {
  writer.row(row.map((cell) => cell[0]), row.map((cell) => cell[1]));
}
