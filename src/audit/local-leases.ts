/**
 * The local home's leases (audit/leases.ts): between the processes of one
 * machine, `leases/ID.json` in the config directory, one file per lease.
 * Taking one is atomic under `leases/.lock` (an exclusive create, the lock of
 * config/lock.ts): the overlapping live leases are looked for and the new
 * one written while no other run can do the same. Expired leases are swept
 * under that lock; a renewal replaces its file (a rename) only while it is there.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { withFileLock, type LockOptions } from '../config/lock.js';
import { live, overlaps, type Lease, type LeaseHome, type Taking } from './leases.js';

/** Held for one read of a few small files: a waiter outlasts a crash's. */
const GUARD: LockOptions = { timeoutMs: 10_000, staleMs: 5_000, guards: 'the leases' };

const LeaseShape = z.object({
  id: z.string(), base_url: z.string(), products: z.union([z.literal('all'), z.array(z.string())]), run_key: z.string().optional(),
  user: z.string(), host: z.string(), pid: z.number(), command: z.string(), since: z.string(), expires: z.string(),
});

export function leasesDir(configDir: string): string {
  return join(configDir, 'leases');
}

export class LocalLeases implements LeaseHome {
  private readonly dir: string;

  constructor(configDir: string) {
    this.dir = leasesDir(configDir);
  }

  async take(lease: Lease, ttlMs: number): Promise<Taking> {
    return this.guarded(() => {
      const now = Date.now();
      const held = this.sweep(now).find((other) => overlaps(other, lease));
      if (held) return { held };
      const taken = { ...lease, since: new Date(now).toISOString(), expires: new Date(now + ttlMs).toISOString() };
      this.write(taken);
      return { taken };
    });
  }

  async renew(id: string, ttlMs: number): Promise<boolean> {
    return this.guarded(() => {
      const lease = this.read(id);
      if (!lease) return false;
      this.write({ ...lease, expires: new Date(Date.now() + ttlMs).toISOString() });
      return true;
    });
  }

  async release(id: string): Promise<void> {
    rmSync(this.path(id), { force: true });
  }

  async list(now: number): Promise<Lease[]> {
    return this.guarded(() => this.sweep(now));
  }

  async end(id: string): Promise<Lease | undefined> {
    return this.guarded(() => {
      const lease = this.read(id);
      if (lease) rmSync(this.path(id), { force: true });
      return lease;
    });
  }

  private guarded<T>(work: () => T): T {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return withFileLock(join(this.dir, '.lock'), work, GUARD);
  }

  /** The live leases, oldest first; expired ones are removed. */
  private sweep(now: number): Lease[] {
    const leases: Lease[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      const lease = this.read(id);
      if (lease && live(lease, now)) leases.push(lease);
      else rmSync(this.path(id), { force: true });
    }
    return leases.sort((a, b) => a.since.localeCompare(b.since));
  }

  private read(id: string): Lease | undefined {
    try {
      // Stryker disable next-line StringLiteral: without an encoding the Buffer JSON.parse is given is read as UTF-8 all the same.
      const parsed = LeaseShape.safeParse(JSON.parse(readFileSync(this.path(id), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private write(lease: Lease): void {
    const temporary = join(this.dir, `.${lease.id}.tmp`);
    writeFileSync(temporary, JSON.stringify(lease), { mode: 0o600 });
    renameSync(temporary, this.path(lease.id));
  }

  private path(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}
