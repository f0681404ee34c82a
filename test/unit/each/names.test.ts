/** members each: every distinct product name of a run resolved once, the rows that give an unknown or ambiguous one marked. */
import { describe, expect, it } from 'vitest';
import { StoppingApi, type Api } from '../../../src/api/client.js';
import { checkNames, type NamingRow } from '../../../src/commands/shared/each/names.js';
import type { NameRequest } from '../../../src/domain/names.js';
import type { Session } from '../../../src/session/session.js';

const PRODUCTS = [{ id: 'p1', title: 'Python Pro' }, { id: 'p2', title: 'Clube de Finanças' }, { id: 'p3', title: 'Clube de Finanças' }];

/** A client whose every request is one page holding the whole product list; it counts them. */
class CatalogApi extends StoppingApi {
  reads = 0;

  constructor() {
    super(() => new Error('unexpected'));
  }

  override call<T>(): Promise<{ data: T }> {
    this.reads++;
    return Promise.resolve({ data: { data: PRODUCTS, links: { next: null }, meta: { current_page: 1, last_page: 1, per_page: 100, total: PRODUCTS.length } } as T });
  }
}

const product = (input: string): NameRequest => ({ noun: 'product', input, argument: 'PRODUCT' });
const sessionOf = (api: Api) => ({ api: () => Promise.resolve(api) }) as unknown as Session;

describe('checkNames', () => {
  it('one list read for the run; a typo marks each row that gives it with the did-you-mean, a shared title with both ids', async () => {
    const api = new CatalogApi();
    const rows: NamingRow[] = [
      { names: [product('python pro')] }, { names: [product('Pyton')] }, { names: [product('p2')] },
      { names: [product('Pyton'), product('Clube de Finanças')] }, { problem: 'invalid SCORE', names: [product('Pyton')] }, {},
    ];
    await checkNames(sessionOf(api), rows);
    expect(api.reads).toBe(1);
    expect(rows.map((row) => row.problem)).toEqual([
      undefined,
      'no product "Pyton" (by id, title or start of title). Did you mean: p1  Python Pro',
      undefined,
      'no product "Pyton" (by id, title or start of title). Did you mean: p1  Python Pro; '
        + 'PRODUCT "Clube de Finanças" names 2 products; give more of the title, or the id: p2  Clube de Finanças. p3  Clube de Finanças',
      'invalid SCORE',
      undefined,
    ]);
  });

  it('a name the command checks against the list is another question than the same text taken as an id', async () => {
    const api = new CatalogApi();
    const rows: NamingRow[] = [{ names: [product('99')] }, { names: [{ ...product('99'), check: true }] }, { names: [product('99')] }];
    await checkNames(sessionOf(api), rows);
    expect(rows.map((row) => row.problem === undefined)).toEqual([true, false, true]);
  });

  it('no row names a product: no client, no read', async () => {
    const session = { api: () => Promise.reject(new Error('no client wanted')) } as unknown as Session;
    const rows: NamingRow[] = [{ names: [] }, { problem: 'bad', names: [product('x')] }];
    await checkNames(session, rows);
    expect(rows.map((row) => row.problem)).toEqual([undefined, 'bad']);
  });

  it('what is not a usage error (the list could not be read) stops the check', async () => {
    const api = new StoppingApi(() => new Error('connection refused'));
    await expect(checkNames(sessionOf(api), [{ names: [product('Pyton')] }])).rejects.toThrow('connection refused');
  });
});
