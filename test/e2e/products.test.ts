/**
 * `members products …` end to end: the built binary against `members sandbox`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess } from './harness.js';

interface Product { id: string; title: string; type: string; status: string; lifetime: boolean; subscribers: { active: number; inactive: number } }
interface Page<T> { data: T[]; meta: { last_page: number; total: number } }

let products: Product[];

const members = (args: string[]) => run(args, { env: sandbox.env });

const sandbox = useSandboxProcess(['--students', '60', '--seed', '11']);

beforeAll(async () => {
  products = (await sandboxGet<Page<Product>>(sandbox, '/api/v1/products?per_page=100')).body.data;
});

describe('products list', () => {
  it('prints one page as a table, with the footer on stderr', async () => {
    const { code, stdout, stderr } = await members(['products', 'list', '--per-page', '2']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TITLE +TYPE +STATUS +LIFETIME +SUBSCRIBERS \(ACTIVE \/ INACTIVE\)$/);
    expect(lines).toHaveLength(3);
    const [first] = products;
    expect(lines[1]).toContain(first?.id);
    expect(lines[1]?.endsWith(`${first?.subscribers.active} / ${first?.subscribers.inactive}`)).toBe(true);
    expect(stderr).toBe(`Page 1 of ${Math.ceil(products.length / 2)} (${products.length} products). Use --page N or --all.\n`);
  });

  it('--all equals the union of the pages, and the API itself', async () => {
    const all = await members(['products', 'list', '--all', '-o', 'json']);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    const pages: Product[] = [];
    for (let page = 1; page <= Math.ceil(products.length / 2); page++) {
      const one = await members(['products', 'list', '--page', String(page), '--per-page', '2', '-o', 'ndjson']);
      expect(one.code).toBe(0);
      pages.push(...one.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Product));
    }
    expect(JSON.parse(all.stdout)).toEqual(pages);
    expect(pages).toEqual(products);
  });

  it('csv has a header of the scalar fields, nested ones as dot paths', async () => {
    const { code, stdout } = await members(['products', 'list', '-o', 'csv', '--fields', 'id,title,subscribers.active,subscribers.inactive']);
    expect(code).toBe(0);
    const [first] = products;
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      'id,title,subscribers.active,subscribers.inactive',
      `${first?.id},${first?.title},${first?.subscribers.active},${first?.subscribers.inactive}`,
    ]);
  });
});

describe('products get', () => {
  it('prints the product as sent with --json', async () => {
    const product = products[1] as Product;
    const { code, stdout } = await members(['products', 'get', product.id, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(product);
  });

  it('prints a key/value table', async () => {
    const product = products[0] as Product;
    const { code, stdout } = await members(['products', 'get', product.id]);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^ID +${product.id}\nTITLE +`));
    expect(stdout).toContain(`${product.subscribers.active} / ${product.subscribers.inactive}`);
  });

  it('exits 4 for an unknown product', async () => {
    const { code, stdout, stderr } = await members(['products', 'get', 'no-such-product']);
    expect(code).toBe(4);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: product no-such-product not found; no product has that title either (GET /api/v1/products/no-such-product). See `members products list --all`.\n');
  });
});
