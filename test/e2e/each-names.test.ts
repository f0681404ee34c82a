/**
 * `members each` resolves the product names of every row before anything is
 * sent (issue 37), in the default flavour and Laravel's: a typo on line 4 is
 * listed with the single command's "did you mean", exit 2, no change sent;
 * a good file reads the product list once for the whole run.
 */
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';
import { resetCounts, settled, stats, useBulkSandbox, writeCsv, type Product } from './bulk-helpers.js';

const LIST_PRODUCTS = 'GET /api/v1/products';
const changes = (counts: Record<string, number>) => Object.keys(counts).filter((route) => !route.startsWith('GET '));

/** The title with one letter of its longest word left out: a typo one edit away. */
function typo(product: Product): string {
  const word = product.title.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
  return word.slice(0, 2) + word.slice(3);
}

describe.each([
  { name: 'default', args: [] as string[] },
  { name: 'laravel', args: ['--flavor', 'laravel'] },
])('members each: product names checked first ($name)', ({ args }) => {
  const bulk = useBulkSandbox(['--students', '40', '--seed', '38', ...args]);
  const product = () => bulk.catalog.find((item) => item.title.split(/\s+/).some((word) => word.length >= 6)) as Product;

  it('a typo on line 4: listed with its did-you-mean, exit 2, no change sent', async () => {
    const [a, b, c, d] = bulk.students.slice(0, 4).map((student) => student.email) as [string, string, string, string];
    const title = product().title;
    const wrong = typo(product());
    const file = writeCsv(bulk.dir, 'acessos-typo.csv', ['Nome,E-mail,Produto', `A,${a},${title}`, `B,${b},${title}`, `C,${c},${wrong}`, `D,${d},${title}`]);
    const single = await bulk.members(['students', 'grant', c, wrong, '--yes']);
    expect(single.code).toBe(2);
    const said = (single.stderr.split('\n')[0] as string).replace(/^error: /, '');
    expect(said).toContain(`no product "${wrong}"`);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    const result = await bulk.members(['each', file, '--yes', '--', 'students', 'grant', '{E-mail}', '{Produto}']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: line 4: ${said}`);
    expect(result.stderr).toMatch(/line 4: .*Did you mean:/);
    expect(result.stderr).toContain(product().id);
    expect(result.stderr).not.toMatch(/line [235]:/);
    expect(result.stderr).toContain('1 invalid row in');
    await settled(bulk.sandbox);
    const counts = await stats(bulk.sandbox);
    expect(changes(counts)).toEqual([]);
    expect(counts[LIST_PRODUCTS]).toBe(1);
  }, 60_000);

  it('a good file: the product list read once for the whole run, every row granted', async () => {
    const students = bulk.students.slice(10, 16);
    const first = product();
    const second = bulk.catalog.find((item) => item.id !== first.id) as Product;
    const rows = students.map((student, index) => `${student.email},${index % 2 === 0 ? first.title.toUpperCase() : second.title}`);
    const file = writeCsv(bulk.dir, 'acessos.csv', ['E-mail,Produto', ...rows]);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    const result = await bulk.members(['each', file, '--yes', '-o', 'json', '--', 'students', 'grant', '{E-mail}', '{Produto}']);
    expect(result.code, result.stderr).toBe(0);
    const results = JSON.parse(result.stdout) as Array<{ result: string }>;
    expect(results.map((row) => row.result)).toEqual(students.map(() => 'done'));
    await settled(bulk.sandbox);
    expect((await stats(bulk.sandbox))[LIST_PRODUCTS]).toBe(1);
  }, 60_000);

  it('a start of title two products share, on line 3: listed with both, exit 2, one list read, no change sent', async () => {
    const [a, b] = bulk.students.slice(30, 32).map((student) => student.email) as [string, string];
    const shared = bulk.catalog.filter((item) => item.title.startsWith('C'));
    expect(shared.length).toBeGreaterThan(1);
    const file = writeCsv(bulk.dir, 'acessos-prefix.csv', ['E-mail,Produto', `${a},${product().title}`, `${b},C`]);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    const result = await bulk.members(['each', file, '--yes', '--', 'students', 'grant', '{E-mail}', '{Produto}']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`error: line 3: PRODUCT "C" names ${shared.length} products; give more of the title, or the id:`);
    for (const item of shared) expect(result.stderr).toContain(`${item.id}  ${item.title}`);
    expect(result.stderr).not.toMatch(/line 2:/);
    await settled(bulk.sandbox);
    const counts = await stats(bulk.sandbox);
    expect(changes(counts)).toEqual([]);
    expect(counts[LIST_PRODUCTS]).toBe(1);
  }, 60_000);

  it('a dry run names the unknown product too, and sends nothing', async () => {
    const file = writeCsv(bulk.dir, 'acessos-dry.csv', ['E-mail,Produto', `${bulk.students[20]?.email},${typo(product())}`]);
    await settled(bulk.sandbox);
    await resetCounts(bulk.sandbox);
    const result = await run(['each', file, '--dry-run', '--', 'students', 'grant', '{E-mail}', '{Produto}'], { env: bulk.sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: line 2: no product .*Did you mean:/);
    await settled(bulk.sandbox);
    expect(changes(await stats(bulk.sandbox))).toEqual([]);
  }, 60_000);
});
