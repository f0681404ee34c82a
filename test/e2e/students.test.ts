/**
 * `members students …` end to end: the built binary against `members sandbox`.
 * One sandbox for the whole file; tests that change data pick their own students,
 * and the list tests compare with the sandbox as it is when they run (another
 * test may have created or deleted a student before), so any order passes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

interface Sub { product_id: string; product?: { title?: string | null } | null }
interface Student {
  id: string; email: string; full_name: string; document: string | null; reference_id: string | null; subscriptions?: Sub[];
}
interface Product { id: string; title: string }

let students: Student[];
let products: Product[];
/** Students no test changes, for the read-only tests. */
let plus: Student;
let byRef: Student;
let byDoc: Student;
/** Hands out a different student to each test that changes one. */
let nextFree = 0;

const members = (args: string[], env: Record<string, string> = {}) => run(args, { env: { ...sandbox.env, ...env } });
const stats = async () => (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests;
/** The students the sandbox has now, in list order. */
const current = async () => (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100')).body.data;
const ndjson = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

/** A student nobody else touches, holding none of `product` (when given). */
function freeStudent(without?: Product): Student {
  for (;;) {
    const candidate = students[students.length - 1 - nextFree++];
    if (!candidate) throw new Error('the sandbox ran out of students for the tests');
    if ([plus, byRef, byDoc].includes(candidate)) continue;
    if (without && candidate.subscriptions?.some((s) => s.product_id === without.id)) continue;
    return candidate;
  }
}

const sandbox = useSandboxProcess(['--students', '40', '--seed', '7']);

beforeAll(async () => {
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
  products = (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
  const find = (test: (s: Student) => boolean, what: string) => {
    const found = students.find(test);
    if (!found) throw new Error(`no sandbox student ${what}`);
    return found;
  };
  plus = find((s) => s.email.includes('+'), "with a '+' in the e-mail");
  byRef = find((s) => s.reference_id !== null && s !== plus, 'with a reference');
  byDoc = find((s) => s.document !== null && s !== plus && s !== byRef, 'with a document');
});

describe('students list', () => {
  it('prints one page as a table, with the footer on stderr', async () => {
    const { code, stdout, stderr } = await members(['students', 'list']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +E-MAIL +DOCUMENT +REFERENCE +CREATED$/);
    expect(lines).toHaveLength(16);
    // 40 seeded, give or take the one another test created or deleted: 3 pages of 15 either way.
    const total = (await current()).length;
    expect(stderr).toBe(`Page 1 of 3 (${total} students). Use --page N or --all.\n`);
  });

  it('--all returns exactly the pages one after another (fetched 4 at a time)', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const { code, stdout } = await members(['students', 'list', '--page', String(page), '--per-page', '7', '-o', 'ndjson']);
      expect(code).toBe(0);
      pages.push(stdout);
    }
    const all = await members(['students', 'list', '--all', '--per-page', '7', '-o', 'ndjson']);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    expect(all.stdout).toBe(pages.join(''));
    expect(ndjson<Student>(all.stdout).map((s) => s.id)).toEqual((await current()).map((s) => s.id));
  });

  it('--limit stops after N records; json is one array', async () => {
    const { code, stdout } = await members(['students', 'list', '--limit', '20', '-o', 'json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as Student[]).map((s) => s.id)).toEqual((await current()).slice(0, 20).map((s) => s.id));
  });

  it('csv with --fields, and --with-subscriptions', async () => {
    const { code, stdout } = await members(['students', 'list', '--page', '2', '--with-subscriptions', '-o', 'csv', '--fields', 'id,email']);
    expect(code).toBe(0);
    expect(stdout).toBe(['id,email', ...(await current()).slice(15, 30).map((s) => `${s.id},${s.email}`), ''].join('\n'));
  });

  it('a bad --per-page is exit 2', async () => {
    const { code, stderr } = await members(['students', 'list', '--per-page', 'lots']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --per-page "lots": expected an integer of at least 1\n');
  });
});

describe('students get', () => {
  it('by id, as json: the record as the API sends it', async () => {
    const { code, stdout } = await members(['students', 'get', byDoc.id, '--json']);
    expect(code).toBe(0);
    const expected = (await sandboxGet<{ data: Student }>(sandbox, `/api/v1/students/${byDoc.id}`)).body.data;
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it("by e-mail with a '+', as a table with the subscriptions below", async () => {
    const { code, stdout } = await members(['students', 'get', plus.email]);
    expect(code).toBe(0);
    expect(stdout).toContain(`E-MAIL     ${plus.email}\n`);
    expect(stdout).toMatch(/\nPRODUCT +PRODUCT ID +STATUS +ACCESS +ACCESSION +EXPIRATION\n/);
  });

  it('by doc: and by ref:', async () => {
    const doc = await members(['students', 'get', `doc:${byDoc.document}`, '-o', 'ndjson', '--fields', 'id']);
    expect(doc).toMatchObject({ code: 0, stdout: `{"id":"${byDoc.id}"}\n` });
    const ref = await members(['students', 'get', `ref:${byRef.reference_id}`, '-o', 'csv', '--fields', 'id,reference_id']);
    expect(ref).toMatchObject({ code: 0, stdout: `id,reference_id\n${byRef.id},${byRef.reference_id}\n` });
  });

  it('an unknown student is exit 4, with a JSON error line under -o json', async () => {
    const { code, stdout, stderr } = await members(['students', 'get', 'nobody@example.com', '-o', 'json']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    // The "not found", then where it looked for the student meant (issue 30): no e-mail of the list is near this one.
    const [text = '', json = ''] = stderr.trimEnd().split(/\n(?=\{"error")/);
    expect(text).toMatch(new RegExp('^error: student with e-mail nobody@example\\.com not found \\(GET /api/v1/students/email/nobody%40example\\.com\\)\n'
      + 'No student has a close e-mail \\(usual slips of the domain tried, all \\d+ e-mails compared\\)'));
    expect(JSON.parse(json)).toEqual({ error: { exit_code: 4, status: 404, message: text.slice('error: '.length) } });
  });

  it('a refused token is exit 3', async () => {
    const { code, stderr } = await members(['students', 'get', byDoc.id], { MEMBERS_TOKEN: 'not-the-token' });
    expect(code).toBe(3);
    expect(stderr).toMatch(/^error: unauthorized \(401\)/);
    expect(stderr).not.toContain('not-the-token');
  });
});

describe('students products', () => {
  it("lists a student's subscriptions", async () => {
    const { code, stdout } = await members(['students', 'products', `ref:${byRef.reference_id}`, '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(ndjson<Sub>(stdout).map((s) => s.product_id)).toEqual((byRef.subscriptions ?? []).map((s) => s.product_id));
  });
});

describe('students create', () => {
  const email = 'ana.lima+e2e@example.com';

  it('creates a student and prints it; a second time the server refuses it: exit 5', async () => {
    const created = await members([
      'students', 'create', '--first-name', 'Ana', '--last-name', 'Lima', '--email', email,
      '--birth', '1990-02-28', '--document', '987.654.321-00', '-o', 'json', '--reason', 'e2e',
    ]);
    expect(created.code).toBe(0);
    const student = JSON.parse(created.stdout) as Student;
    expect(student).toMatchObject({ full_name: 'Ana Lima', email, document: '987.654.321-00' });
    expect(created.stderr).toBe(`→ default (${new URL(sandbox.url).host})\n✓ Created student Ana Lima <${email}>\n`);
    expect((await sandboxGet(sandbox, `/api/v1/students/${student.id}`)).status).toBe(200);

    const again = await members(['students', 'create', '--first-name', 'Ana', '--last-name', 'Lima', '--email', email]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('The email has already been taken.');
  });

  it('checks the e-mail and the birth date before sending anything: exit 2', async () => {
    const before = (await stats())['POST /api/v1/students'] ?? 0;
    const badEmail = await members(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'no-at-sign']);
    expect(badEmail.code).toBe(2);
    const badBirth = await members(['students', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'ab@example.com', '--birth', '2001-02-29']);
    expect(badBirth.code).toBe(2);
    expect((await stats())['POST /api/v1/students'] ?? 0).toBe(before);
  });
});

describe('students grant and revoke', () => {
  it('grant, then grant again: the second is a notice, exit 0, and only one POST reached the server', async () => {
    const product = products[0] as Product;
    const student = freeStudent(product);
    const key = 'POST /api/v1/students/{id}/products';
    const before = (await stats())[key] ?? 0;

    const first = await members(['students', 'grant', student.email, product.id, '--accession', '2024-01-01', '--expiration', '2025-01-01', '-o', 'json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ product_id: product.id, accession_date: '2024-01-01', expiration_date: '2025-01-01' });

    const second = await members(['students', 'grant', student.email, product.id]);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe(`${student.full_name} <${student.email}> already has access to product "${product.title}" (${product.id}); nothing sent\n`);
    expect((await stats())[key]).toBe(before + 1);
  });

  it('revoke asks off a terminal (exit 2, no DELETE), then with --yes removes it; a second revoke is a notice', async () => {
    const product = products[1] as Product;
    const student = freeStudent(product);
    const path = `/api/v1/students/${student.id}/products/${product.id}`;
    const key = 'DELETE /api/v1/students/{id}/products/{product_id}';
    expect((await members(['students', 'grant', `doc:${student.document}`, product.id])).code).toBe(0);
    expect((await sandboxGet(sandbox, path)).status).toBe(200);
    const before = (await stats())[key] ?? 0;

    const asked = await members(['students', 'revoke', student.id, product.id]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('pass --yes');
    expect((await stats())[key] ?? 0).toBe(before);
    expect((await sandboxGet(sandbox, path)).status).toBe(200);

    const revoked = await members(['students', 'revoke', student.id, product.id, '--yes', '--reason', 'e2e']);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain(`✓ Revoked product "${product.title}" (${product.id}) from student ${student.id}`);
    expect((await sandboxGet(sandbox, path)).status).toBe(404);

    const again = await members(['students', 'revoke', student.id, product.id, '--yes']);
    expect(again).toMatchObject({ code: 0, stderr: `Student ${student.id} does not have product ${product.id}; nothing sent\n` });
    expect((await stats())[key]).toBe(before + 1);
  });

  it('revoking from an unknown student is exit 4', async () => {
    const product = products[0] as Product;
    const { code } = await members(['students', 'revoke', '00000000-0000-4000-8000-000000000000', product.id, '--yes']);
    expect(code).toBe(4);
  });

  it('bad dates are exit 2 before anything is sent', async () => {
    const { code, stderr } = await members(['students', 'grant', byDoc.id, 'p', '--expiration', '2024-02-30']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: invalid --expiration "2024-02-30": expected a real calendar date as YYYY-MM-DD\n');
  });
});

describe('students delete', () => {
  it('refuses off a terminal without --yes and sends nothing; with --yes deletes', async () => {
    const student = freeStudent();
    const refused = await members(['students', 'delete', student.email]);
    expect(refused.code).toBe(2);
    expect((await sandboxGet(sandbox, `/api/v1/students/${student.id}`)).status).toBe(200);

    const deleted = await members(['students', 'delete', student.id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toBe(`→ default (${new URL(sandbox.url).host})\n✓ Deleted student ${student.full_name} <${student.email}>\n`);
    expect((await sandboxGet(sandbox, `/api/v1/students/${student.id}`)).status).toBe(404);
  });
});
