/**
 * Leases between runs (issue 36): a run that changes many students takes a
 * lease on what it may change — the platform and the products in scope —
 * before it reads the state, renews it while it runs and releases it at the
 * end. A second run whose scope overlaps waits (`--wait`) and then gives up
 * (exit 10) naming the holder: two syncs of one file never both apply.
 *
 * A lease names its holder (user, machine, process, command) and expires on
 * its own when not renewed: a holder that died (SIGKILL, a power cut) blocks
 * others for one renewal period at most, never for good. No PostgreSQL
 * advisory lock, which a pooler in transaction mode loses: a lease is a row
 * (or, in the local home, a file), taken by an atomic insert.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { LeaseHeldError } from '../lib/errors.js';

/**
 * What a run may change: every product of a platform (`all`) or some; or, for
 * a run of a command on a file (`each`, commands/shared/each/resume.ts), that
 * run: its key, whatever products its rows name.
 */
export interface LeaseScope {
  base_url: string;
  products: readonly string[] | 'all';
  /** The run's key: the lease meets only the leases on the same key. */
  run_key?: string;
}

export interface LeaseHolder {
  user: string;
  host: string;
  pid: number;
  /** `sync`, `students grant --file`… */
  command: string;
}

export interface Lease extends LeaseScope, LeaseHolder {
  id: string;
  /** ISO times: taken, and when it ends unless renewed. */
  since: string;
  expires: string;
}

/** What the lease is asked for: the new lease, or the live one in its way. */
export type Taking = { taken: Lease } | { held: Lease };

/** Where leases live: a home of the change record (local files, or the team's PostgreSQL). */
export interface LeaseHome {
  /**
   * Atomically: the leases that overlap `lease` are looked for among the live
   * ones, and `lease` is stored when there is none, to end `ttlMs` from now
   * (the home's clock: the database's, for a team).
   */
  take(lease: Lease, ttlMs: number): Promise<Taking>;
  /** Moves its end to `ttlMs` from now; false when it is gone (broken, or expired and taken by another run). */
  renew(id: string, ttlMs: number): Promise<boolean>;
  release(id: string): Promise<void>;
  /** The live leases, oldest first. */
  list(now: number): Promise<Lease[]>;
  /** Ends a lease whoever holds it (`members lock break`); the lease ended, or undefined when there was none. */
  end(id: string): Promise<Lease | undefined>;
}

/**
 * Whether two scopes may change the same subscription: one platform, and a product in common (or all of them);
 * or are the same run: one platform, one key.
 */
export function overlaps(a: LeaseScope, b: LeaseScope): boolean {
  if (a.base_url !== b.base_url) return false;
  if (a.run_key !== undefined || b.run_key !== undefined) return a.run_key === b.run_key;
  if (a.products === 'all' || b.products === 'all') return true;
  const theirs = new Set(b.products);
  return a.products.some((product) => theirs.has(product));
}

/** A lease not renewed in this long is its dead holder's: another run may take the scope. */
export const LEASE_TTL_MS = 30_000;

/** Whether a lease still holds at `now`. */
export const live = (lease: Pick<Lease, 'expires'>, now: number) => Date.parse(lease.expires) > now;

export function newLeaseId(): string {
  return `l${randomBytes(4).toString('hex')}`;
}

/** A lease this run holds: renewed until released. */
export interface HeldLease {
  readonly lease: Lease;
  release(): Promise<void>;
}

export interface LeaseRequest {
  scope: LeaseScope;
  holder: Omit<LeaseHolder, 'host'> & { host?: string };
  /** How long to wait for an overlapping lease to end (`--wait`); 0: give up at once. */
  waitMs: number;
  ttlMs?: number;
  /** Whether the holder of a lease is known to be gone (a process of this machine no longer running): its lease is ended at once. */
  isDead?: (held: Lease) => boolean;
  /** Told once when the run starts waiting. */
  onWait?: (held: Lease) => void;
  /** How to pause between attempts (tests give a fake clock nothing: they wait on events). */
  pause?: (ms: number) => Promise<void>;
  now?: () => number;
}

const POLL_MS = 250;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes a lease on `scope`, waiting up to `waitMs` for overlapping ones to
 * end; LeaseHeldError (exit 10) naming the holder otherwise. The lease is
 * renewed every third of its life until released.
 */
export async function holdLease(home: LeaseHome, request: LeaseRequest): Promise<HeldLease> {
  const { waitMs, ttlMs = LEASE_TTL_MS, pause = sleep, now = Date.now } = request;
  const start = now();
  let told = false;
  for (;;) {
    const at = now();
    const lease: Lease = {
      id: newLeaseId(), ...request.scope,
      host: hostname(), ...request.holder, since: new Date(at).toISOString(), expires: new Date(at + ttlMs).toISOString(),
    };
    const taking = await home.take(lease, ttlMs);
    if ('taken' in taking) return keep(home, taking.taken, ttlMs);
    // A run of this machine killed, or stopped by a lost record, before it could release its lease: no need to wait for it to expire.
    if (request.isDead?.(taking.held)) {
      await home.end(taking.held.id);
      continue;
    }
    if (at - start >= waitMs) throw new LeaseHeldError(heldMessage(taking.held, waitMs));
    if (!told) request.onWait?.(taking.held);
    told = true;
    await pause(Math.min(POLL_MS, Math.max(waitMs - (at - start), 1)));
  }
}

function keep(home: LeaseHome, lease: Lease, ttlMs: number): HeldLease {
  const timer = setInterval(() => {
    home.renew(lease.id, ttlMs).catch(() => false);
  }, Math.max(Math.floor(ttlMs / 3), 1));
  // A renewal never keeps the process alive: the run's own work does.
  timer.unref();
  return {
    lease,
    async release() {
      clearInterval(timer);
      await home.release(lease.id);
    },
  };
}

/** `product 5f1c7a2e` / `products a, b` / `every product` of the platform, or the run of a command on a file. */
export function scopeText(scope: LeaseScope): string {
  if (scope.run_key !== undefined) return `the run of the same command on the same file on ${scope.base_url} (key ${scope.run_key})`;
  if (scope.products === 'all') return `every product of ${scope.base_url}`;
  return `${scope.products.length === 1 ? 'product' : 'products'} ${scope.products.join(', ')} of ${scope.base_url}`;
}

/** Who holds a lease, for a person: `ana on desk-3 (members sync, pid 4242) since 2026-11-28T17:02:11Z, until 17:02:41Z unless renewed`. */
export function holderText(lease: Lease): string {
  return `${lease.user} on ${lease.host} (members ${lease.command}, pid ${lease.pid}) since ${lease.since}, until ${lease.expires} unless renewed`;
}

function heldMessage(held: Lease, waitMs: number): string {
  const waited = waitMs > 0 ? ` after waiting ${Math.round(waitMs / 1000)} s` : '';
  return `another run holds the lease on ${scopeText(held)}${waited}: ${holderText(held)} (lease ${held.id}); nothing was sent. `
    + 'Run again when it ends, or wait for it with --wait DURATION (e.g. --wait 10m); '
    + `if that run is gone, its lease expires on its own, or end it with \`members lock break ${held.id} --reason TEXT\``;
}
