import { describe, expect, it } from 'vitest';
import { dateCell, describeHeader, parseCsv, readCsvRows } from '../../../src/domain/bulk/csv.js';
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
      'grants.csv: unknown columns "price", "Notes" in the header (line 1); the columns are '
      + 'student,product_id[,accession_date][,expiration_date] (in any order; case, accents and spaces ignored; Portuguese headers too: '
      + 'see `members help bulk`); or pass --ignore-extra-columns to ignore them',
    );
  });

  it('names missing required columns', async () => {
    expect(await usageError('Student\ns1\n')).toBe(
      'grants.csv: missing required column product_id in the header (line 1); the columns are '
      + 'student,product_id[,accession_date][,expiration_date] (in any order; case, accents and spaces ignored; Portuguese headers too: see `members help bulk`)',
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
    await expect(parse('Aluno;Nome;Produto;Valor\nana@x.co;Ana;p1;10\n')).rejects.toThrow(
      'grants.csv (read as a ;-separated file, as Excel and LibreOffice save CSV in Portuguese): unknown columns "Nome", "Valor" in the header (line 1)',
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

describe('Portuguese and common export headers (issue 30)', () => {
  const read = async (text: string, options = {}) => {
    const rows: unknown[] = [];
    const header = await readCsvRows(Buffer.from(text), GRANT, 'vendas.csv', (row) => void rows.push(row), options);
    return { rows, header, described: describeHeader(header, 'vendas.csv') };
  };

  it.each([
    ['CPF;Produto;Data da compra;Válido até', ['student', 'product_id', 'accession_date', 'expiration_date']],
    ['E-mail,Curso,Data de início,Validade', ['student', 'product_id', 'accession_date', 'expiration_date']],
    ['EMAIL;PRODUCT;ADESÃO;Expira em', ['student', 'product_id', 'accession_date', 'expiration_date']],
    ['Aluno;produto;data de inicio;Data de Expiração', ['student', 'product_id', 'accession_date', 'expiration_date']],
    ['Documento , Produto', ['student', 'product_id']],
  ])('%s is read as the bulk columns, case, accents and spaces aside', async (header, columns) => {
    const { header: reading } = await read(`${header}\n`);
    expect(reading.columns.map((column) => column.as)).toEqual(columns);
  });

  it('the header line says which column was read as what; the bulk names themselves say nothing', async () => {
    const { described, rows } = await read('E-mail;Produto;Data da compra\nana@x.co;Python;05/03/2026\n');
    expect(described).toBe('Columns of vendas.csv: "E-mail" as student, "Produto" as product_id, "Data da compra" as accession_date');
    expect(rows).toEqual([{ line: 2, values: { student: 'ana@x.co', product_id: 'Python', accession_date: '05/03/2026' } }]);
    expect((await read('Student,PRODUCT_ID\n')).described).toBeUndefined();
  });

  it('extra columns (Nome, Valor) are refused, or with --ignore-extra-columns left out and listed', async () => {
    await expect(read('Nome;E-mail;Produto;Valor\nAna;ana@x.co;p1;10\n')).rejects.toThrow(/unknown columns "Nome", "Valor" in the header .*--ignore-extra-columns/);
    const { rows, described } = await read('Nome;E-mail;Produto;Valor\nAna;ana@x.co;p1;10\n', { ignoreExtra: true });
    expect(rows).toEqual([{ line: 2, values: { student: 'ana@x.co', product_id: 'p1' } }]);
    expect(described).toBe('Columns of vendas.csv: "E-mail" as student, "Produto" as product_id; ignored (--ignore-extra-columns): "Nome", "Valor"');
  });

  it('two columns that would both be the student: refused, or the e-mail read and the CPF left out', async () => {
    await expect(read('CPF,E-mail,Produto\n')).rejects.toThrow(
      'vendas.csv: "E-mail" and "CPF" would both be read as student (line 1); keep one of them, or pass --ignore-extra-columns to read "E-mail" and ignore "CPF"',
    );
    const { header } = await read('CPF;E-mail;Produto\n', { ignoreExtra: true });
    expect(header.columns).toEqual([{ header: 'CPF' }, { header: 'E-mail', as: 'student' }, { header: 'Produto', as: 'product_id' }]);
  });

  it('an import reads E-mail and CPF as its own email and document columns', async () => {
    const IMPORT: CsvColumns = { required: ['first_name', 'last_name', 'email'], optional: ['document'] };
    const [row] = await parse('first_name,last_name,E-mail,CPF\nAna,Souza,ana@x.co,070.692.055-46\n', IMPORT);
    expect(row?.values).toEqual({ first_name: 'Ana', last_name: 'Souza', email: 'ana@x.co', document: '070.692.055-46' });
  });
});

describe('dates in a bulk file', () => {
  const cell = (value: string) => dateCell({ accession_date: value }, 'accession_date');

  it('DD/MM/YYYY beside YYYY-MM-DD: 05/03/2026 is 5 March; blank is none', () => {
    expect(cell('05/03/2026')).toBe('2026-03-05');
    expect(cell('5/3/2026')).toBe('2026-03-05');
    expect(cell('29/02/2028')).toBe('2028-02-29');
    expect(cell('2026-03-05')).toBe('2026-03-05');
    expect(cell('')).toBeUndefined();
  });

  it('never guesses MM/DD; an impossible date is an error naming the column', () => {
    expect(() => cell('03/25/2026')).toThrow(new UsageError('invalid accession_date "03/25/2026": read as DD/MM/YYYY (day 3, month 25), no such date; dates are never read as MM/DD'));
    expect(() => cell('31/04/2026')).toThrow(/day 31, month 4\), no such date/);
    expect(() => cell('29/02/2026')).toThrow(UsageError);
    expect(() => cell('5 de março')).toThrow('invalid accession_date "5 de março": expected a date as DD/MM/YYYY or YYYY-MM-DD');
    expect(() => cell('2026-02-30')).toThrow(UsageError);
  });
});
