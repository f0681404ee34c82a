/**
 * chooseReads (domain/bulk/reads.ts) against exact MockAgent pages: what each
 * --strategy reads before the changes, and nothing more (unused or missing
 * interceptors fail the test).
 */
import { describe, expect, it } from 'vitest';
import { chooseReads } from '../../../src/domain/bulk/reads.js';
import { MOCK_BASE, mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const student = (n: number) => ({ id: `s${n}`, email: `p${n}@example.com`, subscriptions: [] });

/** Page `page` of `total` students, 100 a page; `simple`: no last_page nor total. */
function page(number: number, total: number, simple = false) {
  const data = Array.from({ length: Math.max(0, Math.min(100, total - (number - 1) * 100)) }, (_, i) => student((number - 1) * 100 + i));
  const more = number * 100 < total;
  const meta = simple ? { current_page: number, per_page: 100 } : { current_page: number, last_page: Math.max(1, Math.ceil(total / 100)), per_page: 100, total };
  pool().intercept({ method: 'GET', path: `/api/v1/students?with=subscriptions&per_page=100&page=${number}` })
    .reply(200, { data, links: { next: more ? `${MOCK_BASE}/api/v1/students?page=${number + 1}` : null }, meta });
}
const needs = (distinctStudentKeys: number, rows: number) => ({ distinctStudentKeys, rows, needsProductList: false });
const settings = (choice: 'auto' | 'rows' | 'snapshot') => ({ choice, subscriptions: true });

describe('chooseReads', () => {
  it('--strategy rows reads nothing ahead', async () => {
    expect(await chooseReads(api(), needs(500, 500), settings('rows'))).toEqual({
      plan: { strategy: 'rows', rowsCost: 1_000, pagesExact: false, reason: '--strategy rows: 1,000 lookups' },
    });
  });

  it('auto with few lookups at stake reads nothing ahead', async () => {
    const { plan, snapshot } = await chooseReads(api(), needs(2, 2), settings('auto'));
    expect(plan.reason).toBe('4 lookups, too few to read the student list instead');
    expect(snapshot).toBeUndefined();
  });

  it('auto reads the first page, and stops there when the rows are cheaper', async () => {
    page(1, 1_000);
    const { plan, snapshot } = await chooseReads(api(), needs(3, 3), settings('auto'));
    expect(plan).toMatchObject({ strategy: 'rows', reason: '6 lookups instead of reading 10 pages' });
    expect(snapshot).toBeUndefined();
  });

  it('the rows look CPFs up in the spelling the first page shows: one lookup each', async () => {
    pool().intercept({ method: 'GET', path: '/api/v1/students?with=subscriptions&per_page=100&page=1' }).reply(200, {
      data: [{ ...student(0), document: '529.982.247-25' }, { ...student(1), document: '070.692.055-46' }, student(2)],
      links: { next: `${MOCK_BASE}/api/v1/students?page=2` }, meta: { current_page: 1, last_page: 10, per_page: 3, total: 30 },
    });
    const reads = await chooseReads(api(), needs(3, 3), settings('auto'));
    expect(reads).toMatchObject({ plan: { strategy: 'rows' }, spelling: 'punctuated' });
    expect(reads.snapshot).toBeUndefined();
  });

  it('auto walks on when the snapshot is cheaper, and reports the pages read', async () => {
    for (const n of [1, 2, 3]) page(n, 250);
    const { plan, snapshot } = await chooseReads(api(), needs(0, 50), settings('auto'));
    expect(plan).toEqual({ strategy: 'snapshot', rowsCost: 50, snapshotCost: 3, pagesExact: true, reason: 'read 3 pages instead of 50 lookups' });
    expect(snapshot?.total).toBe(250);
  });

  it('auto probes a server that counts nothing just past the lookups', async () => {
    page(1, 250, true);
    page(7, 250, true); // empty: the walk ends before it
    page(2, 250, true);
    page(3, 250, true);
    const { plan, snapshot } = await chooseReads(api(), needs(3, 3), settings('auto'));
    expect(plan).toMatchObject({ strategy: 'snapshot', reason: 'read 3 pages instead of 6 lookups' });
    expect(snapshot?.pages).toBe(3);
  });

  it('auto takes the rows when the probed page holds records', async () => {
    page(1, 1_000, true);
    page(7, 1_000, true);
    const { plan } = await chooseReads(api(), needs(3, 3), settings('auto'));
    expect(plan).toMatchObject({ strategy: 'rows', reason: '6 lookups instead of reading at least 7 pages' });
  });

  it('--strategy snapshot of one page says so', async () => {
    page(1, 40);
    const { plan } = await chooseReads(api(), needs(1, 1), settings('snapshot'));
    expect(plan.reason).toBe('--strategy snapshot: read 1 page');
  });

  it('--strategy snapshot walks whatever the cost, and says how far', async () => {
    page(1, 150);
    page(2, 150);
    const { plan, snapshot } = await chooseReads(api(), { ...needs(1, 1), needsProductList: true }, settings('snapshot'));
    expect(plan).toEqual({ strategy: 'snapshot', rowsCost: 3, snapshotCost: 3, pagesExact: true, reason: '--strategy snapshot: read 2 pages' });
    expect(snapshot?.total).toBe(150);
  });
});
