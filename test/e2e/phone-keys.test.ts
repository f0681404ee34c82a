/**
 * A phone number is a STUDENT key for every command (issue 37, item 3):
 * get, show and grant by a phone however it is written, several students
 * with the number exit 2 listing them, none exit 4, -v says how many requests
 * it took (checked against the sandbox's counters), and a bulk file of phones
 * reads the student list once. Through the binary, on both flavours, each
 * test in a sandbox of its own: it makes the state it asserts on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allPages, run, sandboxGet, tempDir } from './harness.js';
import { DESK_FLAVORS, deskSandbox } from './desk-flavors.js';

interface Student { id: string; email: string; first_name: string | null; last_name: string | null; phone: string | null; document: string | null; subscriptions: Sub[] }
interface Sub { product_id: string; active: number }
interface Product { id: string; title: string }

/** Two pages of students at 100 a page: a phone costs a walk of both. */
const SEED = ['--students', '150', '--seed', '11'];

const national = (phone: string) => phone.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '');
const spelled = (phone: string) => {
  const digits = national(phone);
  return `(${digits.slice(0, 2)}) ${digits.slice(2, -4)}-${digits.slice(-4)}`;
};

describe.each(DESK_FLAVORS.map(([name]) => name))('a phone as a STUDENT (%s)', (flavor) => {
  const sandbox = deskSandbox(flavor, SEED, { each: true });
  const members = (args: string[]) => run(args, { env: sandbox.env });
  const counters = async () => (await sandboxGet<{ requests: Record<string, number> }>(sandbox, '/__sandbox/stats')).body.requests;
  const products = async () => (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
  /**
   * `count` students with a mobile phone no other student has and no
   * subscription to `unheld` (a grant of it grants, not a renewal of one with
   * its access off).
   */
  const withOwnPhone = async (count: number, unheld: readonly Product[] = []) => {
    const all = await allPages<Student>(sandbox, '/api/v1/students?with=subscriptions');
    const owners = (phone: string) => all.filter((other) => other.phone && national(other.phone) === national(phone)).length;
    const chosen = all.filter((student) => student.phone && /^\d{2}9\d{8}$/.test(national(student.phone)) && owners(student.phone) === 1
      && !unheld.some((product) => student.subscriptions.some((sub) => String(sub.product_id) === String(product.id)))).slice(0, count);
    expect(chosen).toHaveLength(count);
    return chosen as [Student, ...Student[]];
  };
  /** A new student with `student`'s phone: the id of the second student to have it. */
  const twinOf = async (student: Student) => {
    const twin = await members(['students', 'create', '--first-name', 'Gêmea', '--last-name', 'Fone', '--email', `twin-${flavor}@example.org`, '--phone', student.phone as string, '--yes', '-o', 'json']);
    expect(twin.code, twin.stderr).toBe(0);
    return String((JSON.parse(twin.stdout) as Student).id);
  };

  it('students get by a phone written three ways names the one student; -v says the requests it took, as the server counted them', async () => {
    const [student] = await withOwnPhone(1);
    for (const typed of [student.phone as string, spelled(student.phone as string), `phone:${national(student.phone as string)}`]) {
      const before = await counters();
      const got = await members(['students', 'get', typed, '-o', 'json', '-v']);
      expect(got.code, `${typed}: ${got.stderr}`).toBe(0);
      expect((JSON.parse(got.stdout) as Student).id).toBe(student.id);
      const said = /the phone of (.*), found in (\d+) requests \((\d+) pages of the student list/.exec(got.stderr);
      expect(said?.[1]).toContain(student.email);
      const after = await counters();
      const delta = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
      // The list's two pages, then the student by id: what the sandbox answered, and nothing else.
      expect(Number(said?.[3])).toBe(delta('GET /api/v1/students'));
      expect(Number(said?.[2])).toBe(delta('GET /api/v1/students') + delta('GET /api/v1/students/{id}'));
      expect(Object.values(after).reduce((a, b) => a + b, 0) - Object.values(before).reduce((a, b) => a + b, 0)).toBe(Number(said?.[2]));
    }
  });

  it('11 bare digits: a document and an id first, then the phone', async () => {
    const [student] = await withOwnPhone(1);
    const got = await members(['students', 'show', national(student.phone as string), '-o', 'json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(got.stdout))).toContain(student.id);
  });

  it('students grant by a phone grants that student', async () => {
    const [product] = (await products()) as [Product];
    const [student] = await withOwnPhone(1, [product]);
    const holds = async () => (await sandboxGet<{ data: Sub[] }>(sandbox, `/api/v1/students/${student.id}/products`)).body.data.some((sub) => String(sub.product_id) === String(product.id) && sub.active === 1);
    const granted = await members(['students', 'grant', spelled(student.phone as string), String(product.id), '--yes', '-o', 'json']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(await holds()).toBe(true);
  });

  it('no student with the number: exit 4 after reading the list; two: exit 2 listing both, nothing sent', async () => {
    const none = await members(['students', 'get', '+55 99 90000-0001']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no student has the phone +55 99 90000-0001 (the whole student list was read: ');

    const [student] = await withOwnPhone(1);
    const twinId = await twinOf(student);
    const before = await counters();
    const several = await members(['students', 'grant', spelled(student.phone as string), 'Python Pro', '--yes']);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(`2 students have the phone ${spelled(student.phone as string)}; give one's e-mail or id:`);
    expect(several.stderr).toContain(`  ${student.id}  `);
    expect(several.stderr).toContain(`  ${twinId}  `);
    const after = await counters();
    expect(Object.keys(after).filter((route) => !route.startsWith('GET ') && after[route] !== before[route])).toEqual([]);
  });

  it('a bulk file naming students by phone, one of them twice in two spellings: the list read once, no lookup, one change per row', async () => {
    const [product, other] = (await products()).slice(-2) as [Product, Product];
    const chosen = await withOwnPhone(3, [product, other]);
    const file = join(tempDir(), 'phones.csv');
    const rows = [...chosen.map((student) => `"${spelled(student.phone as string)}",${String(product.id)}`), `${chosen[0].phone as string},${String(other.id)}`];
    writeFileSync(file, ['student,product_id', ...rows].join('\n'));
    const before = await counters();
    const result = await members(['students', 'grant', '--file', file, '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/3 phones: the per-row reads would read the list too/);
    const after = await counters();
    const delta = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
    // One walk of the two pages (with subscriptions); no lookup by id; one grant per row.
    expect(delta('GET /api/v1/students')).toBe(2);
    expect(delta('GET /api/v1/students/{id}')).toBe(0);
    expect(delta('POST /api/v1/students/{id}/products')).toBe(4);
  });

  it('a bulk row naming a phone two students share fails listing them, from the one walk: the list is not read again', async () => {
    const [product] = (await products()) as [Product];
    const [shared, student] = await withOwnPhone(2, [product]) as [Student, Student];
    await twinOf(shared);
    const file = join(tempDir(), 'shared.csv');
    writeFileSync(file, ['student,product_id', `"${spelled(shared.phone as string)}",${String(product.id)}`, `"${spelled(student.phone as string)}",${String(product.id)}`].join('\n'));
    const before = await counters();
    const result = await members(['students', 'grant', '--file', file, '--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(7);
    const rows = JSON.parse(result.stdout) as Array<{ line: number; result: string; message: string }>;
    expect(rows.find((row) => row.line === 2)).toMatchObject({ result: 'failed' });
    expect(rows.find((row) => row.line === 2)?.message).toContain(`2 students have the phone ${spelled(shared.phone as string)}; give one's e-mail or id:`);
    expect(rows.find((row) => row.line === 3)).toMatchObject({ result: 'granted' });
    const after = await counters();
    expect((after['GET /api/v1/students'] ?? 0) - (before['GET /api/v1/students'] ?? 0)).toBe(2);
  });
});
