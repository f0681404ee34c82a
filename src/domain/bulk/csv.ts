/**
 * The CSV input of the bulk commands (contract §5): UTF-8 with or without a
 * BOM, LF, CRLF or CR line ends, RFC 4180 quoting (commas, quotes and line
 * breaks inside quoted fields), parsed by csv-parse. Header names are matched
 * case-insensitively after trimming; unknown or missing columns are usage
 * errors (exit 2) naming them and listing the allowed ones.
 *
 * Line numbers count physical lines of the file, the header being line 1. A
 * quoted field may hold line breaks, so a record's line is where it STARTS:
 * csv-parse reports where each record ends (`info.bytes`); the next record
 * starts there. (`info.lines` is not used: it is the line where a record ends,
 * and it counts a CRLF inside a quoted field as two lines.)
 */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import type { CsvColumns } from './operations.js';
import { readAllBytes } from '../../lib/read-input.js';
import { plural, pluralWord } from '../../lib/values.js';

/** One data row: its line in the file and its cells by (lower-case) column name, each trimmed. */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/** `-` is stdin. The name for messages is `stdin` or the path as given. */
export async function readCsvSource(io: Pick<Io, 'stdin' | 'cwd'>, file: string): Promise<Buffer> {
  if (file === '-') return readAllBytes(io.stdin);
  try {
    return await readFile(resolve(io.cwd, file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied'
      : (error as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
}

/** `student,product_id[,accession_date][,expiration_date]` */
export function describeColumns(columns: CsvColumns): string {
  return columns.required.join(',') + columns.optional.map((name) => `[,${name}]`).join('');
}

/**
 * Parses the whole input. Structural problems (not UTF-8, no header, bad
 * columns, a quote never closed…) are UsageErrors: no row can be trusted.
 * Rows whose cells are all blank (blank lines, `,,` from spreadsheets) are
 * left out. A row with another number of fields than the header is kept with
 * `problem` set, so that every row's problems can be reported together.
 */
export async function parseCsv(input: Buffer, columns: CsvColumns, source: string): Promise<Array<CsvRow & { problem?: string }>> {
  const rows: Array<CsvRow & { problem?: string }> = [];
  await readCsvRows(input, columns, source, (row) => void rows.push(row));
  return rows;
}

/** parseCsv handing each row to `onRow` as it is read, holding none: a bulk run plans it at once. */
export async function readCsvRows(input: Buffer, columns: CsvColumns, source: string, onRow: (row: CsvRow & { problem?: string }) => void): Promise<void> {
  // isUtf8 checks the bytes where they lie: decoding a 60 MB file to test it made a 120 MB string.
  if (!isUtf8(input)) throw new UsageError(`${source} is not UTF-8 text; save it as "CSV UTF-8" and try again`);
  const { parse } = await import('csv-parse/sync');
  const lines = lineIndex(input);
  // One pass: each record becomes its row at once, and the caller's row (a plan) at once too.
  let names: string[] | undefined;
  let end = 0;
  // Excel and LibreOffice in pt-BR save "CSV" with semicolons: a header with a ; and no , is read that way,
  // and every error about the file's structure says so.
  const separator = semicolonSeparated(input) ? ';' : ',';
  const readAs = separator === ';' ? ' (read as a ;-separated file, as Excel and LibreOffice save CSV in Portuguese)' : '';
  try {
    parse(input, {
      bom: true,
      delimiter: separator,
      relax_column_count: true,
      // Any line end, also mixed in one file; csv-parse would otherwise keep to the first one it sees.
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (raw: string[], context) => {
        // Blank lines come through as records too, so each record starts where the previous one ended.
        const start = end;
        end = context.bytes;
        const fields = raw.map((field) => field.trim());
        if (fields.every((field) => field === '')) return null;
        if (names) onRow(row(names, fields, lines.lineAt(start), separator));
        else names = headerNames(fields, columns, source, readAs);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${source}: line ${lines.lineAt(end)}: ${csvProblem(error)}${readAs}`);
  }
  if (!names) throw new UsageError(`${source} is empty: expected a header row with the columns ${describeColumns(columns)}`);
}

/** The header's column names; what members itself exports (`--fields student.email,product_id -o csv`) is read back as it is. */
function headerNames(fields: string[], columns: CsvColumns, source: string, readAs: string): string[] {
  const allowed: readonly string[] = [...columns.required, ...columns.optional];
  const names = fields.map((field) => {
    const name = field.toLowerCase();
    const alias = HEADER_ALIASES[name];
    return !allowed.includes(name) && alias !== undefined && allowed.includes(alias) ? alias : name;
  });
  checkHeader(names, columns, `${source}${readAs}`);
  return names;
}

function row(names: string[], fields: string[], line: number, separator: string): CsvRow & { problem?: string } {
  const values: Record<string, string> = {};
  names.forEach((name, index) => (values[name] = fields[index] ?? ''));
  // A NUL or an escape in a cell is never data: it would be sent to the server, and printed back to a terminal.
  // Stryker disable next-line StringLiteral: equivalent, every name was just given a value.
  const controlled = names.find((name) => CONTROL.test(values[name] ?? ''));
  if (controlled !== undefined) {
    return { line, values, problem: `${controlled} holds a control character (NUL, ESC…); remove it from the file` };
  }
  if (fields.length === names.length) return { line, values };
  return { line, values, problem: `${plural(fields.length, 'field')} where the header has ${names.length} columns (${separator === ';' ? 'a semicolon' : 'a comma'} too many or too few, or a field that needs quotes?)` };
}

/** Column names of members' own exports, as the bulk columns they mean. */
const HEADER_ALIASES: Record<string, string> = {
  'student.email': 'student', 'student.id': 'student', student_id: 'student', email: 'student',
  'product.id': 'product_id', product: 'product_id', 'product.title': 'product_id',
};

function semicolonSeparated(input: Buffer): boolean {
  const end = input.indexOf(10);
  const first = input.subarray(0, end === -1 ? input.length : end).toString('utf8');
  return first.includes(';') && !first.includes(',');
}

// Controls other than tab (cells are trimmed, and a quoted cell may hold a line break).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function checkHeader(names: string[], columns: CsvColumns, source: string): void {
  const allowed = [...columns.required, ...columns.optional];
  const allowedText = `the columns are ${describeColumns(columns)} (in any order, header names case-insensitive)`;
  const unknown = names.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) {
    const list = unknown.map((name) => (name === '' ? '(empty)' : JSON.stringify(name))).join(', ');
    const mixed = unknown.some((name) => name.includes(';')) ? '; the header mixes , and ; as separators: use one of them' : '';
    throw new UsageError(`${source}: unknown ${pluralWord(unknown.length, 'column')} ${list} in the header (line 1); ${allowedText}${mixed}`);
  }
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) {
    throw new UsageError(`${source}: column ${JSON.stringify(repeated[0])} appears more than once in the header (line 1)`);
  }
  const missing = columns.required.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new UsageError(`${source}: missing required ${pluralWord(missing.length, 'column')} ${missing.join(', ')} in the header (line 1); ${allowedText}`);
  }
}

/** What csv-parse found wrong, in the words of someone fixing a spreadsheet export. */
function csvProblem(error: unknown): string {
  switch ((error as { code?: string }).code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a " is missing)';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside a field that is not quoted; quote the whole field and double the quote ("say ""hi""")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text after the closing quote of a field; a quote inside a quoted field is written twice ("")';
    default:
      return `not valid CSV: ${(error as Error).message}`;
  }
}

/** Where each line starts (byte offsets), for offset → line number. */
function lineIndex(input: Buffer): { lineAt(offset: number): number } {
  const starts = [0];
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    if (byte === LF || (byte === CR && input[i + 1] !== LF)) starts.push(i + 1);
  }
  return {
    lineAt(offset) {
      // The last line start at or before offset.
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if ((starts[mid] as number) <= offset) low = mid;
        else high = mid - 1;
      }
      return low + 1;
    },
  };
}

const LF = 0x0a;
const CR = 0x0d;
