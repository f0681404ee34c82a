/**
 * Types for the exceljs modules src/domain/bulk/xlsx-sheet.ts imports (exceljs types only its index): its
 * streaming workbook reader, as far as the sheet's rows and cells are read, and its date-format test.
 */
declare module 'exceljs/lib/stream/xlsx/workbook-reader.js' {
  import type { Readable } from 'node:stream';

  interface StreamedCell {
    /** A string, number, boolean, Date, `{ formula, result }`, `{ richText }`, `{ error }`, or null. */
    readonly value: unknown;
    /** The cell's number format, when it has a style. */
    readonly numFmt: string | undefined;
  }
  interface StreamedRow {
    /** The row's number in the sheet, 1 for the first. */
    readonly number: number;
    eachCell(callback: (cell: StreamedCell, column: number) => void): void;
  }
  interface StreamedSheet extends AsyncIterable<StreamedRow> {
    /** The sheet's tab name, when the workbook named it. */
    readonly name: string;
  }
  class WorkbookReader implements AsyncIterable<StreamedSheet> {
    constructor(input: Readable, options: { worksheets: 'emit'; sharedStrings: 'cache' | 'ignore'; hyperlinks: 'ignore'; styles: 'cache' | 'ignore'; entries: 'emit' });
    /** The sheets in tab order, once xl/workbook.xml has been read. */
    model: { sheets?: Array<{ name: string }> } | undefined;
    /** Whether the workbook counts its dates from 1904 (old Mac Excel). */
    properties: { model?: { date1904?: boolean } } | undefined;
    /** The cells' styles (their number formats), once xl/styles.xml has been read. */
    styles: unknown;
    /** The texts of the cells that share them, once xl/sharedStrings.xml has been read. */
    sharedStrings: unknown[] | undefined;
    /** The workbook's relationships (which file is which sheet), once xl/_rels/workbook.xml.rels has been read. */
    workbookRels: unknown[] | undefined;
    /** Each part of the workbook as its reading starts: `workbook`, `styles`, `shared-strings`, `worksheet`. */
    on(event: 'entry', listener: (entry: { type: string }) => void): this;
    [Symbol.asyncIterator](): AsyncIterator<StreamedSheet>;
  }
  export = WorkbookReader;
}

declare module 'exceljs/lib/utils/utils.js' {
  const utils: {
    isDateFmt(format: string | undefined): boolean;
    excelToDate(serial: number, date1904?: boolean): Date;
  };
  export = utils;
}
