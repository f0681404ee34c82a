/**
 * `--csv-dialect excel-br` opened by a real spreadsheet engine: LibreOffice
 * Calc (headless, Debian's libreoffice-calc-nogui) imports the export as a
 * Brazilian user would (pt-BR, `;`, UTF-8), and the cells must be what a person expects: accents intact,
 * leading zeros kept, decimals as numbers, dates as dates.
 *
 * Needs `soffice` on PATH. Without it this file is skipped, loudly; run
 * `npm run spreadsheet-check` (which sets MEMBERS_REQUIRE_SOFFICE=1, so a
 * missing LibreOffice fails instead).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startSandbox, tempDir, type SandboxProcess } from './harness.js';

const soffice = spawnSync('soffice', ['--version'], { encoding: 'utf8' }).status === 0;
if (!soffice && process.env.MEMBERS_REQUIRE_SOFFICE === '1') throw new Error('LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui');

/**
 * LibreOffice's CSV import options: `;`, `"`, UTF-8 (76), from line 1, pt-BR (1046), evaluate formulas.
 * (Its import dialog picks UTF-8 from the BOM; headless, the charset must be named. Excel needs the BOM
 * itself, which test/unit/output/csv.test.ts checks; here the BOM must not leak into the first header.)
 */
const PT_BR_IMPORT = 'CSV:59,34,76,1,,1046,false,true,false,false,false,-1,true';

interface Cell { type: string; value?: string; text: string }

const unescape = (text: string) => text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] as string);
const attribute = (attributes: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(attributes)?.[1];

/** The rows of the first sheet of a flat ODF spreadsheet (.fods), cell by cell. */
function readFods(path: string): Cell[][] {
  const xml = readFileSync(path, 'utf8');
  return [...xml.matchAll(/<table:table-row[^>]*>(.*?)<\/table:table-row>/gs)].map(([, row]) => {
    const cells: Cell[] = [];
    for (const [, attributes = '', body = ''] of (row as string).matchAll(/<table:table-cell([^>]*?)(?:\/>|>(.*?)<\/table:table-cell>)/gs)) {
      const text = unescape([...body.matchAll(/<text:p>(.*?)<\/text:p>/gs)].map(([, p]) => p).join('\n'));
      const value = attribute(attributes, 'office:date-value') ?? attribute(attributes, 'office:value');
      const cell = { type: attribute(attributes, 'office:value-type') ?? 'empty', value, text };
      const repeated = Number(attribute(attributes, 'table:number-columns-repeated') ?? 1);
      for (let i = 0; i < Math.min(repeated, 64); i++) cells.push(cell);
    }
    return cells;
  });
}

/** Opens a csv in LibreOffice as a pt-BR user would and gives its sheet as header → cell records. */
function openInCalc(csv: string, dir: string): Array<Record<string, Cell>> {
  execFileSync('soffice', [
    `-env:UserInstallation=${pathToFileURL(join(dir, 'lo-profile')).href}`, '--headless',
    `--infilter=${PT_BR_IMPORT}`, '--convert-to', 'fods', '--outdir', dir, csv,
  ], { stdio: 'ignore', timeout: 120_000 });
  const [header = [], ...rows] = readFods(csv.replace(/\.csv$/, '.fods'));
  return rows.filter((row) => row.some((cell) => cell.text !== '')).map((row) => Object.fromEntries(header.map((name, i) => [name.text, row[i] as Cell])));
}

describe.skipIf(!soffice)('csv for spreadsheets, opened in LibreOffice Calc (pt-BR)', () => {
  let sandbox: SandboxProcess;
  let dir: string;
  const members = (args: string[]) => run(args, { env: { ...sandbox.env, TZ: 'America/Sao_Paulo' } });

  beforeAll(async () => {
    sandbox = await startSandbox(['--students', '60', '--flavor', 'laravel']);
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
    const joao = openInCalc(file, dir).find((row) => row.email?.text === 'joao.conceicao@example.com.br');

    expect(joao?.full_name?.text).toBe('João da Conceição');
    expect(Object.keys(joao ?? {})[0]).toBe('id');
    expect(joao?.document).toMatchObject({ type: 'string', text: '01234567890' });
    expect(joao?.phone).toMatchObject({ type: 'string', text: '011912345678' });
    // The server's UTC instant, 3 hours earlier on the wall clock of São Paulo (no daylight saving since 2019).
    const local = new Date(Date.parse(createdAt) - 3 * 3_600_000).toISOString().slice(0, 19);
    expect(joao?.created_at).toMatchObject({ type: 'date', value: local });
  });

  it('report: decimals with two places are numbers, registration dates are dates', async () => {
    const file = join(dir, 'report.csv');
    const exported = await members(['report', 'engaged-courses', '--top', '2', '--csv-dialect', 'excel-br', '--out', file, '--quiet']);
    expect(exported.code, exported.stderr).toBe(0);
    const sent = readFileSync(file, 'utf8').split('\r\n')[1]?.split(';') ?? [];
    const rows = openInCalc(file, dir);

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
});

// Named in the report of a run without LibreOffice, so the skip is seen.
if (!soffice) it.skip('csv for spreadsheets in LibreOffice: soffice is not installed (npm run spreadsheet-check needs it)');
