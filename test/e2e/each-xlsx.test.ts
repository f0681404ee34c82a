/**
 * xlsx workbooks as input, through the built binary against `members sandbox`
 * in the default flavour and Laravel's (issue 37): `members each` from a
 * workbook into a results workbook that --only-failed reads back, a bulk grant
 * from a workbook on stdin, and the workbooks refused before anything is sent.
 * Each workbook is built here with exceljs, as a spreadsheet saves it: CPFs
 * typed as numbers (one through a mask), a formula, a date, an empty row.
 * Every test has a sandbox of its own, so that no test sees another's changes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { run, sandboxGet, tempDir } from './harness.js';
import { workbook } from '../helpers/workbook.js';
import { allStudents, describeBulkFlavors, holds, holdsAsAsked, ndjson, writeCsv, type BulkResult, type Student } from './bulk-helpers.js';

const CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;

/** The rows of a workbook's first sheet, each cell's value (exceljs reads a cell's number as a number). */
async function sheetRows(file: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows: unknown[][] = [];
  book.worksheets[0]?.eachRow((row) => void rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describeBulkFlavors('xlsx input', ['--students', '60', '--seed', '37'], (bulk) => {
  const env = () => ({ ...bulk.sandbox.env, MEMBERS_CONFIG_DIR: tempDir('members-config-') });
  /** The test's first `count` students with a CPF as their document (and `check`). */
  const withCpf = (count: number, check: (student: Student) => boolean = () => true) => {
    const chosen = bulk.students.filter((student) => CPF.test(student.document ?? '') && check(student)).slice(0, count);
    expect(chosen).toHaveLength(count);
    return chosen;
  };
  const digits = (student: Student) => (student.document as string).replace(/\D/g, '');
  const scoreOf = async (id: string) => (await sandboxGet<{ data: { score: number } }>(bulk.sandbox, `/api/v1/students/${id}/scores`)).body.data.score;

  it('each from a workbook into a results workbook: CPFs typed as numbers, a formula, a date; --only-failed reads it back', async () => {
    // a's CPF as a plain number (so none that starts with 0), b's through a mask that shows its zeros.
    const [a] = withCpf(1, (student) => !digits(student).startsWith('0')) as [Student];
    const [b] = withCpf(1, (student) => student.id !== a.id) as [Student];
    const input = join(bulk.dir, 'pontos.xlsx');
    writeFileSync(input, await workbook({ Planilha1: {
      1: ['Nome', 'CPF', 'Pontos', 'Inscrição'],
      2: ['Ana', Number(digits(a)), { formula: '10+2', result: 12 }, { value: new Date(Date.UTC(2026, 2, 1)), numFmt: 'dd/mm/yyyy' }],
      4: ['Bia', { value: Number(digits(b)), numFmt: '000\\.000\\.000\\-00' }, 7, null],
      5: ['Xis', 12345678909, 5, null],
    } }));
    const out = join(tempDir(), 'resultados.xlsx');
    const config = env();
    const result = await run(['each', input, '--yes', '--out', out, '--', 'scores', 'set', '{CPF}', '{Pontos}'], { env: config });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/3 rows: 2 done, 0 skipped, 1 failed/);
    expect([await scoreOf(a.id), await scoreOf(b.id)]).toEqual([12, 7]);

    const rows = await sheetRows(out);
    expect(rows[0]).toEqual(['line', 'Nome', 'CPF', 'Pontos', 'Inscrição', 'result', 'message', 'score', 'posts', 'comments', 'replies']);
    // The results workbook keeps the date a date (the writer's way with an ISO date), the CPFs as text.
    expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual([
      [2, 'Ana', digits(a), '12', new Date(Date.UTC(2026, 2, 1)), 'done'],
      [4, 'Bia', b.document, '7', undefined, 'done'],
      [5, 'Xis', '12345678909', '5', undefined, 'failed'],
    ]);
    expect(String(rows[3]?.[6])).toContain('not found');

    const again = await run(['each', out, '--only-failed', '--dry-run', '-o', 'json', '--', 'scores', 'set', '{CPF}', '{Pontos}'], { env: config });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([{ line: 4, command: 'members scores set 12345678909 5' }]);
  }, 60_000);

  it('students grant from a workbook on stdin: Portuguese headers, a date cell, a duplicate row collapsed', async () => {
    const product = bulk.catalog[0] as (typeof bulk.catalog)[number];
    // Students with no subscription to it: one with its access off would be refused (a renewal), not granted.
    const [a, b] = withCpf(2, (student) => holds(student, product.id) === 0) as [Student, Student];
    const bytes = await workbook({ Planilha1: {
      1: ['E-mail', 'Produto', 'Data da compra'],
      2: [a.email, product.id, { value: new Date(Date.UTC(2026, 0, 15)), numFmt: 'dd/mm/yyyy' }],
      3: [b.email, product.id, { value: new Date(Date.UTC(2026, 0, 16)), numFmt: 'dd/mm/yyyy' }],
      4: [a.email, product.id, { value: new Date(Date.UTC(2026, 0, 15)), numFmt: 'dd/mm/yyyy' }],
    } });
    const result = await run(['students', 'grant', '--file', '-', '--yes', '-o', 'ndjson'], { env: env(), input: bytes });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Columns of stdin: "E-mail" as student, "Produto" as product_id, "Data da compra" as accession_date');
    expect(result.stderr).toContain('1 duplicate row ignored (the same as an earlier row, cell for cell: line 4)');
    expect(ndjson<BulkResult>(result.stdout).map((row) => [row.line, row.student, row.result])).toEqual([[2, a.email, 'granted'], [3, b.email, 'granted']]);
    const now = (await allStudents(bulk.sandbox)).filter((student) => student.id === a.id || student.id === b.id);
    expect(now.every((student) => holdsAsAsked(student, product.id))).toBe(true);
  }, 60_000);

  it('a workbook that cannot be read is refused, exit 2, with what to do, and nothing is sent', async () => {
    const config = env();
    await bulk.settleAndReset();
    const csvNamedXlsx = writeCsv(bulk.dir, 'renamed.xlsx', ['student,product_id', 'a@x.io,p1']);
    const renamed = await run(['students', 'grant', '--file', csvNamedXlsx, '--yes'], { env: config });
    expect(renamed.code).toBe(2);
    expect(renamed.stderr).toContain('renamed.xlsx is named .xlsx but is not an xlsx workbook (it is no zip file); save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8" and try again');

    const empty = join(bulk.dir, 'vazia.xlsx');
    writeFileSync(empty, await workbook({ Planilha1: {} }));
    const nothing = await run(['each', empty, '--yes', '--', 'magic-link', '{E-mail}'], { env: config });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('vazia.xlsx is empty: expected a header row');

    const broken = join(bulk.dir, 'erro.xlsx');
    const [student] = withCpf(1);
    writeFileSync(broken, await workbook({ Planilha1: { 1: ['student', 'product_id'], 2: [student?.email ?? '', bulk.catalog[0]?.id ?? ''], 3: [student?.email ?? '', { error: '#N/A' }] } }));
    const errorCell = await run(['students', 'grant', '--file', broken, '--yes'], { env: config });
    expect(errorCell.code).toBe(2);
    expect(errorCell.stderr).toContain('line 3: product_id (cell B3) holds the error #N/A; fix it in the sheet');
    expect(errorCell.stderr).toContain('1 invalid row in');

    expect(await bulk.settledStats()).toEqual({});
  }, 60_000);
}, { each: true });
