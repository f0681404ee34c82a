/**
 * `members each` resolves the product names of every row before anything is
 * sent (issue 37), in the default flavour and Laravel's: a typo on line 4 is
 * listed with the single command's "did you mean", exit 2, no change sent;
 * a good file reads the product list once for the whole run.
 */
import { expect, it } from 'vitest';
import { sandboxGet } from './harness.js';
import { describeBulkFlavors, writeCsv, type Product } from './bulk-helpers.js';

const LIST_PRODUCTS = 'GET /api/v1/products';
const changes = (counts: Record<string, number>) => Object.keys(counts).filter((route) => !route.startsWith('GET '));

/** The title with one letter of its longest word left out: a typo one edit away. */
function typo(product: Product): string {
  const word = product.title.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
  return word.slice(0, 2) + word.slice(3);
}

describeBulkFlavors('members each: product names checked first', ['--students', '40', '--seed', '38'], (bulk) => {
  const product = () => bulk.catalog.find((item) => item.title.split(/\s+/).some((word) => word.length >= 6)) as Product;
  /** `members each FILE FLAGS -- students grant {E-mail} {Produto}`, the counters counting only it. */
  const grantEach = async (file: string, flags: string[]) => {
    await bulk.settleAndReset();
    return bulk.members(['each', file, ...flags, '--', 'students', 'grant', '{E-mail}', '{Produto}']);
  };
  /** After a run refused before anything was sent: no change, and the product list read once for the whole file. */
  const refusedAfterOneRead = async () => {
    const counts = await bulk.settledStats();
    expect(changes(counts)).toEqual([]);
    expect(counts[LIST_PRODUCTS]).toBe(1);
  };

  it('a typo on line 4: listed with its did-you-mean, exit 2, no change sent', async () => {
    const [a, b, c, d] = bulk.students.slice(0, 4).map((student) => student.email) as [string, string, string, string];
    const title = product().title;
    const wrong = typo(product());
    const file = writeCsv(bulk.dir, 'acessos-typo.csv', ['Nome,E-mail,Produto', `A,${a},${title}`, `B,${b},${title}`, `C,${c},${wrong}`, `D,${d},${title}`]);
    const single = await bulk.members(['students', 'grant', c, wrong, '--yes']);
    expect(single.code).toBe(2);
    const said = (single.stderr.split('\n')[0] as string).replace(/^error: /, '');
    expect(said).toContain(`no product "${wrong}"`);
    const result = await grantEach(file, ['--yes']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: line 4: ${said}`);
    expect(result.stderr).toMatch(/line 4: .*Did you mean:/);
    expect(result.stderr).toContain(product().id);
    expect(result.stderr).not.toMatch(/line [235]:/);
    expect(result.stderr).toContain('1 invalid row in');
    await refusedAfterOneRead();
  }, 60_000);

  it('a good file: the product list read once for the whole run, every row granted', async () => {
    const students = bulk.students.slice(10, 16);
    const first = product();
    const second = bulk.catalog.find((item) => item.id !== first.id) as Product;
    const rows = students.map((student, index) => `${student.email},${index % 2 === 0 ? first.title.toUpperCase() : second.title}`);
    const file = writeCsv(bulk.dir, 'acessos.csv', ['E-mail,Produto', ...rows]);
    const result = await grantEach(file, ['--yes', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const results = JSON.parse(result.stdout) as Array<{ result: string }>;
    expect(results.map((row) => row.result)).toEqual(students.map(() => 'done'));
    expect((await bulk.settledStats())[LIST_PRODUCTS]).toBe(1);
  }, 60_000);

  it('a start of title two products share, on line 3: listed with both, exit 2, one list read, no change sent', async () => {
    const [a, b] = bulk.students.slice(30, 32).map((student) => student.email) as [string, string];
    const shared = bulk.catalog.filter((item) => item.title.startsWith('C'));
    expect(shared.length).toBeGreaterThan(1);
    const file = writeCsv(bulk.dir, 'acessos-prefix.csv', ['E-mail,Produto', `${a},${product().title}`, `${b},C`]);
    const result = await grantEach(file, ['--yes']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: line 3: PRODUCT "C" names ${shared.length} products; give more of the title, or the id:`);
    for (const item of shared) expect(result.stderr).toContain(`${item.id}  ${item.title}`);
    expect(result.stderr).not.toMatch(/line 2:/);
    await refusedAfterOneRead();
  }, 60_000);

  it('a dry run names the unknown product too, and sends nothing', async () => {
    const file = writeCsv(bulk.dir, 'acessos-dry.csv', ['E-mail,Produto', `${bulk.students[20]?.email},${typo(product())}`]);
    const result = await grantEach(file, ['--dry-run']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: line 2: no product .*Did you mean:/);
    expect(changes(await bulk.settledStats())).toEqual([]);
  }, 60_000);
  it('courses accesses: a COURSE by id, by title and a typo on line 4: the typo listed, exit 2, no accesses read', async () => {
    const courses = (await sandboxGet<{ data: Array<{ id: string; title: string }> }>(bulk.sandbox, '/api/v1/courses?per_page=100')).body.data;
    const [first, second] = courses as [{ id: string; title: string }, { id: string; title: string }];
    const wrong = `${second.title}zzq`;
    const file = writeCsv(bulk.dir, 'cursos.csv', ['Curso', first.id, second.title, wrong]);
    await bulk.settleAndReset();
    const result = await bulk.members(['each', file, '-o', 'json', '--', 'courses', 'accesses', '{Curso}']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: line 4: no course "${wrong}"`);
    expect(result.stderr).not.toMatch(/line [23]:/);
    const counts = await bulk.settledStats();
    expect(Object.keys(counts).filter((route) => route.includes('/accesses'))).toEqual([]);
    // Without the typo: each row's accesses read once, the list of courses once for the whole file.
    const good = writeCsv(bulk.dir, 'cursos-ok.csv', ['Curso', first.id, second.title]);
    await bulk.settleAndReset();
    const ok = await bulk.members(['each', good, '-o', 'json', '--', 'courses', 'accesses', '{Curso}']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await bulk.settledStats()).toMatchObject({ 'GET /api/v1/courses/{id}/accesses': 2, 'GET /api/v1/courses': 1 });
  }, 60_000);
});
