/**
 * The CSV input of the bulk commands (contract §9.2): UTF-8 with or without a
 * BOM, LF, CRLF or CR line ends, RFC 4180 quoting (commas, quotes and line
 * breaks inside quoted fields), parsed by csv-parse. Header names are matched
 * case-insensitively after trimming; unknown or missing columns are usage
 * errors (exit 2) naming them and listing the allowed ones.
 *
 * Line numbers count physical lines of the file, the first being line 1. A
 * quoted field may hold line breaks, so a record's line is where it STARTS:
 * csv-parse reports where each record ends (`info.bytes`); the next record
 * starts there. (`info.lines` is not used: it is the line where a record ends,
 * and it counts a CRLF inside a quoted field as two lines.)
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import { readAllBytes } from '../../lib/read-input.js';
import { parseFileDate, plural, pluralWord } from '../../lib/values.js';
import { fold } from '../names.js';
import { isZip, readWorkbook, refuseOtherFiles } from './workbook.js';

/** The columns of a bulk CSV file, by (lower-case) header name. */
export interface CsvColumns {
  required: readonly string[];
  optional: readonly string[];
}

/** One data row: its line in the file and its cells by (lower-case) column name, each trimmed. */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/**
 * Where a CSV's bytes come from: read from the start each time it is called.
 * A file is read again from the disk, in chunks (a run checks it in one pass
 * and applies it in another, holding neither whole); stdin can be read once,
 * so its bytes are held.
 */
export type CsvInput = () => AsyncIterable<Buffer>;

/** `-` is stdin. The name for messages is `stdin` or the path as given. A file that cannot be read is a usage error now, not at the first pass. */
export async function readCsvSource(io: Pick<Io, 'stdin' | 'cwd'>, file: string): Promise<CsvInput> {
  if (file === '-') {
    const bytes = await readAllBytes(io.stdin);
    return async function* held() {
      yield bytes;
    };
  }
  const path = resolve(io.cwd, file);
  try {
    const handle = await open(path, 'r');
    const isDirectory = (await handle.stat()).isDirectory();
    await handle.close();
    if (isDirectory) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied'
      : (error as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
  return () => createReadStream(path, { highWaterMark: CHUNK_BYTES });
}

const CHUNK_BYTES = 1 << 20;

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

/**
 * parseCsv handing each row to `onRow` as it is read, holding none of them,
 * nor the file: the bytes flow through csv-parse chunk by chunk.
 */
export async function readCsvRows(
  input: Buffer | CsvInput, columns: CsvColumns, source: string, onRow: (row: CsvRow & { problem?: string }) => void, options: CsvOptions = {},
): Promise<HeaderReading> {
  const open = (): AsyncIterable<Buffer> => (Buffer.isBuffer(input) ? (async function* whole() {
    yield input;
  })() : input());
  const chunks = open()[Symbol.asyncIterator]();
  const { parse } = await import('csv-parse');
  const notUtf8 = () => new UsageError(`${source} is not UTF-8 text; save it as "CSV UTF-8" and try again`);
  // Checked as the bytes pass, never decoded into one string.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = (chunk: Buffer) => {
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8();
    }
  };
  const lines = new LineCounter();
  const first = await chunks.next();
  const head = first.done ? Buffer.alloc(0) : (first.value as Buffer);
  refuseOtherFiles(head, source);
  if (isZip(head)) {
    let records: RecordReader | undefined;
    // The bytes from the start: first those being read, then (a workbook read twice) the input again.
    let reading = true;
    const bytes = () => (reading ? ((reading = false), again(first, chunks)) : open());
    const described = await readWorkbook(bytes, source, (name) => {
      const reader = (records = new RecordReader({ columns, source: name, onRow, options }));
      return (fields, line, shape) => reader.record(fields, line, shape);
    });
    return records?.reading ?? emptyFile(described, columns);
  }
  // Excel and LibreOffice in pt-BR save "CSV" with semicolons: a header with a ; and no , is read that way,
  // and every error about the file's structure says so.
  const separator = semicolonSeparated(head) ? ';' : ',';
  const readAs = separator === ';' ? ' (read as a ;-separated file, as Excel and LibreOffice save CSV in Portuguese)' : '';
  const records = new RecordReader({ columns, source: `${source}${readAs}`, onRow, options });
  let end = 0;
  const parser = parse({
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
      records.record(fields, lines.lineAt(start), (names) => (fields.length === names.length ? undefined
        : `${plural(fields.length, 'field')} where the header has ${names.length} columns (${separator === ';' ? 'a semicolon' : 'a comma'} too many or too few, or a field that needs quotes?)`));
      return null;
    },
  });
  async function* feed(): AsyncGenerator<Buffer> {
    for (let next = first; !next.done; next = await chunks.next()) {
      const chunk = next.value as Buffer;
      check(chunk);
      lines.push(chunk);
      yield chunk;
    }
    try {
      decoder.decode();
    } catch {
      throw notUtf8();
    }
    lines.end();
  }
  try {
    await pipeline(feed(), parser, new Writable({ objectMode: true, write: (_record, _encoding, done) => done() }));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${source}: line ${lines.lineAt(end)}: ${csvProblem(error)}${readAs}`);
  }
  return records.reading ?? emptyFile(source, columns);
}

/** The bytes again from the start, the first chunk having been read to know what the file is. */
async function* again(first: IteratorResult<Buffer>, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  for (let next = first; !next.done; next = await rest.next()) yield next.value;
}

function emptyFile(source: string, columns: CsvColumns): never {
  throw new UsageError(`${source} is empty: expected a header row with the columns ${describeColumns(columns)}`);
}

interface RowReading {
  columns: CsvColumns;
  /** The file's name for messages, with how it was read. */
  source: string;
  onRow: (row: CsvRow & { problem?: string }) => void;
  options: CsvOptions;
}

/**
 * The rows of a file, CSV or workbook, once split into trimmed fields and
 * left out when blank: the first is the header; a header again inside the
 * file (two exports joined) is skipped and told; each other is a row.
 */
class RecordReader {
  reading: HeaderReading | undefined;
  private names: Array<string | undefined> | undefined;
  private header = '';

  constructor(private readonly from: RowReading) {}

  /** `shape`: what is wrong with the row's cells beside the header's names (a field too many…), if anything. */
  record(fields: string[], line: number, shape: (names: ReadonlyArray<string | undefined>) => string | undefined): void {
    const { columns, source, onRow, options } = this.from;
    const key = fields.map(headerKey).join('\0');
    if (this.names && key === this.header) options.onRepeatedHeader?.(line);
    else if (this.names) onRow(row(this.names, fields, line, shape(this.names)));
    else {
      this.header = key;
      ({ names: this.names, reading: this.reading } = readHeader(fields, columns, source, options, line));
      options.onHeader?.(this.reading);
    }
  }
}

export interface CsvOptions {
  /** `--ignore-extra-columns`: columns that are no bulk column are left out (and listed) instead of refused. */
  ignoreExtra?: boolean;
  /** Told how the header was read as soon as it is, before any row. */
  onHeader?: (reading: HeaderReading) => void;
  /** Told the line of each header line found again inside the file (skipped: an export that arrived twice). */
  onRepeatedHeader?: (line: number) => void;
  /** `members each`: every column is read under its own header, as written (none is required, none unknown). */
  anyColumns?: boolean;
}

/**
 * onRepeatedHeader for CsvOptions: each header line found again inside the
 * file is told once (`the header of F was found again at line 1202 and
 * skipped…`), however many times the file is read.
 */
export function tellRepeatedHeaders(source: string, tell: (notice: string) => void): (line: number) => void {
  const told = new Set<number>();
  return (line) => {
    if (told.has(line)) return;
    told.add(line);
    tell(`the header of ${source} was found again at line ${line} and skipped (an export that arrived twice?)`);
  };
}

/** How the header was read: each column as written in the file, and the bulk column it was read as (none: ignored). */
export interface HeaderReading {
  columns: Array<{ header: string; as?: string }>;
}

/** A header as people type it: case, accents, spaces, `-`, `_` and `.` do not count (`E-mail`, `Data da compra`, `student.email`). */
export const headerKey = (name: string) => fold(name).replace(/[\s_.-]/g, '');

/**
 * Other names of the bulk columns, by headerKey: what members itself exports
 * (`--fields student.email,product_id -o csv`), and the headers of Portuguese
 * and common spreadsheet exports. Each names the columns it may be read as, in
 * order; when two columns of a file claim one bulk column, the name listed
 * first here wins (an e-mail before a CPF before a name).
 */
const HEADER_ALIASES: Record<string, readonly string[]> = {
  studentemail: ['student'], email: ['student'], studentid: ['student'], cpf: ['student', 'document'], documento: ['student', 'document'],
  aluno: ['student'], aluna: ['student'],
  producttitle: ['product_id'], product: ['product_id'], produto: ['product_id'], curso: ['product_id'],
  datadacompra: ['accession_date'], datadeinicio: ['accession_date'], adesao: ['accession_date'], datadeadesao: ['accession_date'],
  validoate: ['expiration_date'], validade: ['expiration_date'], expiraem: ['expiration_date'], datadeexpiracao: ['expiration_date'],
};
const ALIAS_RANK = new Map(Object.keys(HEADER_ALIASES).map((key, index) => [key, index]));

/**
 * The bulk column each column of the header is read as (undefined: ignored
 * with --ignore-extra-columns). Unknown columns, two columns read as one, and
 * missing required columns are usage errors naming them.
 */
function readHeader(fields: string[], columns: CsvColumns, source: string, options: CsvOptions, line: number): { names: Array<string | undefined>; reading: HeaderReading } {
  if (options.anyColumns) return { names: fields, reading: { columns: fields.map((header) => ({ header, as: header })) } };
  const allowed: readonly string[] = [...columns.required, ...columns.optional];
  const exact = new Map(allowed.map((name) => [headerKey(name), name]));
  const claims = fields.map((field) => {
    const key = headerKey(field);
    const name = exact.get(key);
    if (name !== undefined) return { as: name, rank: -1 };
    const as = HEADER_ALIASES[key]?.find((column) => allowed.includes(column));
    return as === undefined ? undefined : { as, rank: ALIAS_RANK.get(key) as number };
  });
  const names = claims.map((claim) => claim?.as);
  const allowedText = `the columns are ${describeColumns(columns)} (in any order; case, accents and spaces ignored; Portuguese headers too: see \`members help bulk\`)`;
  const extra = options.ignoreExtra ? '' : '; or pass --ignore-extra-columns to ignore them';
  const unknown = fields.filter((_, index) => claims[index] === undefined);
  if (unknown.length > 0 && !options.ignoreExtra) {
    const list = unknown.map((name) => (name === '' ? '(empty)' : JSON.stringify(name))).join(', ');
    const mixed = unknown.some((name) => name.includes(';')) ? '; the header mixes , and ; as separators: use one of them' : '';
    throw new UsageError(`${source}: unknown ${pluralWord(unknown.length, 'column')} ${list} in the header (line ${line}); ${allowedText}${mixed || extra}`);
  }
  for (const column of allowed) {
    const claiming = claims.flatMap((claim, index) => (claim?.as === column ? [{ index, rank: claim.rank }] : []));
    if (claiming.length < 2) continue;
    const best = Math.min(...claiming.map((claim) => claim.rank));
    const winners = claiming.filter((claim) => claim.rank === best);
    if (winners.length > 1) throw new UsageError(`${source}: column ${JSON.stringify(column)} appears more than once in the header (line ${line})`);
    const winner = winners[0] as { index: number; rank: number };
    const others = claiming.filter((claim) => claim !== winner);
    if (!options.ignoreExtra) {
      const quoted = (claim: { index: number }) => JSON.stringify(fields[claim.index]);
      throw new UsageError(`${source}: ${[winner, ...others].map(quoted).join(' and ')} would ${others.length === 1 ? 'both' : 'all'} be read as ${column} (line ${line}); keep one of them, `
        + `or pass --ignore-extra-columns to read ${quoted(winner)} and ignore ${others.map(quoted).join(' and ')}`);
    }
    for (const claim of others) names[claim.index] = undefined;
  }
  const missing = columns.required.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new UsageError(`${source}: missing required ${pluralWord(missing.length, 'column')} ${missing.join(', ')} in the header (line ${line}); ${allowedText}`);
  }
  return { names, reading: { columns: fields.map((header, index) => ({ header, as: names[index] })) } };
}

/**
 * `Columns of sales.csv: "E-mail" as student, "Produto" as product_id; ignored: "Nome", "Valor"`,
 * when a column was read under another name or ignored; undefined when the header is the bulk columns themselves.
 */
export function describeHeader(reading: HeaderReading, source: string): string | undefined {
  const renamed = reading.columns.some(({ header, as }) => as === undefined || header.trim().toLowerCase() !== as);
  if (!renamed) return undefined;
  const read = reading.columns.flatMap(({ header, as }) => (as === undefined ? [] : [`${JSON.stringify(header)} as ${as}`]));
  const ignored = reading.columns.flatMap(({ header, as }) => (as === undefined ? [header === '' ? '(empty)' : JSON.stringify(header)] : []));
  return `Columns of ${source}: ${read.join(', ')}${ignored.length > 0 ? `; ignored (--ignore-extra-columns): ${ignored.join(', ')}` : ''}`;
}

function row(names: ReadonlyArray<string | undefined>, fields: string[], line: number, shape: string | undefined): CsvRow & { problem?: string } {
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    if (name !== undefined) values[name] = fields[index] ?? '';
  });
  // A NUL or an escape in a cell is never data: it would be sent to the server, and printed back to a terminal.
  const controlled = Object.keys(values).find((name) => CONTROL.test(values[name] as string));
  if (controlled !== undefined) {
    return { line, values, problem: `${controlled} holds a control character (NUL, ESC…); remove it from the file` };
  }
  return shape === undefined ? { line, values } : { line, values, problem: shape };
}

function semicolonSeparated(input: Buffer): boolean {
  const end = input.indexOf(10);
  const first = input.subarray(0, end === -1 ? input.length : end).toString('utf8');
  return first.includes(';') && !first.includes(',');
}

// Controls other than tab (cells are trimmed, and a quoted cell may hold a line break).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A date cell as YYYY-MM-DD (the file may say DD/MM/YYYY); undefined when blank. An impossible date is a usage error naming the column. */
export function dateCell(values: Record<string, string>, column: string): string | undefined {
  const cell = values[column] ?? '';
  return cell === '' ? undefined : parseFileDate(cell, column);
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

/**
 * Offset → line number as the bytes pass: the line holding each record's
 * first byte, counting LF, CRLF and CR line ends. Offsets only grow; the
 * chunks behind the last one asked about are let go.
 */
export class LineCounter {
  private readonly chunks: Buffer[] = [];
  /** Offset of chunks[0] in the file. */
  private base = 0;
  /** The next byte to look at, and the line it is on. */
  private at = 0;
  private line = 1;
  private ended = false;

  push(chunk: Buffer): void {
    if (chunk.length > 0) this.chunks.push(chunk);
  }

  /** No more bytes: a CR at the very end is a line end of its own. */
  end(): void {
    this.ended = true;
  }

  lineAt(offset: number): number {
    let start = this.base;
    for (let index = 0; index < this.chunks.length && this.at < offset; index++) {
      const chunk = this.chunks[index] as Buffer;
      const stop = Math.min(offset, start + chunk.length) - start;
      for (let i = this.at - start; i < stop; i++) {
        const byte = chunk[i];
        if (byte === LF) this.line++;
        else if (byte === CR) {
          const next = i + 1 < chunk.length ? chunk[i + 1] : this.chunks[index + 1]?.[0];
          // A CR with nothing after it yet: a CRLF or not, the next byte will tell.
          if (next === undefined && !this.ended) {
            this.at = start + i;
            return this.line;
          }
          if (next !== LF) this.line++;
        }
      }
      this.at = Math.max(this.at, start + stop);
      start += chunk.length;
    }
    this.release();
    return this.line;
  }

  /** Drops the chunks wholly behind the next byte to look at (one byte kept for a CR's look-ahead). */
  private release(): void {
    while (this.chunks.length > 1 && this.base + (this.chunks[0] as Buffer).length < this.at) {
      this.base += (this.chunks.shift() as Buffer).length;
    }
  }
}

const LF = 0x0a;
const CR = 0x0d;
