/**
 * The lease a run that changes many students takes before it reads the
 * state (audit/leases.ts), on the platform in force and the products it may
 * change, in the change record in force (the team's when the profile uses
 * one: leases between machines); `--wait DURATION` says how long to wait for
 * an overlapping run. Exit 10 naming the holder otherwise, nothing sent. A run
 * of `members each` takes one on its key instead (one run of a command on a
 * file at a time, whatever products its rows name).
 */
import { hostname } from 'node:os';
import { Option, type Command } from 'commander';
import type { HeldLease } from '../../audit/leases.js';
import { parseDuration } from '../../lib/values.js';
import { UsageError } from '../../lib/errors.js';
import type { Session } from '../../session/session.js';

export const WAIT_OPTION = () => new Option('--wait <duration>', 'when another run holds a lease on the same products, wait for it this long (90s, 15m, 2h) before giving up with exit 10 (default 0: at once)');

/** `--wait` of the file forms of magic-link and scores (one run of the command on the file at a time, as `members each`). */
export const FILE_WAIT_OPTION = () => new Option('--wait <duration>', 'with --file: when another run of the same command on the same file is under way, wait up to this long (90s, 15m, 2h) for it to end, then do what it left, before giving up with exit 10 (default 0: at once)');

/** `--wait` given to a single change (no --file): it takes no lease, so nothing is waited for. */
export function fileWaitMs(wait: string | undefined, file: string | undefined): number {
  if (wait !== undefined && file === undefined) throw new UsageError('--wait goes with --file: a single change waits for no other run');
  return waitMs(wait);
}

export function addWaitOption<T extends Command>(command: T): T {
  return command.addOption(WAIT_OPTION()) as T;
}

/** `--wait` in milliseconds: 0 when not given (or 0); exit 2 for anything but a duration. */
export function waitMs(wait: string | undefined): number {
  if (wait === undefined || wait.trim() === '0') return 0;
  return parseDuration(wait, '--wait') * 1000;
}

/** What a lease is asked for: the products a run may change, or the run of a command on a file (its key, each/resume.ts). */
export type LeaseWanted = ({ products: readonly string[] | 'all' } | { runKey: string }) & { command: string; waitMs: number };

export async function takeLease(session: Session, request: LeaseWanted): Promise<HeldLease> {
  const [record, settings, { holdLease }, { auditBaseUrl, osUser }, messages] = await Promise.all([
    session.changeRecord(), session.settings(), import('../../audit/leases.js'), import('../../audit/stamp.js'), session.messages(),
  ]);
  return holdLease(record.leases, {
    scope: 'runKey' in request
      ? { base_url: auditBaseUrl(settings.baseUrl), products: [], run_key: request.runKey }
      : { base_url: auditBaseUrl(settings.baseUrl), products: request.products === 'all' ? 'all' : [...new Set(request.products)].sort() },
    holder: { user: osUser(session.io.env), pid: session.io.pid ?? 0, command: request.command },
    waitMs: request.waitMs,
    isDead: (held) => held.host === hostname() && held.pid !== session.io.pid && session.io.isRunning?.(held.pid) === false,
    onWait: (held) => messages.notice(`Waiting up to ${Math.round(request.waitMs / 1000)} s for the lease of ${held.user} on ${held.host} (members ${held.command}, lease ${held.id})…`),
  });
}
