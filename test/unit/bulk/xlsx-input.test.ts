/**
 * xlsx workbooks as bulk and `members each` input (src/domain/bulk/workbook.ts, xlsx-sheet.ts): each
 * workbook is built here with exceljs, as Excel would save it, and read through readCsvRows, the one
 * entry every bulk command, sync and each read their files by.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import fs from 'node:fs';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { readCsvRows, type CsvColumns, type CsvOptions, type CsvRow } from '../../../src/domain/bulk/csv.js';
import { cellText, maskedText, numberText } from '../../../src/domain/bulk/xlsx-sheet.js';
import { UsageError } from '../../../src/lib/errors.js';
import { workbook } from '../../helpers/workbook.js';

const GRANT: CsvColumns = { required: ['student', 'product_id'], optional: ['accession_date', 'expiration_date'] };
const ANY: CsvColumns = { required: [], optional: [] };

async function read(bytes: Buffer, columns = ANY, options: CsvOptions = {}, source = 'turma.xlsx'): Promise<Array<CsvRow & { problem?: string }>> {
  const rows: Array<CsvRow & { problem?: string }> = [];
  await readCsvRows(bytes, columns, source, (row) => void rows.push(row), { anyColumns: columns === ANY, ...options });
  return rows;
}

/** The same workbook with its zip entries in another order: `first`, then the others as they were. */
async function reordered(bytes: Buffer, first: string[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir);
  const out = new JSZip();
  for (const name of [...first, ...names.filter((other) => !first.includes(other))]) out.file(name, await zip.file(name)!.async('nodebuffer'));
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function refusal(bytes: Buffer, columns = ANY, source = 'turma.xlsx'): Promise<string> {
  const error = await read(bytes, columns, {}, source).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('an xlsx workbook as input', () => {
  it('reads cells as a person sees them: text, numbers without float noise, a CPF typed as a number, dates, booleans', async () => {
    const bytes = await workbook({
      Alunos: {
        1: ['E-mail', 'CPF', 'Telefone', 'Pontos', 'Compra', 'Carimbo', 'Ativo'],
        2: ['  a@x.io ', 12345678909, 61939862924, 0.1 + 0.2, { value: new Date(Date.UTC(2026, 2, 1)), numFmt: 'dd/mm/yyyy' },
          { value: new Date(Date.UTC(2026, 2, 1, 14, 3, 22)), numFmt: 'dd/mm/yyyy hh:mm:ss' }, true],
        3: ['b@x.io', -7, 0, 1500, { value: 46082, numFmt: 'yyyy-mm-dd' }, null, false],
      },
    });
    expect(await read(bytes)).toEqual([
      { line: 2, values: { 'E-mail': 'a@x.io', CPF: '12345678909', Telefone: '61939862924', Pontos: '0.3', Compra: '2026-03-01', Carimbo: '2026-03-01 14:03:22', Ativo: 'TRUE' } },
      { line: 3, values: { 'E-mail': 'b@x.io', CPF: '-7', Telefone: '0', Pontos: '1500', Compra: '2026-03-01', Carimbo: '', Ativo: 'FALSE' } },
    ]);
  });

  it('shows a whole number through its mask of zeros, as a CPF or a phone is kept in a sheet', async () => {
    const bytes = await workbook({
      Alunos: {
        1: ['CPF', 'Zeros', 'Telefone'],
        2: [{ value: 7069205546, numFmt: '000\\.000\\.000\\-00' }, { value: 7069205546, numFmt: '00000000000' }, { value: 61939862924, numFmt: '"("00") "00000\\-0000' }],
      },
    });
    expect((await read(bytes))[0]?.values).toEqual({ CPF: '070.692.055-46', Zeros: '07069205546', Telefone: '(61) 93986-2924' });
  });

  it('reads a formula as its saved result: text, number, or a date by its format', async () => {
    const bytes = await workbook({
      Alunos: {
        1: ['E-mail', 'Dobro', 'Validade'],
        2: [{ formula: 'LOWER("A@X.IO")', result: 'a@x.io' }, { formula: '2*21', result: 42 }, { value: { formula: 'DATE(2026,3,1)', result: 46082 }, numFmt: 'dd/mm/yyyy' }],
      },
    });
    expect((await read(bytes))[0]?.values).toEqual({ 'E-mail': 'a@x.io', Dobro: '42', Validade: '2026-03-01' });
  });

  it('takes the first row that holds something as the header, skips empty rows, and numbers rows as the sheet does', async () => {
    const bytes = await workbook({
      Alunos: {
        3: ['student', 'product_id'],
        4: ['a@x.io', 'p1'],
        5: [null, '  '],
        7: ['b@x.io', 'p2'],
      },
    });
    expect(await read(bytes, GRANT)).toEqual([
      { line: 4, values: { student: 'a@x.io', product_id: 'p1' } },
      { line: 7, values: { student: 'b@x.io', product_id: 'p2' } },
    ]);
    const noProduct = await workbook({ Alunos: { 3: ['student', 'Nome'], 4: ['a@x.io', 'Ana'] } });
    expect(await refusal(noProduct, GRANT)).toMatch(/^turma\.xlsx: unknown column "Nome" in the header \(line 3\)/);
  });

  it('reads the first sheet, and names it in what it says when the workbook has several', async () => {
    const bytes = await workbook({ Turma: { 1: ['student', 'Valor'] }, Outra: { 1: ['student', 'product_id'], 2: ['a@x.io', 'p1'] } });
    expect(await refusal(bytes, GRANT)).toMatch(/^turma\.xlsx \(its first sheet, "Turma"\): unknown column "Valor"/);
  });

  it('skips the header found again inside the sheet (an export pasted twice), telling its line', async () => {
    const bytes = await workbook({ Alunos: { 1: ['student', 'product_id'], 2: ['a@x.io', 'p1'], 3: ['Student', 'Product_ID'], 4: ['b@x.io', 'p2'] } });
    const repeated: number[] = [];
    expect((await read(bytes, GRANT, { onRepeatedHeader: (line) => void repeated.push(line) })).map((row) => row.line)).toEqual([2, 4]);
    expect(repeated).toEqual([3]);
  });

  it('gives a row a problem for an error, a formula never calculated, or a value beyond the header, in a column it reads', async () => {
    const bytes = await workbook({
      Alunos: {
        1: ['student', 'product_id', 'Nome'],
        2: ['a@x.io', { error: '#N/A' }, 'Ana'],
        3: ['b@x.io', { formula: 'VLOOKUP(A3,X!A:B,2,0)' } as ExcelJS.CellValue, 'Bia'],
        4: ['c@x.io', 'p1', { error: '#REF!' }],
        5: ['d@x.io', 'p1', 'Duda', 'sobra'],
      },
    });
    const rows = await read(bytes, GRANT, { ignoreExtra: true });
    expect(rows.map((row) => [row.line, row.problem])).toEqual([
      [2, 'product_id (cell B2) holds the error #N/A; fix it in the sheet'],
      [3, 'product_id (cell B3) holds a formula with no saved result (open the file in Excel or LibreOffice and save it again); fix it in the sheet'],
      // An error in a column that is ignored is no problem.
      [4, undefined],
      [5, 'a value in column D (cell D5), beyond the header\'s 3 columns; give the column a header, or clear the cell'],
    ]);
  });

  it('reads the same rows each time the input is read (a bulk run reads it twice), from chunks as a file comes', async () => {
    const bytes = await workbook({ Alunos: { 1: ['student', 'product_id'], 2: ['a@x.io', 'p1'] } });
    const input = async function* chunks() {
      for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000);
    };
    for (let pass = 0; pass < 2; pass++) {
      const rows: CsvRow[] = [];
      await readCsvRows(input, GRANT, 'turma.xlsx', (row) => void rows.push(row));
      expect(rows).toEqual([{ line: 2, values: { student: 'a@x.io', product_id: 'p1' } }]);
    }
  });

  it('reads dates right whatever the order of the zip: a sheet before the styles or the list of sheets is read again, knowing them', async () => {
    const bytes = await workbook({
      Turma: { 1: ['E-mail', 'Compra'], 2: ['a@x.io', { value: new Date(Date.UTC(2026, 2, 1)), numFmt: 'dd/mm/yyyy' }] },
      Outra: { 1: ['E-mail', 'Compra'], 2: ['b@x.io', 'nunca'] },
    });
    const parts = ['xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet1.xml'];
    for (const order of [[...parts, 'xl/styles.xml', 'xl/workbook.xml'], ['xl/workbook.xml', ...parts, 'xl/styles.xml'], ['xl/styles.xml', ...parts, 'xl/workbook.xml']]) {
      expect(await read(await reordered(bytes, order)), order.join(' ')).toEqual([{ line: 2, values: { 'E-mail': 'a@x.io', Compra: '2026-03-01' } }]);
    }
  });

  it('reads the file once when the parts a sheet needs come before it (LibreOffice), twice in Excel\'s order, never through a temporary file', async () => {
    const bytes = await workbook({ Turma: { 1: ['E-mail', 'Compra'], 2: ['a@x.io', { value: new Date(Date.UTC(2026, 2, 1)), numFmt: 'dd/mm/yyyy' }] } });
    // exceljs would copy a sheet that comes before its strings into a temporary file.
    const written = vi.spyOn(fs, 'createWriteStream');
    onTestFinished(() => written.mockRestore());
    const opened = async (file: Buffer) => {
      let opens = 0;
      const rows: CsvRow[] = [];
      await readCsvRows(() => {
        opens++;
        return (async function* whole() {
          yield file;
        })();
      }, ANY, 'turma.xlsx', (row) => void rows.push(row), { anyColumns: true });
      expect(rows).toEqual([{ line: 2, values: { 'E-mail': 'a@x.io', Compra: '2026-03-01' } }]);
      return opens;
    };
    expect(await opened(await reordered(bytes, ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/sharedStrings.xml']))).toBe(1);
    // exceljs's own order, as Excel's: the sheet first, its strings and styles after it.
    expect(await opened(bytes)).toBe(2);
    expect(written).not.toHaveBeenCalled();
  });

  it('refuses a sheet with nothing in it, naming the columns expected', async () => {
    expect(await refusal(await workbook({ Alunos: {} }), GRANT)).toBe('turma.xlsx is empty: expected a header row with the columns student,product_id[,accession_date][,expiration_date]');
  });
});

describe('files that are not an xlsx workbook', () => {
  it('refuses a CSV named .xlsx, an .xls or password-protected workbook, an .ods, a zip of something else, a cut workbook', async () => {
    expect(await refusal(Buffer.from('student,product_id\na@x.io,p1\n'))).toBe(
      'turma.xlsx is named .xlsx but is not an xlsx workbook (it is no zip file); save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8" and try again');
    expect(await refusal(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]), ANY, 'turma.xls')).toMatch(
      /^turma\.xls is an Excel 97-2003 workbook \(\.xls\) or a password-protected one, which members does not read; save it as/);
    const ods = new JSZip();
    ods.file('mimetype', 'application/vnd.oasis.opendocument.spreadsheet', { compression: 'STORE' });
    ods.file('content.xml', '<office:document-content/>');
    expect(await refusal(await ods.generateAsync({ type: 'nodebuffer' }), ANY, 'turma.ods')).toMatch(/^turma\.ods is an OpenDocument file \(\.ods\), which members does not read/);
    const zip = new JSZip();
    zip.file('notes.txt', 'hello');
    expect(await refusal(await zip.generateAsync({ type: 'nodebuffer' }), ANY, 'notes.zip')).toMatch(/^notes\.zip is a zip file but holds no xlsx worksheet; save it as/);
    const whole = await workbook({ Alunos: { 1: ['student', 'product_id'], 2: ['a@x.io', 'p1'] } });
    expect(await refusal(whole.subarray(0, 600))).toMatch(/^turma\.xlsx could not be read as an xlsx workbook \(.+\); open it in Excel or LibreOffice and save it as/);
  });
});

describe('edges of a workbook and of what looks like one', () => {
  it('reads a number dated in a 1904 workbook (old Excel for Mac) by that calendar', async () => {
    const book = new ExcelJS.Workbook();
    book.properties.date1904 = true;
    const sheet = book.addWorksheet('Turma');
    sheet.getCell('A1').value = 'Compra';
    sheet.getCell('A2').value = 46082;
    sheet.getCell('A2').numFmt = 'yyyy-mm-dd';
    expect(await read(Buffer.from(await book.xlsx.writeBuffer()))).toEqual([{ line: 2, values: { Compra: '2030-03-02' } }]);
  });

  it('keeps a row whose only cell is an error, with its problem, and takes blank cells beyond the header as nothing', async () => {
    const bytes = await workbook({
      Alunos: {
        1: ['student', 'product_id'],
        2: [null, { error: '#N/A' }],
        3: ['b@x.io', 'p1', '   ', ' '],
      },
    });
    expect((await read(bytes, GRANT)).map((row) => [row.line, row.problem])).toEqual([
      [2, 'product_id (cell B2) holds the error #N/A; fix it in the sheet'],
      [3, undefined],
    ]);
  });

  it('reads a CSV whose text has "mimetype" and "opendocument" where an .ods has them, or whose name holds .xlsx before its end', async () => {
    const csv = 'student,product_id,note\nab,p1,mimetype opendocument\n';
    expect(csv.indexOf('mimetype')).toBe(30);
    expect(await read(Buffer.from(csv), ANY, {}, 'turma.csv')).toEqual([{ line: 2, values: { student: 'ab', product_id: 'p1', note: 'mimetype opendocument' } }]);
    expect(await read(Buffer.from('student,product_id\na@x.io,p1\n'), ANY, {}, 'turma.xlsx.csv')).toEqual([{ line: 2, values: { student: 'a@x.io', product_id: 'p1' } }]);
  });

  it('calls a zip with a mimetype of another kind (an EPUB) no workbook, not an OpenDocument file', async () => {
    const epub = new JSZip();
    epub.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
    epub.file('content.opf', '<package/>');
    expect(await refusal(await epub.generateAsync({ type: 'nodebuffer' }), ANY, 'livro.epub')).toMatch(/^livro\.epub is a zip file but holds no xlsx worksheet/);
  });
});

describe('cellText, edges', () => {
  it('reads an empty cell as nothing, a value of no cell type as a problem, and dates by the 1900 calendar unless told', () => {
    expect(cellText(null, undefined)).toBe('');
    expect(cellText(undefined, 'yyyy-mm-dd')).toBe('');
    expect(cellText(10n, undefined)).toEqual({ problem: 'holds a value members cannot read' });
    expect(cellText(46082, 'yyyy-mm-dd')).toBe('2026-03-01');
    expect(numberText(Number.POSITIVE_INFINITY)).toBe('Infinity');
    expect(numberText(Number.NaN)).toBe('NaN');
  });

  it('shows zero through a mask, and puts the digits beyond the mask\'s in its first place only', () => {
    expect(maskedText(0, '000')).toBe('000');
    expect(maskedText(123456, '00-0')).toBe('12345-6');
  });
});

describe('cellText', () => {
  it('reads rich text as its runs, a time alone as HH:MM:SS, and numbers with no exponent', () => {
    expect(cellText({ richText: [{ text: 'Ana ' }, { text: 'Souza' }] }, undefined)).toBe('Ana Souza');
    expect(cellText(new Date(Date.UTC(1899, 11, 30, 8, 30)), 'hh:mm')).toBe('08:30:00');
    // Excel keeps a time as a fraction of a day, a hair short of the second.
    expect(cellText(new Date(Date.UTC(2026, 2, 1, 14, 3, 21, 999)), 'dd/mm/yyyy hh:mm:ss')).toBe('2026-03-01 14:03:22');
    expect(cellText(46082.5, 'dd/mm/yyyy hh:mm', true)).toBe('2030-03-02 12:00:00');
    expect(cellText({ formula: '1/0', result: Number.NaN }, undefined)).toEqual({ problem: 'holds a formula whose result is an error' });
    // A shared string the workbook never listed.
    expect(cellText({ sharedString: 7 }, undefined)).toEqual({ problem: 'holds a value members cannot read' });
    expect(numberText(1e21)).toBe('1000000000000000000000');
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(-7.25)).toBe('-7.25');
  });

  it('takes a mask of zeros only: a decimal point, # or a thousands comma leave the number as it is', () => {
    expect(maskedText(123456, '000')).toBe('123456');
    expect(maskedText(42, '0.00')).toBeUndefined();
    expect(maskedText(42, '0000.0')).toBeUndefined();
    expect(maskedText(12345678000190, '00.000.000/0000-00')).toBe('12.345.678/0001-90');
    expect(maskedText(42, '#,##0')).toBeUndefined();
    expect(maskedText(42, 'General')).toBeUndefined();
    expect(maskedText(4.5, '000')).toBeUndefined();
    expect(maskedText(-4, '000')).toBeUndefined();
  });
});
