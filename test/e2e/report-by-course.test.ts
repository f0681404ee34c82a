/**
 * `members report engaged-courses --group-by course` end to end (issue 38):
 * the built binary against `members sandbox` in both flavours, each format's
 * figures checked against the per-student rows of the same report.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, run, runInTerminal, tempDir, useSandboxProcess } from './harness.js';

interface StudentRow { user_id: string; course_id: string; course_name: string; course_completion_percent: string; course_avg_engagement_score: string }
interface CourseRow { course_id: string; course: string; students: number; finished: number; mean_completion: number; average_score: number }

/** The per-course figures, computed here from the per-student rows as a coordinator would in a spreadsheet. */
function byHand(rows: StudentRow[]): CourseRow[] {
  const courses = new Map<string, StudentRow[]>();
  for (const row of rows) courses.set(row.course_id, [...(courses.get(row.course_id) ?? []), row]);
  return [...courses].map(([courseId, of]) => ({
    course_id: courseId,
    course: of[0]?.course_name as string,
    students: new Set(of.map((row) => row.user_id)).size,
    finished: of.filter((row) => Number(row.course_completion_percent) >= 100).length,
    mean_completion: Math.round(of.reduce((sum, row) => sum + Number(row.course_completion_percent), 0) / of.length * 100) / 100,
    average_score: Number(of[0]?.course_avg_engagement_score),
  }));
}

describe.each([
  { flavor: 'default', args: [] },
  { flavor: 'laravel', args: ['--flavor', 'laravel'] },
])('report engaged-courses --group-by course ($flavor)', ({ args }) => {
  const sandbox = useSandboxProcess(['--students', '120', '--seed', '11', ...args]);
  const members = (more: string[], env: Record<string, string> = {}) => run(more, { env: { ...sandbox.env, ...env } });
  const report = ['report', 'engaged-courses', '--top', '8', '--limit', '9', '-q'];
  let expected: CourseRow[];
  let dir: string;

  beforeAll(async () => {
    dir = tempDir();
    const students = await members([...report, '-o', 'json']);
    expect(students.code).toBe(0);
    expected = byHand(JSON.parse(students.stdout) as StudentRow[]);
    expect(expected).toHaveLength(8);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('json: one record per course, in the report\'s order, with the figures of its student rows', async () => {
    const { code, stdout } = await members([...report, '--group-by', 'course', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(expected);
    // The server's average and the mean of the rows agree when every row was read.
    for (const course of expected) expect(course.mean_completion).toBeCloseTo(course.average_score, 1);
  });

  it('csv: one header, a line per course', async () => {
    const { code, stdout } = await members([...report, '--group-by', 'course', '-o', 'csv']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('course_id,course,students,finished,mean_completion,average_score');
    expect(parse(stdout, { columns: true, cast: (value, { header, column }) => (header || column === 'course_id' || column === 'course' ? value : Number(value)) })).toEqual(expected);
  });

  it('xlsx: a sheet of courses with numbers that sum', async () => {
    const file = join(dir, 'courses.xlsx');
    const { code } = await members([...report, '--group-by', 'course', '--out', file]);
    expect(code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.name).toBe('courses');
    expect(sheet.getRow(1).values).toEqual([undefined, 'course_id', 'course', 'students', 'finished', 'mean_completion', 'average_score']);
    const rows = expected.map((course, index) => (sheet.getRow(index + 2).values as unknown[]).slice(1));
    expect(rows).toEqual(expected.map((course) => Object.values(course)));
    expect(sheet.rowCount).toBe(expected.length + 1);
  });

  it.skipIf(!HAS_SCRIPT)('at a terminal: a bar per course, longest for the best course; ASCII under TERM=dumb, no colour under NO_COLOR', async () => {
    const unicode = await runInTerminal([...report, '--group-by', 'course', '--no-pager'], { columns: 110, env: { ...sandbox.env, NO_COLOR: '1' } });
    expect(unicode.code).toBe(0);
    expect(unicode.output).not.toContain('\u001b[3');
    const bars = expected.map((course) => {
      const line = unicode.output.split('\n').find((text) => text.includes(course.course)) as string;
      return (/█*[▏▎▍▌▋▊▉]?(?= *│\s*$)/.exec(line)?.[0] ?? '').length;
    });
    expect(bars[0]).toBeGreaterThan(10);
    // The report ranks courses by their average: the bars shrink down the table.
    expect([...bars].sort((a, b) => b - a)).toEqual(bars);
    const dumb = await runInTerminal([...report, '--group-by', 'course', '--no-pager'], { columns: 110, env: { ...sandbox.env, TERM: 'dumb' } });
    expect(dumb.code).toBe(0);
    expect(dumb.output).toMatch(/\| #{10,} +\|/);
    expect(dumb.output).not.toMatch(/[█▏▎▍▌▋▊▉│─]/);
  });
});
