/** `members lock list|break` (issue 36): the leases of the change record in force. */
import type { Lease } from '../../audit/leases.js';
import { UsageError } from '../../lib/errors.js';
import { printList } from '../../session/run-kit.js';
import type { Session } from '../../session/session.js';
import { LEASE_VIEW, leaseRecord } from './view.js';

export async function listLocks(session: Session): Promise<void> {
  const record = await session.changeRecord();
  const leases = await record.leases.list(Date.now());
  await printList(session, LEASE_VIEW, leases.map(leaseRecord));
}

const LEASE_ID = /^l[0-9a-f]{8}$/;

export async function breakLock(session: Session, id: string, flags: { reason: string }): Promise<void> {
  if (!LEASE_ID.test(id)) throw new UsageError(`"${id}" is not a lease id (l followed by 8 hex digits); \`members lock list\` shows them`);
  if (flags.reason.trim() === '') throw new UsageError('--reason cannot be empty: say why the lease is ended');
  const record = await session.changeRecord();
  const lease = await record.leases.end(id);
  if (!lease) throw new UsageError(`no live lease ${id} in ${record.name} (it ended, or expired); \`members lock list\` shows the live ones`);
  const [{ stamper, write }] = await Promise.all([import('../../audit/stamp.js')]);
  const stamp = await stamper(session);
  await write(session, [stamp({ command: 'lock break', action: 'lock.break', result: 'broken', reason: flags.reason, before: leaseSnapshot(lease) })]);
  (await session.messages()).notice(`✓ Ended lease ${id} of ${lease.user} on ${lease.host} (members ${lease.command}, pid ${lease.pid}); recorded in ${record.name}`);
}

/** A flat picture of the lease for its record. */
function leaseSnapshot(lease: Lease) {
  const { id, base_url, user, host, pid, command, since, expires } = lease;
  return { id, base_url, products: lease.products === 'all' ? 'all' : lease.products.join(','), ...(lease.run_key === undefined ? {} : { run_key: lease.run_key }), user, host, pid, command, since, expires };
}
