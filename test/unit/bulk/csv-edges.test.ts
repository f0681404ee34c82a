/**
 * The bulk CSV reader beyond the common files (test/unit/bulk/csv.test.ts):
 * where the bytes come from, every header alias, delimiter detection at its
 * edges, the wording of each structural problem.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineCounter, parseCsv, readCsvRows, readCsvSource, type CsvInput } from '../../../src/domain/bulk/csv.js';
import type { CsvColumns } from '../../../src/domain/bulk/operations.js';
import { UsageError } from '../../../src/lib/errors.js';

const GRANT: CsvColumns = { required: ['student', 'product_id'], optional: ['accession_date', 'expiration_date'] };
const parse = (text: string, columns = GRANT) => parseCsv(Buffer.from(text), columns, 'f.csv');
const problem = (text: string, columns = GRANT) => parse(text, columns).then(() => 'parsed', (error: unknown) => {
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
});

describe('readCsvSource', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'members-csv-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const io = (stdin: string) => ({ cwd: dir, stdin: Object.assign(Readable.from([Buffer.from(stdin)]), { isTTY: false }) });

  /** All the bytes a reading of the input gives. */
  const text = async (input: CsvInput) => {
    const chunks: Buffer[] = [];
    for await (const chunk of input()) chunks.push(chunk);
    return Buffer.concat(chunks).toString();
  };

  it('reads - from stdin, and any other name as a file below the working directory; each reading starts again', async () => {
    writeFileSync(join(dir, 'rows.csv'), 'from the file');
    const stdin = await readCsvSource(io('from stdin'), '-');
    expect([await text(stdin), await text(stdin)]).toEqual(['from stdin', 'from stdin']);
    const file = await readCsvSource(io('from stdin'), 'rows.csv');
    expect([await text(file), await text(file)]).toEqual(['from the file', 'from the file']);
  });

  it('says why a file cannot be read, naming it as given', async () => {
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'plain'), '');
    await expect(readCsvSource(io(''), 'missing.csv')).rejects.toThrow(new UsageError('cannot read missing.csv: no such file'));
    await expect(readCsvSource(io(''), 'folder')).rejects.toThrow(new UsageError('cannot read folder: it is a directory'));
    await expect(readCsvSource(io(''), 'plain/rows.csv')).rejects.toThrow(/^cannot read plain\/rows\.csv: ENOTDIR: not a directory/);
  });
});

describe('parseCsv headers', () => {
  it.each([
    ['student.email,product_id', 'student'], ['student_id,product_id', 'student'], ['email,product_id', 'student'],
    ['student,product.title', 'product_id'], ['student,product,accession_date', 'product_id'],
  ])('reads %s as the bulk columns', async (header, column) => {
    const [row] = await parse(`${header}\na,b${header.split(',').length === 3 ? ',2025-01-01' : ''}\n`);
    expect(Object.keys(row?.values ?? {})).toContain(column);
    expect(row?.values.student).toBe('a');
    expect(row?.values.product_id).toBe('b');
  });

  it('keeps a column the operation itself names, even when it is also an alias', async () => {
    expect(await parse('email,first_name\na@x.co,Ana\n', { required: ['email', 'first_name'], optional: ['student'] }))
      .toEqual([{ line: 2, values: { email: 'a@x.co', first_name: 'Ana' } }]);
    // An alias whose column the operation does not have stays unknown, under its own name.
    expect(await problem('product,email\np1,a@x.co\n', { required: ['email'], optional: [] })).toMatch(/^f\.csv: unknown column "product" in the header/);
  });

  it('names an empty header cell, and says "column" or "columns"', async () => {
    expect(await problem('student,product_id,\ns1,p1,\n')).toMatch(/^f\.csv: unknown column \(empty\) in the header \(line 1\); /);
    expect(await problem('x,y\n', { required: ['a', 'b'], optional: [] })).toMatch(/^f\.csv: unknown columns "x", "y" in the header/);
    expect(await problem('accession_date\n')).toMatch(/^f\.csv: missing required columns student, product_id in the header \(line 1\); /);
  });

  it('reads a BOM before a quoted header cell', async () => {
    expect(await parse('\uFEFF"student","product_id"\ns1,p1\n')).toEqual([{ line: 2, values: { student: 's1', product_id: 'p1' } }]);
  });
});

describe('parseCsv delimiter', () => {
  it('is a comma when the header line has one, even beside a semicolon, and whatever the lines below hold', async () => {
    expect(await problem('student,"product;id"\n')).toMatch(/^f\.csv: unknown column "product;id" in the header/);
    expect(await parse('student;product_id\ns1;"a,b"\n')).toEqual([{ line: 2, values: { student: 's1', product_id: 'a,b' } }]);
  });

  it('looks at the whole input when there is no line end', async () => {
    expect(await problem('student,product_id;')).toMatch(/^f\.csv: unknown column "product_id;" in the header/);
  });

  it('is a comma for a header of one column without a semicolon', async () => {
    const rows = await parse('email\na,b\n', { required: ['email'], optional: [] });
    expect(rows).toEqual([{
      line: 2, values: { email: 'a' },
      problem: '2 fields where the header has 1 columns (a comma too many or too few, or a field that needs quotes?)',
    }]);
  });
});

describe('parseCsv rows', () => {
  it('keeps a row with one blank cell, and fills the cells a short row lacks with nothing', async () => {
    expect(await parse('student,product_id\ns1,\n')).toEqual([{ line: 2, values: { student: 's1', product_id: '' } }]);
    const [short] = await parse('student,product_id\ns1\n');
    expect(short?.values).toEqual({ student: 's1', product_id: '' });
  });

  it('says what is wrong with a quote, and on which line', async () => {
    expect(await problem('student,product_id\ns1,p1\ns2,p"2"\n'))
      .toBe('f.csv: line 3: a quote inside a field that is not quoted; quote the whole field and double the quote ("say ""hi""")');
    expect(await problem('student,product_id\n"s1"x,p1\n'))
      .toBe('f.csv: line 2: text after the closing quote of a field; a quote inside a quoted field is written twice ("")');
  });
});

describe('reading in chunks', () => {
  const COLUMNS = { required: ['student', 'product_id'], optional: ['accession_date'] };
  const FILE = 'student,product_id\r\n"a\r\nb",p1\r\r\nc,p2\rd,p3\n\ne;x,p4\r';
  /** The rows as read from the input split every `size` bytes. */
  async function rowsIn(bytes: Buffer, size: number) {
    const rows: Array<{ line: number; values: Record<string, string>; problem?: string }> = [];
    const input: CsvInput = async function* chunks() {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    };
    await readCsvRows(input, COLUMNS, 'rows.csv', (row) => void rows.push(row));
    return rows;
  }

  it('gives the same rows, lines included, however the bytes are split (a CRLF or a character across two chunks too)', async () => {
    const bytes = Buffer.from(`${FILE}Zoë,p5\n`);
    const whole = await parseCsv(bytes, COLUMNS, 'rows.csv');
    expect(whole.map((row) => row.line)).toEqual([2, 5, 6, 8, 9]);
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await rowsIn(bytes, size), `chunks of ${size}`).toEqual(whole);
  });

  it('a byte that is not UTF-8 in a later chunk, or a character cut at the very end, is the usage error of a whole file', async () => {
    await expect(rowsIn(Buffer.concat([Buffer.from('student,product_id\nmaria,p1\n'), Buffer.from([0xff, 0x0a])]), 4)).rejects.toThrow('rows.csv is not UTF-8 text');
    await expect(rowsIn(Buffer.concat([Buffer.from('student,product_id\nmaria,p1\n'), Buffer.from('ë').subarray(0, 1)]), 4)).rejects.toThrow('rows.csv is not UTF-8 text');
  });

  it('a structural error names its line, counted across chunks', async () => {
    await expect(rowsIn(Buffer.from('student,product_id\r\na,p1\r\n"b,p2\n'), 3)).rejects.toThrow(/^rows\.csv: line 3: a quoted field is never closed/);
  });

  it('an empty input is an empty file', async () => {
    await expect(rowsIn(Buffer.alloc(0), 4)).rejects.toThrow('rows.csv is empty');
  });
});

describe('LineCounter', () => {
  it('counts LF, CRLF and CR across chunks; a CR with nothing after it waits for the next byte, or the end', () => {
    const counter = new LineCounter();
    counter.push(Buffer.from('ab\r'));
    counter.push(Buffer.from('\ncd\r'));
    counter.push(Buffer.from('e\nf\r'));
    expect([0, 3, 4, 7, 7, 9].map((offset) => counter.lineAt(offset))).toEqual([1, 1, 2, 3, 3, 4]);
    expect(counter.lineAt(11)).toBe(4);
    counter.push(Buffer.from('\ng'));
    expect(counter.lineAt(12)).toBe(5);
    counter.push(Buffer.from('\r'));
    counter.end();
    expect(counter.lineAt(14)).toBe(6);
    expect(new LineCounter().lineAt(0)).toBe(1);
  });

  it('a CR at the very end counts once the input has ended', () => {
    const counter = new LineCounter();
    counter.push(Buffer.from('a\r'));
    counter.end();
    expect(counter.lineAt(2)).toBe(2);
  });
});
