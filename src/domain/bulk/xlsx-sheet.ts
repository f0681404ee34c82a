/**
 * The first sheet of an xlsx workbook as rows of text, read by exceljs's
 * streaming reader: the bytes pass through a row at a time (twice for some
 * files: see readFirstSheet), and no row is held. Each cell reads as a person sees it in the sheet, so that a column
 * of CPFs or phone numbers typed as numbers works as their text would: see
 * cellText.
 *
 * Built apart, into dist/xlsx-read.cjs (scripts/build.mjs), and loaded only
 * when an input file is a workbook: its 800 KB would cost every other run
 * 15 ms to load, and the writer's bundle (dist/xlsx.cjs, -o xlsx) as much.
 */
import { Readable } from 'node:stream';
import WorkbookReader from 'exceljs/lib/stream/xlsx/workbook-reader.js';
import utils from 'exceljs/lib/utils/utils.js';

/** One row of the sheet that holds something: its number in the sheet, its cells' text from column A, and why a cell cannot be read. */
export interface SheetRow {
  line: number;
  cells: string[];
  /** Cells that hold an error or a formula never calculated, by 0-based column. */
  unreadable: Map<number, string>;
}

/** The sheet read (the first tab), and how many the workbook has. */
export interface SheetRead {
  name: string;
  sheets: number;
}

/**
 * Reads the first sheet (in tab order), handing each row that holds
 * something to `onRow`; undefined when the file holds no sheet. exceljs's
 * errors are thrown as they come. `open` gives the file's bytes from the
 * start, each time it is called.
 *
 * A sheet's cells need the parts of the workbook around it: the shared
 * strings (its texts), the styles (which numbers are dates), the list of
 * sheets (its name) and their relationships. Excel zips the sheets before
 * the strings and styles; exceljs would then copy each sheet into a
 * temporary file and read it at the end, which leaves the rows of a killed
 * run in /tmp. Here a sheet that comes before those parts is passed over,
 * and the file read once more with the parts of the first pass: two passes
 * for Excel's order (the first only inflates the sheet), one for
 * LibreOffice's and exceljs's, never a temporary file.
 */
export async function readFirstSheet(open: () => AsyncIterable<Buffer>, onRow: (row: SheetRow, sheet: SheetRead) => void): Promise<SheetRead | undefined> {
  const first = await readSheet(open(), onRow);
  return first.early ? (await readSheet(open(), onRow, first.reader)).read : first.read;
}

type Reader = InstanceType<typeof WorkbookReader>;

async function readSheet(bytes: AsyncIterable<Buffer>, onRow: (row: SheetRow, sheet: SheetRead) => void, known?: Reader): Promise<{ read?: SheetRead; early: boolean; reader: Reader }> {
  // The second time, the strings and styles of the first are kept, not parsed again.
  const parts = known ? 'ignore' : 'cache';
  const reader = new WorkbookReader(Readable.from(bytes), { worksheets: 'emit', sharedStrings: parts, hyperlinks: 'ignore', styles: parts, entries: 'emit' });
  const seen = new Set<string>();
  reader.on('entry', ({ type }) => void seen.add(type));
  // exceljs hands a sheet over as it comes (never to a temporary file) only when it holds shared strings and relationships.
  const noRels: unknown[] = [];
  Object.assign(reader, known
    ? { sharedStrings: known.sharedStrings, workbookRels: known.workbookRels, styles: known.styles, model: known.model, properties: known.properties }
    : { sharedStrings: [], workbookRels: noRels, model: {} });
  let read: SheetRead | undefined;
  let early = false;
  // The zip holds the sheets in any order; each is read or passed over as it comes (a sheet not read is skipped unparsed).
  for await (const sheet of reader) {
    early ||= !known && !read && !(['shared-strings', 'styles', 'workbook'].every((part) => seen.has(part)) && reader.workbookRels !== noRels);
    const sheets = reader.model?.sheets;
    if (early || read || (sheets?.[0] !== undefined && sheet.name !== sheets[0].name)) continue;
    read = { name: sheet.name, sheets: sheets?.length ?? 1 };
    const date1904 = reader.properties?.model?.date1904 === true;
    for await (const row of sheet) {
      const cells: string[] = [];
      const unreadable = new Map<number, string>();
      row.eachCell((cell, column) => {
        const text = cellText(cell.value, cell.numFmt, date1904);
        if (typeof text === 'string') cells[column - 1] = text;
        else unreadable.set(column - 1, text.problem);
      });
      const filled = Array.from(cells, (cell) => cell ?? '');
      if (filled.some((cell) => cell.trim() !== '') || unreadable.size > 0) onRow({ line: row.number, cells: filled, unreadable }, read);
    }
  }
  return { read, early, reader };
}

/**
 * A cell's value as the text a person sees in the sheet, or why it has none:
 * numbers without float noise or exponent (a CPF typed as a number,
 * 12345678909, is "12345678909"), dates as YYYY-MM-DD (with the time when it
 * has one), a formula as its saved result, TRUE and FALSE as Excel shows them.
 */
export function cellText(value: unknown, numFmt: string | undefined, date1904 = false): string | { problem: string } {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number') {
    // exceljs dates a plain cell by its format, not a formula's result.
    if (utils.isDateFmt(numFmt)) return dateText(utils.excelToDate(value, date1904));
    return maskedText(value, numFmt) ?? numberText(value);
  }
  if (typeof value !== 'object') return { problem: 'holds a value members cannot read' };
  if ('richText' in value) return (value.richText as Array<{ text?: string }>).map((run) => run.text ?? '').join('');
  if ('error' in value) return { problem: `holds the error ${String(value.error)}` };
  if ('formula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined) return { problem: 'holds a formula with no saved result (open the file in Excel or LibreOffice and save it again)' };
    // An error's text is not saved with a formula's result: exceljs reads it as NaN.
    if (typeof result === 'number' && Number.isNaN(result)) return { problem: 'holds a formula whose result is an error' };
    return cellText(result, numFmt, date1904);
  }
  return { problem: 'holds a value members cannot read' };
}

/** 12345678909 → "12345678909"; 0.1 + 0.2 → "0.3" (15 significant digits, as Excel shows them); no exponent. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Number(value.toPrecision(15));
  return rounded.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * A whole number shown through a mask of zeros, as CPFs, CEPs and phone
 * numbers are kept in Brazilian sheets: `000\.000\.000\-00` shows
 * 7069205546 as 070.692.055-46, `00000000000` as 07069205546. Undefined for
 * any other format (`#`, a thousands comma, a decimal point…): the number as is.
 * exceljs hands the format with its `\` escapes taken out, so a `.` is the
 * mask's only when there are several (one is a decimal point: `0.00`).
 */
export function maskedText(value: number, numFmt: string | undefined): string | undefined {
  if (numFmt === undefined || !Number.isSafeInteger(value) || value < 0) return undefined;
  // Zeros, and literals: quoted, or the few a mask shows as they are.
  const parts = numFmt.match(/"[^"]*"|0|[-\s()./]/g);
  if (!parts || parts.join('') !== numFmt || !parts.includes('0') || parts.filter((part) => part === '.').length === 1) return undefined;
  const places = parts.filter((part) => part === '0').length;
  // Digits beyond the mask's go to its first place, as Excel puts them.
  const digits = String(value).padStart(places, '0');
  let next = 0;
  return parts.map((part) => {
    if (part !== '0') return part.startsWith('"') ? part.slice(1, -1) : part;
    const take = next === 0 ? digits.length - places + 1 : 1;
    const piece = digits.slice(next, next + take);
    next += take;
    return piece;
  }).join('');
}

/** YYYY-MM-DD, with ` HH:MM:SS` when the cell has a time of day, or HH:MM:SS alone for a time (Excel's day 0, 1899-12-30). */
function dateText(date: Date): string {
  // Excel keeps a time as a fraction of a day: 14:03:22 comes back as 14:03:21.9996.
  const iso = new Date(Math.round(date.getTime() / 1000) * 1000).toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (day === '1899-12-30') return time;
  return time === '00:00:00' ? day : `${day} ${time}`;
}
