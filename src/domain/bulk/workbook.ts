/**
 * An xlsx workbook as input of the bulk commands and `members each`, known
 * by its bytes (a zip), not by its name: its first sheet's rows go through
 * the same reading as a CSV's (the header, repeated headers, the columns'
 * checks), numbered as the sheet numbers them, so that "line 7" is row 7 in
 * Excel. exceljs reads it in its own bundle (xlsx-sheet.ts), loaded only here.
 *
 * Files that only look like a spreadsheet (an old .xls, a password-protected
 * xlsx, an .ods, a CSV named .xlsx) are told apart from the first bytes and
 * refused with what to save them as.
 */
import { UsageError } from '../../lib/errors.js';
import { columnLetters } from '../../lib/column-letters.js';
import type { SheetRead } from './xlsx-sheet.js';

/** Local file header of a zip: every xlsx (and .ods, .docx…) starts so. */
const ZIP = Buffer.from('504b0304', 'hex');
/** An OLE2 compound file: Excel 97-2003 .xls, and any password-protected Office file. */
const OLE2 = Buffer.from('d0cf11e0a1b11ae1', 'hex');

const SAVE_AS = 'save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8" and try again';

export const isZip = (head: Buffer) => head.subarray(0, 4).equals(ZIP);

/** Refuses the files that are no CSV and no xlsx workbook but look like one (by their first bytes, or a .xlsx name). */
export function refuseOtherFiles(head: Buffer, source: string): void {
  if (head.subarray(0, 8).equals(OLE2)) {
    throw new UsageError(`${source} is an Excel 97-2003 workbook (.xls) or a password-protected one, which members does not read; ${SAVE_AS}`);
  }
  // An OpenDocument file's first zip entry is its `mimetype`, stored as it is.
  if (isZip(head) && head.subarray(30, 38).toString('latin1') === 'mimetype' && head.subarray(38, 90).toString('latin1').includes('opendocument')) {
    throw new UsageError(`${source} is an OpenDocument file (.ods), which members does not read; ${SAVE_AS}`);
  }
  if (!isZip(head) && /\.xlsx$/i.test(source)) {
    throw new UsageError(`${source} is named .xlsx but is not an xlsx workbook (it is no zip file); ${SAVE_AS}`);
  }
}

/** One row of the sheet as the CSV reading takes it: trimmed fields, its line, and what is wrong with it beside the header. */
export type RecordSink = (fields: string[], line: number, shape: (names: ReadonlyArray<string | undefined>) => string | undefined) => void;

/**
 * Reads the workbook's first sheet, giving each row to the sink that
 * `record` makes for the file's name in messages (with the sheet's when
 * there are several), which it returns.
 */
export async function readWorkbook(bytes: () => AsyncIterable<Buffer>, source: string, record: (described: string) => RecordSink): Promise<string> {
  const { readFirstSheet } = await import('./xlsx-sheet.js');
  let sink: RecordSink | undefined;
  let read;
  try {
    read = await readFirstSheet(bytes, (row, sheet) => {
      sink ??= record(describe(source, sheet));
      const fields = withoutTrailingBlanks(row.cells.map((cell) => cell.trim()));
      sink(fields, row.line, (names) => {
        const named = [...row.unreadable].find(([column]) => names[column] !== undefined);
        if (named) return `${names[named[0]] as string} (cell ${columnLetters(named[0] + 1)}${row.line}) ${named[1]}; fix it in the sheet`;
        if (fields.length <= names.length) return undefined;
        const column = columnLetters(fields.length);
        return `a value in column ${column} (cell ${column}${row.line}), beyond the header's ${names.length} columns; give the column a header, or clear the cell`;
      });
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${source} could not be read as an xlsx workbook (${(error as Error).message}); open it in Excel or LibreOffice and ${SAVE_AS}`);
  }
  if (!read) throw new UsageError(`${source} is a zip file but holds no xlsx worksheet; ${SAVE_AS}`);
  return describe(source, read);
}

const describe = (source: string, sheet: SheetRead) => (sheet.sheets > 1 ? `${source} (its first sheet, "${sheet.name}")` : source);

function withoutTrailingBlanks(fields: string[]): string[] {
  let end = fields.length;
  while (end > 0 && fields[end - 1] === '') end--;
  return fields.slice(0, end);
}
