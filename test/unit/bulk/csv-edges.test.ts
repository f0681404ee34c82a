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
import { parseCsv, readCsvSource } from '../../../src/domain/bulk/csv.js';
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

  it('reads - from stdin, and any other name as a file below the working directory', async () => {
    writeFileSync(join(dir, 'rows.csv'), 'from the file');
    expect((await readCsvSource(io('from stdin'), '-')).toString()).toBe('from stdin');
    expect((await readCsvSource(io('from stdin'), 'rows.csv')).toString()).toBe('from the file');
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
