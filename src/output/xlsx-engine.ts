/**
 * The workbook file itself, written by exceljs's streaming writer: rows go
 * to the zip as they come and are dropped, so a list of any length holds one
 * page in memory. What a cell holds and how it looks is decided in xlsx.ts;
 * this module only knows exceljs.
 *
 * Built apart, into dist/xlsx.cjs (scripts/build.mjs), and loaded only for
 * `-o xlsx`: its 650 KB cost every other run 10 ms to load.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
// The writer alone: exceljs's index brings its reader, csv, jszip and unzipper too (1.1 MB instead of 460 KB).
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import type { PageSetup, Style, Worksheet } from 'exceljs';
import { columnLetters } from '../lib/column-letters.js';
import { decorateWorkbook, type BarChart, type DataBar } from './xlsx-chart.js';

export type XlsxValue = string | number | boolean | Date | null;

/** Hands the file's bytes on; returns a promise only when the caller must wait (a slow reader). */
export type WriteBytes = (bytes: Uint8Array) => Promise<void> | undefined;

/** Excel's rows per sheet, the header included: a longer list goes on in a second sheet. */
export const EXCEL_MAX_ROWS = 1_048_576;

export interface XlsxLayout {
  /** The first sheet's name; the next ones are `name (2)`, `name (3)`. */
  name: string;
  /** The bold, frozen first row of each sheet; undefined for none (--no-header). */
  headers: readonly string[] | undefined;
  /** Column widths, in characters of the default font. */
  widths: readonly number[];
  /** Rows per sheet, the header included (tests make it small). */
  rowsPerSheet?: number;
}

export interface XlsxWriter {
  /** One row: each cell's value, and its number format (undefined: General). */
  row(values: readonly XlsxValue[], formats: readonly (string | undefined)[]): void;
  /** Resolves once the rows written so far have gone on towards the sink (a page at a time keeps memory flat). */
  drained(): Promise<void>;
  /** Completes the file: the sink ends when it is whole. */
  close(): Promise<void>;
  /** Gives the file up: nothing more reaches the sink. */
  abort(): void;
}

// A complete font: exceljs writes only what it is given, and a bold of <b/> alone has no size or typeface.
const HEADER_STYLE: Partial<Style> = { font: { bold: true, name: 'Calibri', size: 11, family: 2 }, numFmt: '@' };

type Workbook = InstanceType<typeof WorkbookWriter>;
type Styles = (numFmt: string) => Partial<Style>;

function newWorkbook(sink: Writable): { workbook: Workbook; styleOf: Styles } {
  // useSharedStrings off: shared strings would hold every distinct text until the end.
  const workbook = new WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  workbook.creator = 'members';
  workbook.lastModifiedBy = 'members';
  // One style object per number format: exceljs recognises an object it has seen, where a new one costs a lookup per cell.
  const styles = new Map<string, Partial<Style>>();
  const styleOf = (numFmt: string) => {
    let style = styles.get(numFmt);
    if (!style) styles.set(numFmt, (style = { numFmt }));
    return style;
  };
  return { workbook, styleOf };
}

/** A sheet with its column widths and its bold, frozen header row (if any). */
function addSheet(workbook: Workbook, name: string, { headers, widths }: Pick<XlsxLayout, 'headers' | 'widths'>, pageSetup?: Partial<PageSetup>): Worksheet {
  const frozen = headers ? [{ state: 'frozen' as const, xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] : [];
  const added = workbook.addWorksheet(name, { views: frozen, pageSetup });
  // Before the first row is committed: <cols> comes ahead of the rows in the file.
  added.columns = widths.map((width) => ({ width }));
  if (headers) {
    const header = added.addRow([...headers]);
    header.eachCell((cell) => void (cell.style = HEADER_STYLE));
    header.commit();
  }
  return added;
}

function putRow(sheet: Worksheet, styleOf: Styles, values: readonly XlsxValue[], formats: readonly (string | undefined)[]): void {
  const row = sheet.addRow(values as XlsxValue[]);
  for (let i = 0; i < formats.length; i++) {
    const format = formats[i];
    if (format !== undefined && values[i] !== null) row.getCell(i + 1).style = styleOf(format);
  }
  // Committed at once: an uncommitted row stays in memory until the sheet ends.
  row.commit();
}

export function openXlsx(write: WriteBytes, layout: XlsxLayout): XlsxWriter {
  const rowsPerSheet = layout.rowsPerSheet ?? EXCEL_MAX_ROWS;
  const sink = byteSink(write);
  const { workbook, styleOf } = newWorkbook(sink);
  const failed = new Promise<never>((_, reject) => sink.once('error', reject));
  failed.catch(() => undefined);

  let sheets = 0;
  let rows = 0;
  const nextSheet = (): Worksheet => {
    sheets++;
    rows = layout.headers ? 1 : 0;
    return addSheet(workbook, sheets === 1 ? layout.name : `${layout.name} (${sheets})`, layout);
  };
  let sheet = nextSheet();

  return {
    row(values, formats) {
      if (rows === rowsPerSheet) {
        sheet.commit();
        sheet = nextSheet();
      }
      putRow(sheet, styleOf, values, formats);
      rows++;
    },
    // `failed` first: once the output has failed (a reader gone), no more pages are asked for.
    async drained() {
      const entry = zipEntryOf(sheet);
      await Promise.race([failed, entry?._writableState?.needDrain ? once(entry, 'drain') : undefined]);
    },
    async close() {
      sheet.commit();
      await Promise.race([failed, workbook.commit()]);
    },
    abort() {
      sink.stop();
      (workbook as unknown as { zip: { abort(): void } }).zip.abort();
    },
  };
}

/** One sheet of a workbook written whole (writeWorkbook). */
export interface XlsxSheet extends Pick<XlsxLayout, 'name' | 'headers' | 'widths'> {
  rows: ReadonlyArray<{ values: readonly XlsxValue[]; formats: readonly (string | undefined)[] }>;
  /** A 1-based column whose numbers get a data bar each, from 0 to `max`. */
  dataBar?: { column: number; max: number };
}

/**
 * A workbook of a few sheets held whole (a report's courses and its rows
 * per student), with a bar chart if asked: exceljs writes it into memory,
 * the chart's parts are added to that file (xlsx-chart.ts), then the bytes go out.
 */
/** The charted sheet prints a page wide, in landscape: the chart with its table. */
const PRINTED: Partial<PageSetup> = { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 };

export async function writeWorkbook(write: WriteBytes, sheets: readonly XlsxSheet[], chart?: BarChart): Promise<void> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const { workbook, styleOf } = newWorkbook(sink);
  const dataBars: DataBar[] = [];
  sheets.forEach((spec, index) => {
    const sheet = addSheet(workbook, spec.name, spec, chart?.sheet === index + 1 ? PRINTED : undefined);
    for (const { values, formats } of spec.rows) putRow(sheet, styleOf, values, formats);
    sheet.commit();
    const first = spec.headers ? 2 : 1;
    const column = spec.dataBar && columnLetters(spec.dataBar.column);
    if (spec.dataBar && spec.rows.length > 0) dataBars.push({ sheet: index + 1, ref: `${column}${first}:${column}${first + spec.rows.length - 1}`, max: spec.dataBar.max });
  });
  await workbook.commit();
  await write(await decorateWorkbook(Buffer.concat(chunks), { chart, dataBars }));
}

/**
 * The Writable exceljs writes the file into, over the output's bytes: it
 * waits for a slow reader, and after stop() drops what exceljs still has in
 * flight. Never stdout itself: exceljs ends the stream it is given, and waits
 * for a 'finish' that stdout never emits.
 */
function byteSink(write: WriteBytes): Writable & { stop(): void } {
  let stopped = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (stopped) return callback();
      const wait = write(chunk);
      if (wait) wait.then(() => callback(), callback);
      else callback();
    },
  });
  return Object.assign(sink, { stop: () => void (stopped = true) });
}

type Entry = Writable & { _writableState?: { needDrain?: boolean } };

/**
 * exceljs writes a sheet into its zip entry without heeding the entry's
 * backpressure (exceljs#734): a producer faster than deflate piled up the
 * whole uncompressed sheet (a 1,000,000-row report: 560 MB). The entry is the
 * PassThrough the sheet's stream pipes into; readable-stream 3 has no
 * writableNeedDrain, hence its state. exceljs 4.4.0's internals (pinned in
 * package.json): should they change, this finds nothing and the peak-RSS
 * test of test/e2e/xlsx-memory.test.ts fails.
 */
function zipEntryOf(sheet: Worksheet): Entry | undefined {
  const { stream } = sheet as unknown as { stream?: { pipes?: Entry[] } };
  return stream?.pipes?.[0];
}
