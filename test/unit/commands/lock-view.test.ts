import { describe, expect, it } from 'vitest';
import { LEASE_VIEW, leaseRecord } from '../../../src/commands/lock/view.js';
import { tableCell } from '../../../src/output/cell.js';
import type { Lease } from '../../../src/audit/leases.js';

const lease = (extra: Partial<Lease>): Lease => ({
  id: 'l0123abcd', base_url: 'https://members.example.com', products: ['p1', 'p2'], user: 'ana', host: 'desk-1', pid: 42,
  command: 'sync', since: '2026-11-29T04:00:00.000Z', expires: '2026-11-29T04:00:30.000Z', ...extra,
});
const products = LEASE_VIEW.columns.find((column) => column.header === 'products');

describe('members lock list: a lease on products, and one on a run of a command on a file', () => {
  it('gives a lease on products no run key, and one on a run its key and no product', () => {
    expect(leaseRecord(lease({}))).toMatchObject({ products: ['p1', 'p2'], run_key: null });
    expect(leaseRecord(lease({ products: 'all' }))).toMatchObject({ products: 'all', run_key: null });
    expect(leaseRecord(lease({ products: [], run_key: 'ab12', command: 'each scores add' }))).toMatchObject({ products: [], run_key: 'ab12' });
    expect(Object.keys(leaseRecord(lease({})))).toEqual(['id', 'base_url', 'products', 'run_key', 'user', 'host', 'pid', 'command', 'since', 'expires']);
  });

  it('shows under products the products, all, or the run', () => {
    if (!products) throw new Error('no products column');
    expect(tableCell(products, leaseRecord(lease({})))).toBe('p1, p2');
    expect(tableCell(products, leaseRecord(lease({ products: 'all' })))).toBe('all');
    expect(tableCell(products, leaseRecord(lease({ products: [], run_key: 'ab12' })))).toBe('run ab12');
  });
});
