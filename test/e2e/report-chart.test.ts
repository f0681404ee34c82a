/**
 * `members report engaged-courses --chart --out F.xlsx` (issue 38, item 2),
 * drawn by a real spreadsheet engine: LibreOffice converts the workbook to
 * PDF headless, poppler's pdftoppm rasterises its pages, and the pixels of
 * the chart's bar colour must stand where the chart is (under the table of
 * courses); the data bars of the students' sheet likewise. The same
 * workbook without --chart draws none: the check can fail.
 *
 * Needs `soffice` and `pdftoppm` on PATH; skipped loudly without them, a
 * failure with MEMBERS_REQUIRE_SOFFICE=1 (`npm run spreadsheet-check`, CI).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAR_COLOUR } from '../../src/output/xlsx-chart.js';
import { run, tempDir, useSandboxProcess } from './harness.js';

const installed = (command: string, flag: string) => spawnSync(command, [flag], { encoding: 'utf8' }).status === 0;
const tools = installed('soffice', '--version') && installed('pdftoppm', '-v');
if (!tools && process.env.MEMBERS_REQUIRE_SOFFICE === '1') {
  throw new Error('LibreOffice (soffice) or pdftoppm is not installed: apt-get install libreoffice-calc-nogui poppler-utils');
}

interface Image { width: number; height: number; pixels: Buffer }

/** A binary PPM (P6, 8 bits), what `pdftoppm` writes without -png. */
function readPpm(path: string): Image {
  const bytes = readFileSync(path);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error(`${path} is no 8-bit PPM`);
  return { width: Number(header[1]), height: Number(header[2]), pixels: bytes.subarray(header[0].length) };
}

const rgb = (hex: string) => [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

/** The pixels within a few levels of `colour`, and the top and bottom rows they span (in fractions of the page's height). */
function pixelsOf(image: Image, colour: string): { count: number; top: number; bottom: number } {
  const [r, g, b] = rgb(colour);
  let count = 0;
  let top = Number.POSITIVE_INFINITY;
  let bottom = -1;
  for (let i = 0; i + 2 < image.pixels.length; i += 3) {
    if (Math.abs((image.pixels[i] as number) - r) + Math.abs((image.pixels[i + 1] as number) - g) + Math.abs((image.pixels[i + 2] as number) - b) > 24) continue;
    count++;
    const row = Math.floor(i / 3 / image.width);
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
  }
  return { count, top: top / image.height, bottom: bottom / image.height };
}

describe.skipIf(!tools)('report engaged-courses --chart, drawn by LibreOffice', () => {
  const sandbox = useSandboxProcess(['--students', '120', '--seed', '11']);
  const members = (args: string[]) => run(args, { env: sandbox.env });
  let dir: string;

  /** The workbook's pages as LibreOffice prints them (the courses' sheet is one page wide), rasterised at 40 dpi. */
  function render(file: string): Image[] {
    const out = join(dir, file.replace(/\W/g, '_'));
    execFileSync('soffice', [`-env:UserInstallation=${pathToFileURL(join(dir, 'lo-profile')).href}`, '--headless', '--convert-to', 'pdf', '--outdir', out, file], { stdio: 'ignore', timeout: 120_000 });
    const pdf = readdirSync(out).find((name) => name.endsWith('.pdf')) as string;
    execFileSync('pdftoppm', ['-r', '40', join(out, pdf), join(out, 'page')], { timeout: 60_000 });
    return readdirSync(out).filter((name) => name.endsWith('.ppm')).sort().map((name) => readPpm(join(out, name)));
  }

  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the courses with their chart, then the students with data bars; LibreOffice draws both', async () => {
    const file = join(dir, 'engagement.xlsx');
    const made = await members(['report', 'engaged-courses', '--top', '8', '--chart', '--out', file, '-q']);
    expect(made.code, made.stderr).toBe(0);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['courses', 'students']);
    const courses = JSON.parse((await members(['report', 'engaged-courses', '--top', '8', '--group-by', 'course', '-o', 'json', '-q'])).stdout) as Array<Record<string, unknown>>;
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(courses.map((_, index) => (sheet.getRow(index + 2).values as unknown[]).slice(1))).toEqual(courses.map((course) => Object.values(course)));
    expect(workbook.worksheets[1]?.rowCount).toBe(courses.reduce((sum, course) => sum + (course.students as number), 0) + 1);
    const zip = await JSZip.loadAsync(readFileSync(file));
    const chart = await zip.file('xl/charts/chart1.xml')?.async('string');
    expect(chart).toContain(`<c:f>&#39;courses&#39;!$B$2:$B$9</c:f>`);
    expect(chart).toContain(`<c:f>&#39;courses&#39;!$E$2:$E$9</c:f>`);

    const [first, ...students] = render(file) as [Image, ...Image[]];
    // Page 1: the table of courses, then the chart under it; its bars in their colour, below the table's rows.
    const bars = pixelsOf(first, BAR_COLOUR);
    expect(bars.count).toBeGreaterThan(400);
    expect(bars.top).toBeGreaterThan(0.25);
    // Eight bars one under another: they span a good part of the page's height.
    expect(bars.bottom - bars.top).toBeGreaterThan(0.2);
    // The next pages: the students, with data bars (Excel's blue, 638EC6) on their completion.
    expect(students.reduce((sum, page) => sum + pixelsOf(page, '638EC6').count, 0)).toBeGreaterThan(50);
    expect(pixelsOf(first, '638EC6').count).toBe(0);
  });

  it('the same courses without --chart draw no bar: what the check above looks for is the chart', async () => {
    const file = join(dir, 'plain.xlsx');
    const made = await members(['report', 'engaged-courses', '--top', '8', '--group-by', 'course', '--out', file, '-q']);
    expect(made.code).toBe(0);
    const [first] = render(file) as [Image];
    expect(pixelsOf(first, BAR_COLOUR).count).toBe(0);
  });
});

if (!tools) it.skip('report --chart drawn by LibreOffice: soffice or pdftoppm is not installed (npm run spreadsheet-check needs them)');
