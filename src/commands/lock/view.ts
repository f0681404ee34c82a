/** Leases as `members lock list` shows them. */
import type { Lease } from '../../audit/leases.js';
import type { JsonRecord, View } from '../../output/view.js';

export function leaseRecord(lease: Lease): JsonRecord {
  const { id, base_url, products, user, host, pid, command, since, expires } = lease;
  return { id, base_url, products: products === 'all' ? 'all' : [...products], run_key: lease.run_key ?? null, user, host, pid, command, since, expires };
}

export const LEASE_VIEW: View = {
  noun: 'leases',
  columns: [
    { header: 'id', path: 'id' },
    { header: 'user', path: 'user', format: (value, record) => `${String(value)}@${String(record.host)}` },
    { header: 'command', path: 'command' },
    // A lease on a run of a command on a file (`each`) names no product: its key says which run.
    { header: 'products', path: 'products', format: (value, record) => (typeof record.run_key === 'string' ? `run ${record.run_key}` : Array.isArray(value) ? value.join(', ') : 'all') },
    { header: 'platform', path: 'base_url', dropLate: true },
    { header: 'since', path: 'since', format: 'datetime' },
    { header: 'expires', path: 'expires', format: 'datetime' },
  ],
};
