/**
 * `members courses …` end to end: the built binary against `members sandbox`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

interface Lesson { id: string; title: string }
interface Module { id: string; title: string; lessons: Lesson[] }
interface Course { id: string; title: string; status: string; modules: Module[] }
interface Access { id: string; name: string; email: string; course: { last_access_at: string | null; finished: number; finished_at: string | null } }

let courses: Course[];

const members = (args: string[]) => run(args, { env: sandbox.env });

const sandbox = useSandboxProcess(['--students', '60', '--seed', '5']);

beforeAll(async () => {
  courses = (await sandboxGet<{ data: Course[] }>(sandbox, '/api/v1/courses?per_page=100')).body.data;
});

describe('courses list', () => {
  it('shows the counts of modules and lessons of every course', async () => {
    const { code, stdout } = await members(['courses', 'list', '--all']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TITLE +STATUS +PUBLISHED +MODULES +LESSONS$/);
    expect(lines).toHaveLength(courses.length + 1);
    courses.forEach((course, index) => {
      const lessons = course.modules.reduce((sum, module) => sum + module.lessons.length, 0);
      expect(lines[index + 1]).toMatch(new RegExp(`^${course.id} .* ${course.modules.length} +${lessons}$`));
    });
  });

  it('ndjson gives the records as sent', async () => {
    const { code, stdout } = await members(['courses', 'list', '--all', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Course)).toEqual(courses);
  });
});

describe('courses get', () => {
  it('shows the course, then its modules and lessons as a tree', async () => {
    const course = courses[0] as Course;
    const { code, stdout } = await members(['courses', 'get', course.id]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${course.title}  (${course.id})`);
    const tree = lines.filter((line) => /^[│├└ ]/.test(line));
    const expected = course.modules.flatMap((module) => [module.id, ...module.lessons.map((lesson) => lesson.id)]);
    expect(tree.map((line) => /\(([^)]+)\)/.exec(line)?.[1])).toEqual(expected);
    expect(tree.at(-1)).toMatch(/^ {4}└── /);
  });

  it('-o json is the record as sent', async () => {
    const course = courses[1] as Course;
    const { stdout } = await members(['courses', 'get', course.id, '-o', 'json']);
    expect(JSON.parse(stdout)).toEqual(course);
  });

  it('exits 4 for an unknown course', async () => {
    const { code, stderr } = await members(['courses', 'get', 'nope']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: course nope not found; no course has that title either (GET /api/v1/courses/nope). See `members courses list --all`.\n');
  });
});

describe('courses accesses', () => {
  it('csv lists who accessed the course, as the API has it', async () => {
    const course = courses[0] as Course;
    const accesses = (await sandboxGet<{ data: Access[] }>(sandbox, `/api/v1/courses/${course.id}/accesses`)).body.data;
    expect(accesses.length).toBeGreaterThan(0);
    const { code, stdout } = await members(['courses', 'accesses', course.id, '-o', 'csv', '--fields', 'name,email,course.finished']);
    expect(code).toBe(0);
    expect(stdout).toBe(['name,email,course.finished', ...accesses.map((a) => `${a.name},${a.email},${a.course.finished}`)].join('\n') + '\n');
  });

  it('table shows finished as yes/no', async () => {
    const course = courses[0] as Course;
    const { code, stdout } = await members(['courses', 'accesses', course.id]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +E-MAIL +LAST ACCESS +FINISHED +FINISHED AT$/);
    expect(lines.slice(1).every((line) => / (yes|no)( |$)/.test(line))).toBe(true);
  });

  it('exits 4 for an unknown course', async () => {
    const { code, stderr } = await members(['courses', 'accesses', 'nope', '-o', 'json']);
    expect(code).toBe(4);
    expect(stderr.split('\n')[0]).toBe('error: course nope not found; no course has that title either (GET /api/v1/courses/nope/accesses). See `members courses list --all`.');
  });
});
