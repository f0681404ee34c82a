/**
 * `-o xlsx`, read back with exceljs's own reader (the e2e spreadsheet test
 * reads it with LibreOffice): what each cell holds, its number format, the
 * header row, the widths, the sheets.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { spreadsheetDateTime } from '../../../src/lib/time/zones.js';
import { createOutput } from '../../../src/output/index.js';
import { batched } from '../../../src/lib/batches.js';
import { columnWidths, MAX_CELL_CHARS, sheetName, xlsxCell, xlsxFormat } from '../../../src/output/xlsx.js';
import { globalOptions } from '../../../src/command-line.js';
import { fakeIo } from '../../helpers/fake-io.js';
import { globals, maria, studentView } from './setup.js';

describe('what a cell holds', () => {
  it('keeps identifiers, documents, phones and codes as text, whatever digits they are', () => {
    expect(xlsxCell(147568753151775, 'id')).toEqual(['147568753151775', '@']);
    expect(xlsxCell(42, 'product.id')).toEqual(['42', '@']);
    expect(xlsxCell('00123456789', 'document')).toEqual(['00123456789', '@']);
    expect(xlsxCell('011987654321', 'phone')).toEqual(['011987654321', '@']);
    expect(xlsxCell('+55 11 91234-5678', 'phone')).toEqual(['+55 11 91234-5678', '@']);
    expect(xlsxCell('070.692.055-46', 'document')).toEqual(['070.692.055-46', '@']);
    expect(xlsxCell('12345', 'reference_id')).toEqual(['12345', '@']);
    // A leading zero makes a code of what looks like a decimal.
    expect(xlsxCell('070.69', 'code')).toEqual(['070.69', '@']);
    // Not a formula: a text cell is never evaluated.
    expect(xlsxCell('=HYPERLINK("http://x")', 'first_name')).toEqual(['=HYPERLINK("http://x")', '@']);
  });

  it('makes numbers of numbers and of decimal strings, showing the places sent', () => {
    expect(xlsxCell(3, 'score')).toEqual([3, '0']);
    // Only a name that ends in id, after nothing or a separator, is an identifier.
    expect(xlsxCell(42, 'idade')).toEqual([42, '0']);
    expect(xlsxCell(7, 'paid')).toEqual([7, '0']);
    expect(xlsxCell(8.5, 'ratio')).toEqual([8.5, undefined]);
    expect(xlsxCell('87.50', 'course_completion_percent')).toEqual([87.5, '0.00']);
    expect(xlsxCell('-0.125', 'delta')).toEqual([-0.125, '0.000']);
    expect(xlsxCell('100.00', 'percent')).toEqual([100, '0.00']);
    // Excel keeps 15 significant digits: a longer decimal stays text rather than change.
    expect(xlsxCell('123456789012345.6', 'amount')).toEqual(['123456789012345.6', '@']);
    expect(xlsxCell('12345678901234.5', 'amount')).toEqual([12345678901234.5, '0.0']);
    // Leading zeros are no significant digits.
    expect(xlsxCell('0.123456789012345', 'ratio')).toEqual([0.123456789012345, `0.${'0'.repeat(15)}`]);
    expect(xlsxCell('-0.000123456789012345', 'ratio')).toEqual([-0.000123456789012345, `0.${'0'.repeat(18)}`]);
    expect(xlsxCell('0.1234567890123456', 'ratio')).toEqual(['0.1234567890123456', '@']);
    expect(xlsxCell(Number.NaN, 'score')).toEqual(['NaN', '@']);
    expect(xlsxCell('1.5 kg', 'weight')).toEqual(['1.5 kg', '@']);
  });

  it('makes dates of dates and times, in the user\'s zone as --csv-dialect excel writes them', () => {
    expect(xlsxCell('2024-02-29', 'birth')).toEqual([new Date(Date.UTC(2024, 1, 29)), 'yyyy-mm-dd']);
    expect(xlsxCell('2024-06-09 22:49:00', 'created_at')).toEqual([new Date(Date.UTC(2024, 5, 9, 22, 49)), 'yyyy-mm-dd hh:mm:ss']);
    const instant = '2024-06-10T01:49:07.000000Z';
    const [value, format] = xlsxCell(instant, 'created_at');
    expect((value as Date).toISOString().slice(0, 19).replace('T', ' ')).toBe(spreadsheetDateTime(instant));
    expect(format).toBe('yyyy-mm-dd hh:mm:ss');
    // Impossible times, or dates before 1900 (Excel's start), stay text, as sent.
    expect(xlsxCell('2024-02-30', 'birth')).toEqual(['2024-02-30', '@']);
    expect(xlsxCell('2024-13-01', 'birth')).toEqual(['2024-13-01', '@']);
    expect(xlsxCell('2024-06-09 10:60:00', 'seen')).toEqual(['2024-06-09 10:60:00', '@']);
    expect(xlsxCell('2024-06-09 10:58:60', 'seen')).toEqual(['2024-06-09 10:58:60', '@']);
    expect(xlsxCell('1899-12-31', 'birth')).toEqual(['1899-12-31', '@']);
    expect(xlsxCell('1900-01-01', 'birth')).toEqual([new Date(Date.UTC(1900, 0, 1)), 'yyyy-mm-dd']);
  });

  it('leaves null, undefined and empty text empty; booleans stay booleans; objects are JSON text', () => {
    expect(xlsxCell(null, 'phone')).toEqual([null, undefined]);
    expect(xlsxCell(undefined, 'phone')).toEqual([null, undefined]);
    expect(xlsxCell('', 'phone')).toEqual([null, undefined]);
    expect(xlsxCell(true, 'lifetime')).toEqual([true, undefined]);
    expect(xlsxCell(['vip', 'early'], 'tags')).toEqual(['["vip","early"]', '@']);
  });
});

describe('column widths', () => {
  it('fit the widest of the header (bold) and the cells, plus two, from 6 (10 for numbers and dates) to 60', () => {
    const rows = [
      [xlsxCell('Maria', 'name'), xlsxCell('87.50', 'p'), xlsxCell('2024-06-09 22:49:00', 't'), xlsxCell('x'.repeat(80), 'd'), xlsxCell('a', 'b')],
      [xlsxCell('João da Conceição', 'name'), xlsxCell('100.00', 'p'), xlsxCell(null, 't'), xlsxCell(null, 'd'), xlsxCell(null, 'b')],
    ];
    expect(columnWidths(['name', 'percent', 'created_at', 'description', 'b'], rows, stringWidth)).toEqual([19, 10, 21, 60, 6]);
    // Wide characters count two; a header alone sizes its column.
    expect(columnWidths(['título'], [[xlsxCell('日本語', 'título')]], stringWidth)).toEqual([9]);
    expect(columnWidths(['n'], [[xlsxCell('日本語のテキスト', 'n')]], stringWidth)).toEqual([18]);
    // Text over several lines is as wide as its widest line.
    expect(columnWidths(['n'], [[xlsxCell('Rua A, 10\nApto 12', 'n')]], stringWidth)).toEqual([11]);
    expect(columnWidths(['course_completion_percent'], [], stringWidth)).toEqual([30]);
    // A decimal as shown, with the places sent; other numbers as written; a boolean as TRUE or FALSE.
    const numbers = [xlsxCell('1234567.50', 'p'), xlsxCell(123456789012, 'n'), xlsxCell(1234.125, 'r'), xlsxCell(false, 'b')];
    expect(columnWidths(['p', 'n', 'r', 'b'], [numbers], stringWidth)).toEqual([12, 14, 10, 7]);
  });
});

describe('sheet names', () => {
  it('leave out what Excel refuses, keep 26 characters (room for " (2)"), and are never empty', () => {
    expect(sheetName('students')).toBe('students');
    expect(sheetName('a/b: [c]*?\\d')).toBe('a b   c    d');
    expect(sheetName('engaged-courses report rows of the year')).toBe('engaged-courses report row');
    expect(sheetName('')).toBe('members');
    expect(sheetName('?')).toBe('members');
  });
});

async function workbookOf(bytes: Uint8Array[]): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  // exceljs types a Buffer of an older @types/node.
  await workbook.xlsx.load(Buffer.concat(bytes) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  return workbook;
}

/** The rows of a sheet as [value, numFmt] pairs (exceljs's values array starts at column 1). */
function cellsOf(sheet: ExcelJS.Worksheet): Array<Array<[unknown, string | undefined]>> {
  const rows: Array<Array<[unknown, string | undefined]>> = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: Array<[unknown, string | undefined]> = [];
    for (let column = 1; column <= sheet.columnCount; column++) {
      const cell = row.getCell(column);
      cells.push([cell.value, cell.value === null ? undefined : cell.numFmt]);
    }
    rows.push(cells);
  });
  return rows;
}

describe('-o xlsx', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'members-xlsx-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function exported(records: object[], options: { fields?: string[]; header?: boolean } = {}) {
    const fake = fakeIo({ cwd: dir });
    const out = await createOutput(fake.io, globals({ output: 'xlsx', out: 'list.xlsx', header: true, ...options }));
    const count = await out.list(records as never, studentView);
    await out.close();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(dir, 'list.xlsx'));
    return { count, stderr: fake.stderr(), sheet: workbook.worksheets[0] as ExcelJS.Worksheet, workbook };
  }

  it('writes the columns of csv under a bold, frozen header, with typed cells and sized columns', async () => {
    const record = { id: 7, document: '01234567890', phone: '011912345678', percent: '87.50', score: 3, birth: '2024-02-29', seen: '2024-06-09 22:49:00', note: null, product: { title: 'Yoga' }, tags: ['vip'] };
    const { count, stderr, sheet } = await exported([record]);

    expect(count).toBe(1);
    expect(stderr).toBe('');
    expect(sheet.name).toBe('students');
    expect(cellsOf(sheet)).toEqual([
      ['id', 'document', 'phone', 'percent', 'score', 'birth', 'seen', 'note', 'product.title'].map((name) => [name, '@']),
      [['7', '@'], ['01234567890', '@'], ['011912345678', '@'], [87.5, '0.00'], [3, '0'], [new Date(Date.UTC(2024, 1, 29)), 'yyyy-mm-dd'],
        [new Date(Date.UTC(2024, 5, 9, 22, 49)), 'yyyy-mm-dd hh:mm:ss'], [null, undefined], ['Yoga', '@']],
    ]);
    expect(sheet.getRow(1).getCell(1).font).toMatchObject({ bold: true, name: 'Calibri', size: 11 });
    expect(sheet.getRow(2).getCell(2).font?.bold).toBeFalsy();
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.columns.map((column) => column.width)).toEqual([6, 13, 14, 10, 10, 12, 21, 7, 17]);
  });

  it('writes --fields in their order, arrays as JSON text', async () => {
    const { sheet } = await exported([maria], { fields: ['product.title', 'tags', 'id'] });
    expect(cellsOf(sheet).map((row) => row.map(([value]) => value))).toEqual([['product.title', 'tags', 'id'], ['Yoga', '["vip","early"]', 's1']]);
  });

  it('writes the header alone for an empty list (the view\'s columns), and no header nor freeze with --no-header', async () => {
    const empty = await exported([]);
    expect(cellsOf(empty.sheet).map((row) => row.map(([value]) => value))).toEqual([studentView.columns.map((column) => column.path)]);
    const bare = await exported([maria], { header: false, fields: ['id', 'name'] });
    expect(cellsOf(bare.sheet).map((row) => row.map(([value]) => value))).toEqual([['s1', 'Maria Souza']]);
    expect(bare.sheet.views ?? []).toEqual([]);
  });

  it('cuts a cell to 32,767 characters, the most a spreadsheet cell holds, and says so', async () => {
    const { sheet, stderr } = await exported([{ id: 's1', description: 'a'.repeat(MAX_CELL_CHARS + 10) }]);
    expect((sheet.getRow(2).getCell(2).value as string).length).toBe(MAX_CELL_CHARS);
    expect(stderr).toBe('warning: 1 cell was cut to 32,767 characters, the most a spreadsheet cell holds; -o json has the whole text\n');
    const many = await exported([{ a: 'b'.repeat(MAX_CELL_CHARS + 1), c: 'd'.repeat(MAX_CELL_CHARS + 1) }, { a: 'e', c: 'f'.repeat(MAX_CELL_CHARS) }]);
    expect(many.stderr).toBe('warning: 2 cells were cut to 32,767 characters, the most a spreadsheet cell holds; -o json has the whole text\n');
    expect((many.sheet.getRow(3).getCell(2).value as string).length).toBe(MAX_CELL_CHARS);
  });

  it('sizes the columns from the first pages, 200 rows at least, and streams the rest', async () => {
    const page = (from: number, name: string) => Array.from({ length: 100 }, (_, i) => ({ id: `s${from + i}`, name }));
    const pages = [page(1, 'Ana'), page(101, 'Maria Aparecida'), page(201, 'Maria Aparecida dos Santos Oliveira'), page(301, 'Bia')];
    const records = batched(async function* () {
      yield* pages;
    });
    const bytes: Uint8Array[] = [];
    const format = xlsxFormat((chunk) => void bytes.push(Buffer.from(chunk)), { header: true, warn: () => undefined });
    expect(await format.list(records, studentView)).toBe(400);
    const sheet = (await workbookOf(bytes)).worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.columns.map((column) => column.width)).toEqual([6, 'Maria Aparecida'.length + 2]);
    const rows = cellsOf(sheet);
    expect(rows.length).toBe(401);
    expect(rows.map((row) => row[0]?.[0])).toEqual(['id', ...Array.from({ length: 400 }, (_, i) => `s${i + 1}`)]);
    expect(rows[300]?.[1]?.[0]).toBe('Maria Aparecida dos Santos Oliveira');
  });

  it('goes on in a second sheet, header repeated, past the rows a sheet holds', async () => {
    const bytes: Uint8Array[] = [];
    const format = xlsxFormat((chunk) => void bytes.push(Buffer.from(chunk)), { header: true, warn: () => undefined, rowsPerSheet: 3 });
    const records = Array.from({ length: 5 }, (_, i) => ({ id: `s${i + 1}`, score: i }));
    expect(await format.list(records, studentView)).toBe(5);
    const workbook = await workbookOf(bytes);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['students', 'students (2)', 'students (3)']);
    expect(workbook.worksheets.map((sheet) => cellsOf(sheet).map((row) => row[0]?.[0]))).toEqual([['id', 's1', 's2'], ['id', 's3', 's4'], ['id', 's5']]);
  });

  it('leaves no file behind when the list fails, before or after the first rows are written', async () => {
    for (const before of [10, 300]) {
      const out = await createOutput(fakeIo({ cwd: dir }).io, globals({ output: 'xlsx', out: 'half.xlsx' }));
      async function* failing() {
        for (let i = 0; i < before; i++) yield { id: `s${i}` };
        throw new Error('connection reset');
      }
      await expect(out.list(failing(), studentView)).rejects.toThrow('connection reset');
      await out.abort();
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('writes a workbook to stdout that is not a terminal', async () => {
    const fake = fakeIo();
    const out = await createOutput(fake.io, globals({ output: 'xlsx' }));
    await out.one(maria, studentView);
    await out.close();
    // The fake stdout keeps what it is given: the bytes of the file.
    const chunks = (fake.io.stdout as unknown as { chunks: Uint8Array[] }).chunks;
    const workbook = await workbookOf(chunks);
    expect(cellsOf(workbook.worksheets[0] as ExcelJS.Worksheet)[1]?.[0]).toEqual(['s1', '@']);
  });
});

describe('choosing xlsx', () => {
  const base = { timeout: '30s', retries: '3' };

  it('--out FILE.xlsx alone means xlsx; with another format it is a usage error', () => {
    expect(globalOptions({ ...base, out: 'report.xlsx' })).toMatchObject({ output: 'xlsx', out: 'report.xlsx' });
    expect(globalOptions({ ...base, out: 'REPORT.XLSX', output: 'xlsx' })).toMatchObject({ output: 'xlsx' });
    // Issue 37: any format the name says, without -o (before, a .csv file held a text table).
    expect(globalOptions({ ...base, out: 'report.csv' })).toMatchObject({ output: 'csv' });
    expect(globalOptions({ ...base, out: 'Report.JSON' })).toMatchObject({ output: 'json' });
    expect(globalOptions({ ...base, out: 'report.ndjson' })).toMatchObject({ output: 'ndjson' });
    expect(globalOptions({ ...base, out: 'report.txt' })).toMatchObject({ output: 'table' });
    expect(globalOptions({ ...base, out: 'report.csv', output: 'json' })).toMatchObject({ output: 'json' });
    expect(() => globalOptions({ ...base, out: 'report.xlsx', output: 'csv' })).toThrow(/--out report.xlsx names a workbook, but the output is csv: drop -o .* or name the file \.csv/);
    expect(() => globalOptions({ ...base, out: 'report.xlsx', csvDialect: 'excel' })).toThrow(UsageError);
    expect(() => globalOptions({ ...base, out: 'report.xlsx', json: true })).toThrow(UsageError);
    expect(() => globalOptions({ ...base, output: 'xlsx', csvDialect: 'excel' })).toThrow(/--csv-dialect applies to csv output, not xlsx/);
  });

  it('-o xlsx into a file named for another format is a usage error too, naming both ways out', () => {
    expect(() => globalOptions({ ...base, out: 'c.csv', output: 'xlsx' })).toThrow(/^-o xlsx writes a workbook, but --out c\.csv is named \.csv: name the file \.xlsx, or use -o csv$/);
    expect(() => globalOptions({ ...base, out: 'dir.v2/c.txt', output: 'xlsx' })).toThrow(/^-o xlsx writes a workbook, but --out dir\.v2\/c\.txt is named \.txt: name the file \.xlsx$/);
    expect(globalOptions({ ...base, out: 'out/report', output: 'xlsx' })).toMatchObject({ output: 'xlsx', out: 'out/report' });
    expect(globalOptions({ ...base, out: '.report', output: 'xlsx' })).toMatchObject({ output: 'xlsx' });
    expect(globalOptions({ ...base, out: 'c.XLSX', output: 'xlsx' })).toMatchObject({ output: 'xlsx' });
  });
});
