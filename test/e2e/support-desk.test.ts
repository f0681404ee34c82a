/**
 * Support-desk tickets end to end (issue 14): products and courses by name,
 * students by a bare CPF, typed as support staff type them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

interface Sub { product_id: string }
interface Student { id: string; email: string; document: string | null; subscriptions?: Sub[] }
interface Product { id: string; title: string }
interface Course { id: string; title: string; slug: string }

let students: Student[];
let products: Product[];
let courses: Course[];
let configDir: string;

const members = (args: string[]) => run(args, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir } });
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();

const sandbox = useSandboxProcess(['--students', '40', '--seed', '21']);

beforeAll(async () => {
  configDir = tempDir('members-desk-');
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
  products = (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
  courses = (await sandboxGet<{ data: Course[] }>(sandbox, '/api/v1/courses?per_page=100')).body.data;
});

describe('names instead of UUIDs', () => {
  it('grants by product title typed in another case and without accents', async () => {
    const product = products.find((p) => /[À-ú]/.test(p.title)) ?? products[0]!;
    const student = students.find((s) => !(s.subscriptions ?? []).some((sub) => sub.product_id === product.id))!;
    const { code, stdout, stderr } = await members(['students', 'grant', student.email, fold(product.title), '-o', 'json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ product_id: product.id, active: 1 });
  });

  it('an ambiguous or unknown product is exit 2 with candidates, and nothing is sent', async () => {
    const student = students[0]!;
    const unknown = await members(['students', 'grant', student.email, 'Curso Que Não Existe']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no product "Curso Que Não Existe"/);
    const unfiltered = await members(['subscriptions', 'list', '--product', 'Curso Que Não Existe']);
    expect(unfiltered.code).toBe(2);
    const first = products[0]!.title.slice(0, 1);
    const sharing = products.filter((p) => p.title.toLowerCase().startsWith(first.toLowerCase()));
    if (sharing.length > 1) {
      const ambiguous = await members(['students', 'grant', student.email, first]);
      expect(ambiguous.code).toBe(2);
      for (const p of sharing.slice(0, 8)) expect(ambiguous.stderr).toContain(p.id);
    }
  });

  it('a bulk file by product titles: --dry-run checks every product cell, ids too, before anything', async () => {
    const product = products.find((p) => /[À-ú]/.test(p.title)) ?? products[0]!;
    // From the end of the list: the first test grants this product to the first student without it.
    const student = students.findLast((s) => !(s.subscriptions ?? []).some((sub) => sub.product_id === product.id))!;
    const file = join(configDir, 'by-title.csv');
    const unknownId = '00000000-0000-4000-8000-000000000000';
    writeFileSync(file, `student,product_id\n${student.email},${fold(product.title).toLowerCase()}\n${student.id},${unknownId}\n`);
    const refused = await members(['students', 'grant', '--file', file, '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: line 3: no product "${unknownId}" (by id, title or start of title).`);
    writeFileSync(file, `student,product_id\n${student.email},${fold(product.title).toLowerCase()}\n`);
    const dry = await members(['students', 'grant', '--file', file, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual([expect.objectContaining({ line: 2, product_id: product.id, result: 'granted' })]);
  });

  it('course accesses by course title and by slug give what the id gives', async () => {
    const course = courses[0]!;
    const byId = await members(['courses', 'accesses', course.id, '-o', 'json']);
    expect(byId.code, byId.stderr).toBe(0);
    for (const name of [course.title.toLowerCase(), course.slug]) {
      const byName = await members(['courses', 'accesses', name, '-o', 'json']);
      expect(byName.code, byName.stderr).toBe(0);
      expect(byName.stdout).toBe(byId.stdout);
    }
  });
});

describe('a course named by a word of its title', () => {
  it('is not a prefix: exit 4, offering the course whose title holds the word', async () => {
    const course = courses.find((c) => c.title.split(' ').length > 1)!;
    const word = fold(course.title.split(' ').at(-1)!).toLowerCase();
    const { code, stdout, stderr } = await members(['courses', 'accesses', word]);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toContain(`no course has that title either (GET /api/v1/courses/${encodeURIComponent(word)}/accesses). Did you mean:`);
    expect(stderr).toContain(`\n  ${course.id}  ${course.title}\n`);
  });
});

describe('students by CPF without doc:', () => {
  it('finds the student by a punctuated CPF and by its digits alone', async () => {
    const student = students.find((s) => s.document && /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(s.document))!;
    for (const key of [student.document!, student.document!.replace(/\D/g, '')]) {
      const { code, stdout, stderr } = await members(['students', 'get', key, '-o', 'json']);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ id: student.id, email: student.email });
    }
  });
});

describe('history of a student, whatever key the change used', () => {
  it('a grant made by doc: is found by e-mail and by id, with the product title', async () => {
    const student = students.find((s) => s.document && /^\d{3}\./.test(s.document) && s.id !== students[0]?.id)!;
    const product = products.find((p) => !(student.subscriptions ?? []).some((sub) => sub.product_id === p.id))!;
    const grant = await members(['students', 'grant', `doc:${student.document}`, product.id, '-q']);
    expect(grant.code, grant.stderr).toBe(0);
    for (const key of [student.email, student.id, student.document!.replace(/\D/g, '')]) {
      const { code, stdout } = await members(['history', '--student', key, '-o', 'json']);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as Array<{ student: string }>).map((r) => r.student)).toContain(`doc:${student.document}`);
    }
    const table = await members(['history', '--student', student.email]);
    expect(table.stdout).toContain(product.title);
    // Other formats give the log as recorded, and the title when --fields asks for it.
    const json = await members(['history', '--student', student.id, '-o', 'json', '--fields', 'product_id,product_title']);
    expect(JSON.parse(json.stdout)).toContainEqual({ product_id: product.id, product_title: product.title });
  });
});

describe('students search', () => {
  it('finds students by a name fragment without accents, streaming matches, saying how much it read', async () => {
    const target = students.find((s) => /[À-ú]/.test(s.email) === false && /\s/.test(s.email) === false)!;
    const { stdout: got } = await members(['students', 'get', target.id, '-o', 'json']);
    const name = (JSON.parse(got) as { first_name: string }).first_name;
    const fragment = fold(name).toLowerCase().slice(0, 4);
    const { code, stdout, stderr } = await members(['students', 'search', fragment, '-o', 'json']);
    expect(code, stderr).toBe(0);
    const found = JSON.parse(stdout) as Array<{ id: string }>;
    expect(found.map((s) => s.id)).toContain(target.id);
    expect(stderr).toMatch(new RegExp(`\\d+ match(es)? for "${fragment}" among ${students.length} students \\(1 page of 100 read\\)`));
  });

  it('a query of one character is a usage error', async () => {
    const { code, stderr } = await members(['students', 'search', 'a']);
    expect(code).toBe(2);
    expect(stderr).toContain('at least 2 characters');
  });
});

describe('students show', () => {
  it('one view: identity, subscriptions with access and why, score, courses, and this machine\'s history', async () => {
    const student = students.find((s) => (s.subscriptions ?? []).length >= 2)!;
    const product = products.find((p) => !(student.subscriptions ?? []).some((sub) => sub.product_id === p.id))!;
    expect((await members(['students', 'grant', student.id, product.id, '-q'])).code).toBe(0);
    const { code, stdout, stderr } = await members(['students', 'show', student.email, '-o', 'json']);
    expect(code, stderr).toBe(0);
    const view = JSON.parse(stdout) as {
      id: string; subscriptions: Array<{ product_id: string; access: string; access_why: string }>;
      score: { score: number }; courses: Array<{ course: string }>; history: Array<{ action: string; product_id: string; product_title: string }>;
    };
    expect(view.id).toBe(student.id);
    expect(view.subscriptions.map((s) => s.product_id)).toContain(product.id);
    for (const sub of view.subscriptions) expect(sub.access_why).toMatch(sub.access === 'yes' ? /^(active|access kept though)/ : /^access off: /);
    expect(typeof view.score.score).toBe('number');
    expect(Array.isArray(view.courses)).toBe(true);
    expect(view.history[0]).toMatchObject({ action: 'grant', product_id: product.id, product_title: product.title });

    const table = await members(['students', 'show', student.id]);
    expect(table.code).toBe(0);
    for (const header of ['E-MAIL', 'ACCESS  WHY', 'SCORE', 'COMMAND']) expect(table.stdout).toContain(header);
  });
});

describe('a list piped into head', () => {
  it('ends quietly: no error text, exit 141', async () => {
    const { spawnSync } = await import('node:child_process');
    const { BIN } = await import('./harness.js');
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" students list --all -o ndjson; echo "members=$?" >&2`], {
      env: { PATH: process.env.PATH, ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'],
    });
    // stdout to /dev/null is not closed: the baseline.
    expect(result.stderr).toBe('members=0\n');
    const piped = spawnSync('sh', ['-c', `{ "${process.execPath}" "${BIN}" students list --all -o ndjson --per-page 1; echo "members=$?" >&2; } | head -1 > /dev/null`], {
      env: { PATH: process.env.PATH, ...sandbox.env, MEMBERS_CONFIG_DIR: configDir }, encoding: 'utf8',
    });
    expect(piped.stderr).toBe('members=141\n');
  });
});

