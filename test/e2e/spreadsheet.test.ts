/**
 * Exports opened by a real spreadsheet engine, LibreOffice Calc (headless,
 * Debian's libreoffice-calc-nogui): `--csv-dialect excel-br` imported as a
 * Brazilian user would (pt-BR, `;`, UTF-8), and `-o xlsx` workbooks as they
 * are. The cells must be what a person expects: accents intact, leading
 * zeros kept, numbers they can sum, dates as dates in their own zone.
 *
 * Needs `soffice` on PATH. Without it this file is skipped, loudly; run
 * `npm run spreadsheet-check` (which sets MEMBERS_REQUIRE_SOFFICE=1, so a
 * missing LibreOffice fails instead).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, useSandboxProcess, tempDir } from './harness.js';

const soffice = spawnSync('soffice', ['--version'], { encoding: 'utf8' }).status === 0;
if (!soffice && process.env.MEMBERS_REQUIRE_SOFFICE === '1') throw new Error('LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui');

/**
 * LibreOffice's CSV import options: `;`, `"`, UTF-8 (76), from line 1, pt-BR (1046), evaluate formulas.
 * (Its import dialog picks UTF-8 from the BOM; headless, the charset must be named. Excel needs the BOM
 * itself, which test/unit/output/csv.test.ts checks; here the BOM must not leak into the first header.)
 */
const PT_BR_IMPORT = 'CSV:59,34,76,1,,1046,false,true,false,false,false,-1,true';

interface Cell { type: string; value?: string; text: string; bold: boolean }

const unescape = (text: string) => text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] as string);
const attribute = (attributes: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attributes)?.[1];

/** The rows of the first sheet of a flat ODF spreadsheet (.fods), cell by cell; bold from each cell's automatic style. */
function readFods(path: string): Cell[][] {
  const xml = readFileSync(path, 'utf8');
  const bold = new Set([...xml.matchAll(/<style:style style:name="([^"]+)"[^>]*>(.*?)<\/style:style>/gs)]
    .filter(([, , body]) => /fo:font-weight="bold"/.test(body as string)).map(([, name]) => name));
  return [...xml.matchAll(/<table:table-row[^>]*>(.*?)<\/table:table-row>/gs)].map(([, row]) => {
    const cells: Cell[] = [];
    for (const [, attributes = '', body = ''] of (row as string).matchAll(/<table:table-cell([^>]*?)(?:\/>|>(.*?)<\/table:table-cell>)/gs)) {
      const text = unescape([...body.matchAll(/<text:p>(.*?)<\/text:p>/gs)].map(([, p]) => p).join('\n'));
      const value = attribute(attributes, 'office:date-value') ?? attribute(attributes, 'office:value');
      const cell = { type: attribute(attributes, 'office:value-type') ?? 'empty', value, text, bold: bold.has(attribute(attributes, 'table:style-name') as string) };
      const repeated = Number(attribute(attributes, 'table:number-columns-repeated') ?? 1);
      for (let i = 0; i < Math.min(repeated, 64); i++) cells.push(cell);
    }
    return cells;
  });
}

/**
 * Opens a file in LibreOffice (a csv as a pt-BR user would, a workbook as it
 * is) and gives its header row and its other rows as header → cell records.
 */
function openInCalc(file: string, dir: string): { header: Cell[]; rows: Array<Record<string, Cell>> } {
  const filter = file.endsWith('.csv') ? [`--infilter=${PT_BR_IMPORT}`] : [];
  execFileSync('soffice', [
    `-env:UserInstallation=${pathToFileURL(join(dir, 'lo-profile')).href}`, '--headless',
    ...filter, '--convert-to', 'fods', '--outdir', dir, file,
  ], { stdio: 'ignore', timeout: 120_000 });
  const [header = [], ...rows] = readFods(file.replace(/\.\w+$/, '.fods'));
  const named = header.filter((cell) => cell.text !== '');
  return {
    header: named,
    rows: rows.filter((row) => row.some((cell) => cell.text !== '')).map((row) => Object.fromEntries(named.map((name, i) => [name.text, row[i] as Cell]))),
  };
}

/** A time as LibreOffice writes a date-value: midnight has no time part. */
const dateValue = (local: string) => local.replace(/T00:00:00$/, '');

/** The server's UTC instant on the wall clock of São Paulo, 3 hours earlier (no daylight saving since 2019). */
const inSaoPaulo = (instant: string) => dateValue(new Date(Date.parse(instant) - 3 * 3_600_000).toISOString().slice(0, 19));

describe.skipIf(!soffice)('csv and xlsx for spreadsheets, opened in LibreOffice Calc', () => {
  let dir: string;
  const members = (args: string[]) => run(args, { env: { ...sandbox.env, TZ: 'America/Sao_Paulo' } });

  const sandbox = useSandboxProcess(['--students', '60', '--flavor', 'laravel']);

  beforeAll(async () => {
    dir = tempDir('members-spreadsheet-');
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('students: accents, a digits-only document and phone with leading zeros, an instant in the user\'s zone', async () => {
    const created = await members(['students', 'create', '--first-name', 'João', '--last-name', 'da Conceição',
      '--email', 'joao.conceicao@example.com.br', '--document', '01234567890', '--phone', '011912345678', '--yes', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const createdAt = (JSON.parse(created.stdout) as { created_at: string }).created_at;

    const file = join(dir, 'students.csv');
    const exported = await members(['students', 'list', '--all', '--csv-dialect', 'excel-br', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const joao = openInCalc(file, dir).rows.find((row) => row.email?.text === 'joao.conceicao@example.com.br');

    expect(joao?.full_name?.text).toBe('João da Conceição');
    expect(Object.keys(joao ?? {})[0]).toBe('id');
    expect(joao?.document).toMatchObject({ type: 'string', text: '01234567890' });
    expect(joao?.phone).toMatchObject({ type: 'string', text: '011912345678' });
    expect(joao?.created_at).toMatchObject({ type: 'date', value: inSaoPaulo(createdAt) });
  });

  it('report: decimals with two places are numbers, registration dates are dates', async () => {
    const file = join(dir, 'report.csv');
    const exported = await members(['report', 'engaged-courses', '--top', '2', '--csv-dialect', 'excel-br', '--out', file, '--quiet']);
    expect(exported.code, exported.stderr).toBe(0);
    const sent = readFileSync(file, 'utf8').split('\r\n')[1]?.split(';') ?? [];
    const { rows } = openInCalc(file, dir);

    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0] ?? {})[0]).toBe('id');
    for (const row of rows) {
      expect(row.course_completion_percent?.type).toBe('float');
      expect(row.course_avg_engagement_score?.type).toBe('float');
      expect(row.registration_date?.type).toBe('date');
    }
    // 100,00 in the file is the number 100, and a two-decimal average keeps its value.
    const [percent, average] = sent.slice(-2).map((text) => Number(text.replace(',', '.')));
    expect(Number(rows[0]?.course_completion_percent?.value)).toBe(percent);
    expect(Number(rows[0]?.course_avg_engagement_score?.value)).toBe(average);
  });

  it('xlsx students: ids, documents and phones are text with their zeros, a birth is a date, an instant a date in the user\'s zone', async () => {
    const created = await members(['students', 'create', '--first-name', 'Zélia', '--last-name', 'Gattai',
      '--email', 'zelia.gattai@example.com.br', '--document', '00123456789', '--phone', '011987654321', '--birth', '1996-02-29',
      '--reference-id', '000123', '--yes', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const student = JSON.parse(created.stdout) as { id: string; created_at: string };

    const file = join(dir, 'students.xlsx');
    const exported = await members(['students', 'list', '--all', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const { header, rows } = openInCalc(file, dir);
    const zelia = rows.find((row) => row.email?.text === 'zelia.gattai@example.com.br');

    expect(header.map((cell) => cell.text).slice(0, 2)).toEqual(['id', 'first_name']);
    expect(header.every((cell) => cell.type === 'string' && cell.bold)).toBe(true);
    expect(zelia?.first_name).toMatchObject({ type: 'string', text: 'Zélia', bold: false });
    expect(zelia?.id).toMatchObject({ type: 'string', text: student.id });
    expect(zelia?.document).toMatchObject({ type: 'string', text: '00123456789' });
    expect(zelia?.phone).toMatchObject({ type: 'string', text: '011987654321' });
    expect(zelia?.reference_id).toMatchObject({ type: 'string', text: '000123' });
    expect(zelia?.birth).toMatchObject({ type: 'date', value: '1996-02-29' });
    expect(zelia?.created_at).toMatchObject({ type: 'date', value: inSaoPaulo(student.created_at) });
    // Frozen panes are view settings, which a headless conversion drops: read from the workbook itself.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    expect(workbook.worksheets[0]?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('xlsx report: decimals are numbers that sum to what the API sent, registration dates are dates', async () => {
    const file = join(dir, 'report.xlsx');
    const exported = await members(['report', 'engaged-courses', '--top', '2', '--out', file, '--quiet']);
    expect(exported.code, exported.stderr).toBe(0);
    const sent = JSON.parse((await members(['report', 'engaged-courses', '--top', '2', '-o', 'json', '--quiet'])).stdout) as Array<Record<string, string>>;
    const { rows } = openInCalc(file, dir);

    expect(rows.length).toBe(sent.length);
    for (const row of rows) {
      expect(row.id?.type).toBe('string');
      expect(row.course_completion_percent?.type).toBe('float');
      expect(row.course_avg_engagement_score?.type).toBe('float');
      expect(row.registration_date?.type).toBe('date');
    }
    const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
    expect(sum(rows.map((row) => Number(row.course_completion_percent?.value)))).toBe(sum(sent.map((row) => Number(row.course_completion_percent))));
    expect(rows[0]?.registration_date?.value).toBe(dateValue((sent[0]?.registration_date as string).replace(' ', 'T')));
  });

  it('xlsx subscriptions (Laravel): an integer id is text, the access flag a number', async () => {
    const file = join(dir, 'subscriptions.xlsx');
    const exported = await members(['subscriptions', 'list', '--per-page', '20', '-o', 'xlsx', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const { rows } = openInCalc(file, dir);

    expect(rows.length).toBe(20);
    for (const row of rows) {
      expect(row.id?.type).toBe('string');
      expect(row.id?.text).toMatch(/^\d+$/);
      expect(row.active).toMatchObject({ type: 'float', value: expect.stringMatching(/^[01]$/) });
      expect(row['product.title']?.type).toBe('string');
    }
  });
});

// Named in the report of a run without LibreOffice, so the skip is seen.
if (!soffice) it.skip('csv and xlsx for spreadsheets in LibreOffice: soffice is not installed (npm run spreadsheet-check needs it)');
