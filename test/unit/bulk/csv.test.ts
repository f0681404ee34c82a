import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/domain/bulk/csv.js';
import type { CsvColumns } from '../../../src/domain/bulk/operations.js';
import { UsageError } from '../../../src/lib/errors.js';

const GRANT: CsvColumns = { required: ['student', 'product_id'], optional: ['accession_date', 'expiration_date'] };

const parse = (text: string | Buffer, columns = GRANT) => parseCsv(Buffer.from(text), columns, 'grants.csv');

async function usageError(text: string | Buffer, columns = GRANT): Promise<string> {
  const error = await parse(text, columns).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('parseCsv', () => {
  it('reads LF rows, trimming cells, with the header as line 1', async () => {
    expect(await parse('student,product_id\n a@x.io , p1 \ns2,p2\n')).toEqual([
      { line: 2, values: { student: 'a@x.io', product_id: 'p1' } },
      { line: 3, values: { student: 's2', product_id: 'p2' } },
    ]);
  });

  it('drops a UTF-8 BOM and reads CRLF line ends; no newline at the end is fine', async () => {
    expect(await parse('\uFEFFstudent,product_id\r\ns1,p1\r\ns2,p2')).toEqual([
      { line: 2, values: { student: 's1', product_id: 'p1' } },
      { line: 3, values: { student: 's2', product_id: 'p2' } },
    ]);
  });

  it('matches header names case-insensitively after trimming, in any order', async () => {
    expect(await parse(' Product_ID ,STUDENT,Expiration_Date\np1,s1,2025-01-01\n')).toEqual([
      { line: 2, values: { product_id: 'p1', student: 's1', expiration_date: '2025-01-01' } },
    ]);
  });

  it('reads quoted commas, doubled quotes and line breaks, and numbers each row by the line it starts on', async () => {
    const text = [
      'student,product_id',
      '"doc:1,5","p ""one"""',
      '"ref:multi',
      'line',
      'key",p2',
      's3,p3',
    ].join('\r\n');
    expect(await parse(text)).toEqual([
      { line: 2, values: { student: 'doc:1,5', product_id: 'p "one"' } },
      { line: 3, values: { student: 'ref:multi\r\nline\r\nkey', product_id: 'p2' } },
      { line: 6, values: { student: 's3', product_id: 'p3' } },
    ]);
  });

  it('skips blank lines and all-blank rows (spreadsheets add `,,`) without losing count', async () => {
    expect(await parse('student,product_id\n\ns1,"a\n\nb"\n,\n  \ns2,p2\n\n')).toEqual([
      { line: 3, values: { student: 's1', product_id: 'a\n\nb' } },
      { line: 8, values: { student: 's2', product_id: 'p2' } },
    ]);
  });

  it('takes LF, CRLF and CR line ends mixed in one file', async () => {
    expect((await parse('student,product_id\r\ns1,p1\ns2,p2\rs3,p3\r\n')).map((row) => [row.line, row.values.student])).toEqual([
      [2, 's1'], [3, 's2'], [4, 's3'],
    ]);
  });

  it('keeps a row with too many or too few fields, with the problem, so every row is reported', async () => {
    const rows = await parse('student,product_id\ns1,p1,extra\ns2\n');
    expect(rows.map((row) => [row.line, row.problem])).toEqual([
      [2, '3 fields where the header has 2 columns (a comma too many or too few, or a field that needs quotes?)'],
      [3, '1 field where the header has 2 columns (a comma too many or too few, or a field that needs quotes?)'],
    ]);
  });

  it('names unknown columns and lists the allowed ones', async () => {
    expect(await usageError('student,product_id,price,Notes\ns1,p1,x\n')).toBe(
      'grants.csv: unknown columns "price", "notes" in the header (line 1); the columns are '
      + 'student,product_id[,accession_date][,expiration_date] (in any order, header names case-insensitive)',
    );
  });

  it('names missing required columns', async () => {
    expect(await usageError('Student\ns1\n')).toBe(
      'grants.csv: missing required column product_id in the header (line 1); the columns are '
      + 'student,product_id[,accession_date][,expiration_date] (in any order, header names case-insensitive)',
    );
  });

  it('refuses a column named twice, an empty file, a BOM alone', async () => {
    expect(await usageError('student,product_id,STUDENT\n')).toBe('grants.csv: column "student" appears more than once in the header (line 1)');
    const empty = 'grants.csv is empty: expected a header row with the columns student,product_id[,accession_date][,expiration_date]';
    expect(await usageError('')).toBe(empty);
    expect(await usageError('\uFEFF\r\n\r\n')).toBe(empty);
  });

  it('names the line of a quote that is never closed', async () => {
    expect(await usageError('student,product_id\r\ns1,p1\r\ns2,"p2\r\ns3,p3\r\n')).toBe('grants.csv: line 3: a quoted field is never closed (a " is missing)');
  });

  it('refuses text that is not UTF-8 (a Latin-1 export)', async () => {
    expect(await usageError(Buffer.from([0x73, 0x74, 0x75, 0x64, 0x65, 0x6e, 0x74, 0x0a, 0x4a, 0x6f, 0xe3, 0x6f, 0x0a]))).toBe(
      'grants.csv is not UTF-8 text; save it as "CSV UTF-8" and try again',
    );
  });
});

describe('control characters in a cell', () => {
  it('a NUL or an ESC makes the row invalid, naming the column; tabs and quoted line breaks are data', async () => {
    const rows = await parseCsv(Buffer.from('student,product_id\ns1\u0000,p1\ns2,\u001b[2Jp1\n"s3\nx",p1\ns4,p\t1\n'), GRANT, 'f.csv');
    expect(rows.map((row) => row.problem)).toEqual([
      'student holds a control character (NUL, ESC…); remove it from the file',
      'product_id holds a control character (NUL, ESC…); remove it from the file',
      undefined,
      undefined,
    ]);
  });
});

describe('files from members itself and from spreadsheets', () => {
  it('reads its own export back: student.email,product_id (and student.id, product.id)', async () => {
    const rows = await parseCsv(Buffer.from('student.email,product_id\nana@x.co,p1\n'), GRANT, 'f.csv');
    expect(rows).toEqual([{ line: 2, values: { student: 'ana@x.co', product_id: 'p1' } }]);
    const ids = await parseCsv(Buffer.from('student.id,product.id\ns1,p1\n'), GRANT, 'f.csv');
    expect(ids[0]?.values).toEqual({ student: 's1', product_id: 'p1' });
  });

  it('reads a semicolon-separated file, as Excel and LibreOffice save CSV in pt-BR', async () => {
    const rows = await parseCsv(Buffer.from('student;product_id;accession_date\r\n070.692.055-46;Python Pro;2025-03-01\r\n'), GRANT, 'f.csv');
    expect(rows).toEqual([{ line: 2, values: { student: '070.692.055-46', product_id: 'Python Pro', accession_date: '2025-03-01' } }]);
  });

  it('says a file was read as ;-separated when its header or a row is wrong', async () => {
    await expect(parse('aluno;produto\nana@x.co;p1\n')).rejects.toThrow(
      'grants.csv (read as a ;-separated file, as Excel and LibreOffice save CSV in Portuguese): unknown columns "aluno", "produto" in the header (line 1)',
    );
    const [row] = await parse('student;product_id\nana@x.co;p1;2025-01-01\n');
    expect(row?.problem).toBe('3 fields where the header has 2 columns (a semicolon too many or too few, or a field that needs quotes?)');
    await expect(parse('student;product_id\n"ana@x.co;p1\n')).rejects.toThrow(/never closed.*\(read as a ;-separated file/);
  });

  it('a header that mixes , and ; says so', async () => {
    await expect(parse('student;product_id,accession_date\nana@x.co;p1,2025-01-01\n')).rejects.toThrow(
      /unknown column "student;product_id" in the header \(line 1\); the columns are .*; the header mixes , and ; as separators: use one of them$/,
    );
  });
});
