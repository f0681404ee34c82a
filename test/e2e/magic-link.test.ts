/** `members magic-link` end to end against `members sandbox`. */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

interface Student { id: string; email: string; document: string | null; reference_id: string | null }

let students: Student[];

const members = (args: string[], env: Record<string, string> = {}) => run(args, { env: { ...sandbox.env, ...env } });
const stats = async () => (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests;

const sandbox = useSandboxProcess(['--students', '60', '--seed', '5']);

beforeAll(async () => {
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100')).body.data;
});

describe('magic-link', () => {
  it('by e-mail: the URL alone on stdout, from the e-mail endpoint, with no lookup', async () => {
    const student = students.find((s) => s.email.includes('+')) ?? (students[0] as Student);
    const before = await stats();
    const { code, stdout, stderr } = await members(['magic-link', student.email]);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^${sandbox.url.replace(/[.]/g, '\\.')}/magic/[A-Za-z0-9_-]+\n$`));
    expect(stderr).toBe(`→ default (${new URL(sandbox.url).host})\n`);
    const after = await stats();
    const key = 'POST /api/v1/students/email/{email}/magic-link';
    expect(after[key]).toBe((before[key] ?? 0) + 1);
    expect(after['GET /api/v1/students/email/{email}'] ?? 0).toBe(before['GET /api/v1/students/email/{email}'] ?? 0);
  });

  it('by reference, --expire-in 2h, json: {expire_in, url}', async () => {
    const student = students.find((s) => s.reference_id !== null) as Student;
    const { code, stdout } = await members(['magic-link', `ref:${student.reference_id}`, '--expire-in', '2h', '-o', 'json', '--quiet']);
    expect(code).toBe(0);
    const link = JSON.parse(stdout) as { expire_in: number; url: string };
    expect(Object.keys(link)).toEqual(['expire_in', 'url']);
    expect(link.expire_in).toBe(7200);
  });

  it('by a document with a slash (RG/…) and by id', async () => {
    const student = students.find((s) => s.document?.includes('/')) ?? students.find((s) => s.document !== null) as Student;
    const byDoc = await members(['magic-link', `doc:${student.document}`, '--expire-in', '90', '-o', 'ndjson', '--fields', 'expire_in']);
    expect(byDoc).toMatchObject({ code: 0, stdout: '{"expire_in":90}\n' });
    const byId = await members(['magic-link', student.id, '-o', 'csv', '--fields', 'expire_in']);
    expect(byId).toMatchObject({ code: 0, stdout: 'expire_in\n3600\n' });
  });

  it('a bad duration is exit 2; an unknown student is exit 4', async () => {
    expect((await members(['magic-link', 'x@example.com', '--expire-in', 'soon'])).code).toBe(2);
    const unknown = await members(['magic-link', 'nobody@example.com']);
    expect(unknown.code).toBe(4);
    expect(unknown.stdout).toBe('');
  });
});
