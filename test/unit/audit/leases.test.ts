/**
 * Leases between runs (audit/leases.ts) on the local home (audit/local-leases.ts):
 * what a run waiting for another is told and when it gives up, how long a
 * lease lasts and how it is kept alive, and the files that hold them.
 * The contract both homes keep is test/unit/audit/change-record.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEASE_TTL_MS, holdLease, holderText, live, newLeaseId, scopeText, type Lease, type LeaseHome, type LeaseRequest } from '../../../src/audit/leases.js';
import { LocalLeases, leasesDir } from '../../../src/audit/local-leases.js';
import { ExitCode, LeaseHeldError } from '../../../src/lib/errors.js';

const BASE = 'https://members.example.com';
const holder = { user: 'ana', pid: 4242, command: 'sync' };

let dir: string;
let home: LocalLeases;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-leases-'));
  home = new LocalLeases(dir);
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const request = (fields: Partial<LeaseRequest> = {}): LeaseRequest => ({ scope: { base_url: BASE, products: ['p1'] }, holder, waitMs: 0, ...fields });

/** A lease as a home stores it, held by bia since `since`, for `ms` more. */
const stored = (fields: Partial<Lease> = {}, ms = 60_000): Lease => ({
  id: newLeaseId(), base_url: BASE, products: ['p1'], user: 'bia', host: 'desk-2', pid: 77, command: 'students grant --file',
  since: new Date().toISOString(), expires: new Date(Date.now() + ms).toISOString(), ...fields,
});

describe('holdLease', () => {
  it('takes a lease that names this machine, the holder and the scope, and lasts 30 s unless renewed', async () => {
    const held = await holdLease(home, request({ scope: { base_url: BASE, products: ['p1', 'p2'] } }));
    expect(held.lease).toMatchObject({ base_url: BASE, products: ['p1', 'p2'], user: 'ana', host: hostname(), pid: 4242, command: 'sync' });
    expect(held.lease.id).toMatch(/^l[0-9a-f]{8}$/);
    expect(Date.parse(held.lease.expires) - Date.parse(held.lease.since)).toBe(LEASE_TTL_MS);
    expect(LEASE_TTL_MS).toBe(30_000);
    expect(await home.list(Date.now())).toEqual([held.lease]);
    await held.release();
    expect(await home.list(Date.now())).toEqual([]);
  });

  it('keeps the host a holder names itself', async () => {
    const held = await holdLease(home, request({ holder: { ...holder, host: 'cron-1' } }));
    expect(held.lease.host).toBe('cron-1');
    await held.release();
  });

  it('gives up at once without --wait (exit 10), naming the holder, its scope and how to end it; nothing is waited for', async () => {
    const other = stored({ products: ['p1'] });
    await home.take(other, 60_000);
    const pause = vi.fn(async () => undefined);
    const onWait = vi.fn();
    const refused = holdLease(home, request({ pause, onWait }));
    await expect(refused).rejects.toThrow(LeaseHeldError);
    await expect(refused).rejects.toMatchObject({ exitCode: ExitCode.leaseHeld });
    const { message } = (await refused.catch((error: unknown) => error)) as Error;
    const [held] = await home.list(Date.now());
    expect(message).toBe(`another run holds the lease on product p1 of ${BASE}: bia on desk-2 (members students grant --file, pid 77) since ${held?.since}, `
      + `until ${held?.expires} unless renewed (lease ${other.id}); nothing was sent. Run again when it ends, or wait for it with `
      + `--wait DURATION (e.g. --wait 10m); if that run is gone, its lease expires on its own, or end it with \`members lock break ${other.id} --reason TEXT\``);
    expect(pause).not.toHaveBeenCalled();
    expect(onWait).not.toHaveBeenCalled();
  });

  it('waits up to --wait, polling every 250 ms at most, says once that it waits, then gives up saying how long it waited', async () => {
    const other = stored();
    await home.take(other, 60_000);
    let clock = 1_000_000;
    const pauses: number[] = [];
    const onWait = vi.fn();
    const refused = holdLease(home, request({
      waitMs: 600, onWait, now: () => clock,
      pause: async (ms) => {
        pauses.push(ms);
        clock += ms;
      },
    }));
    await expect(refused).rejects.toThrow(/^another run holds the lease on product p1 of https:\/\/members\.example\.com after waiting 1 s: bia on desk-2/);
    // 250, 250, then the 100 ms left; the fourth attempt is at 600 ms: given up.
    expect(pauses).toEqual([250, 250, 100]);
    expect(onWait).toHaveBeenCalledTimes(1);
    expect(onWait).toHaveBeenCalledWith(expect.objectContaining({ id: other.id, user: 'bia' }));
  });

  it('waits without being asked to say so, and takes the lease once the holder releases it', async () => {
    const other = stored();
    await home.take(other, 60_000);
    const held = await holdLease(home, request({ waitMs: 60_000, pause: async () => void await home.release(other.id) }));
    expect((await home.list(Date.now())).map((lease) => lease.id)).toEqual([held.lease.id]);
    await held.release();
  });

  it('ends the lease of a holder known to be gone and takes the scope, without waiting', async () => {
    const dead = stored({ pid: 999_999 });
    await home.take(dead, 60_000);
    const pause = vi.fn(async () => undefined);
    const held = await holdLease(home, request({ pause, isDead: (lease) => lease.pid === 999_999 }));
    expect(pause).not.toHaveBeenCalled();
    expect((await home.list(Date.now())).map((lease) => lease.id)).toEqual([held.lease.id]);
    await held.release();
  });

  it('renews the lease every third of its life until it is released, and never keeps the process alive for it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const renewals: string[] = [];
    const counted: LeaseHome = { ...delegate(home), renew: async (id, ttlMs) => (renewals.push(`${id} ${ttlMs}`), home.renew(id, ttlMs)) };
    const held = await holdLease(counted, request({ ttlMs: 900 }));
    vi.advanceTimersByTime(299);
    expect(renewals).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(renewals).toEqual([`${held.lease.id} 900`]);
    vi.advanceTimersByTime(600);
    expect(renewals).toHaveLength(3);
    await held.release();
    vi.advanceTimersByTime(3_000);
    expect(renewals).toHaveLength(3);
  });

  it('renews with the default life every 10 s, and shrugs off a renewal that fails (the record decides the run\'s fate)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const renewals: number[] = [];
    const failing: LeaseHome = { ...delegate(home), renew: async (_id, ttlMs) => { renewals.push(ttlMs); throw new Error('database gone'); } };
    const held = await holdLease(failing, request());
    vi.advanceTimersByTime(9_999);
    expect(renewals).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(renewals).toEqual([30_000]);
    await held.release();
  });

  it('renews even a lease of a few milliseconds (every millisecond, not never)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let renewals = 0;
    const counted: LeaseHome = { ...delegate(home), renew: async () => (renewals++, true) };
    const held = await holdLease(counted, request({ ttlMs: 2 }));
    vi.advanceTimersByTime(3);
    expect(renewals).toBe(3);
    await held.release();
  });
});

/** A home whose methods call `home`'s (to replace one of them). */
const delegate = (target: LeaseHome): LeaseHome => ({
  take: (lease, ttlMs) => target.take(lease, ttlMs), renew: (id, ttlMs) => target.renew(id, ttlMs), release: (id) => target.release(id),
  list: (now) => target.list(now), end: (id) => target.end(id),
});

describe('what a person is told of a lease', () => {
  it('names one product, several, or every product of the platform', () => {
    expect(scopeText({ base_url: BASE, products: ['p1'] })).toBe(`product p1 of ${BASE}`);
    expect(scopeText({ base_url: BASE, products: ['p1', 'p2'] })).toBe(`products p1, p2 of ${BASE}`);
    expect(scopeText({ base_url: BASE, products: 'all' })).toBe(`every product of ${BASE}`);
    expect(scopeText({ base_url: BASE, products: [], run_key: 'abc' })).toBe(`the run of the same command on the same file on ${BASE} (key abc)`);
  });

  it('names the holder, its machine, command and process, and the lease\'s times', () => {
    expect(holderText(stored({ since: '2026-11-28T17:02:11Z', expires: '2026-11-28T17:02:41Z' })))
      .toBe('bia on desk-2 (members students grant --file, pid 77) since 2026-11-28T17:02:11Z, until 2026-11-28T17:02:41Z unless renewed');
  });

  it('holds until its end, not at it', () => {
    const expires = '2026-11-28T17:02:41.000Z';
    expect(live({ expires }, Date.parse(expires) - 1)).toBe(true);
    expect(live({ expires }, Date.parse(expires))).toBe(false);
  });

  it('gives each lease an id of its own', () => {
    const ids = new Set(Array.from({ length: 50 }, newLeaseId));
    expect(ids.size).toBe(50);
  });
});

describe('the local home\'s leases', () => {
  it('keeps each lease in a file of its own that only its user may read, in a directory only its user may enter', async () => {
    const taking = await home.take(stored({ id: 'lcafe0001' }), 60_000);
    expect('taken' in taking).toBe(true);
    expect(leasesDir(dir)).toBe(join(dir, 'leases'));
    expect(readdirSync(join(dir, 'leases')).filter((name) => !name.startsWith('.'))).toEqual(['lcafe0001.json']);
    expect(statSync(join(dir, 'leases', 'lcafe0001.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'leases')).mode & 0o777).toBe(0o700);
  });

  it('times a lease by this machine\'s clock from when it is taken, whatever the lease asked for', async () => {
    const before = Date.now();
    const taking = await home.take(stored({ since: '2001-01-01T00:00:00.000Z', expires: '2001-01-01T00:00:01.000Z' }), 5_000);
    const taken = 'taken' in taking ? taking.taken : undefined;
    expect(Date.parse(taken?.since ?? '')).toBeGreaterThanOrEqual(before);
    expect(Date.parse(taken?.expires ?? '') - Date.parse(taken?.since ?? '')).toBe(5_000);
  });

  it('finds the oldest overlapping live lease in the way; one of another product or platform is not', async () => {
    const older = stored({ id: 'l00000002', products: ['p1', 'p2'], since: '2026-11-28T10:00:00.000Z' });
    const newer = stored({ id: 'l00000001', products: ['p2'], since: '2026-11-28T11:00:00.000Z' });
    await home.take(newer, 60_000);
    await home.take({ ...older, products: ['p9'] }, 60_000);
    // Rewritten with the times it asked for: the list is by `since`, not by file name or order of taking.
    writeFileSync(join(leasesDir(dir), 'l00000002.json'), JSON.stringify(older));
    writeFileSync(join(leasesDir(dir), 'l00000001.json'), JSON.stringify(newer));
    expect((await home.list(Date.now())).map((lease) => lease.id)).toEqual(['l00000002', 'l00000001']);
    expect(await home.take(stored({ products: ['p2'] }), 60_000)).toEqual({ held: older });
    expect(await home.take(stored({ products: 'all' }), 60_000)).toEqual({ held: older });
    expect('taken' in await home.take(stored({ products: ['p3'] }), 60_000)).toBe(true);
    expect('taken' in await home.take(stored({ base_url: 'https://other.example', products: 'all' }), 60_000)).toBe(true);
  });

  it('sweeps expired leases and files that are not leases, and leaves the others\' files alone', async () => {
    await home.take(stored({ id: 'lexpired1' }), 60_000);
    writeFileSync(join(leasesDir(dir), 'lexpired1.json'), JSON.stringify(stored({ id: 'lexpired1' }, -1)));
    writeFileSync(join(leasesDir(dir), 'ltorn0001.json'), '{"id":"ltorn0001","base_u');
    writeFileSync(join(leasesDir(dir), 'lshape001.json'), JSON.stringify({ id: 'lshape001', base_url: BASE }));
    writeFileSync(join(leasesDir(dir), 'notes.txt'), 'kept');
    // A copy a merge tool left beside a lease (its name but its last 5 characters): not a lease.
    writeFileSync(join(leasesDir(dir), 'llive0001.orig'), 'kept');
    const live = await home.take(stored({ id: 'llive0001' }), 60_000);
    expect('taken' in live).toBe(true);
    expect(readdirSync(leasesDir(dir)).filter((name) => !name.startsWith('.')).sort()).toEqual(['llive0001.json', 'llive0001.orig', 'notes.txt']);
    expect(await home.list(Date.now())).toHaveLength(1);
  });

  it('renews a lease that is there, to ttl from now, and refuses one that is gone', async () => {
    await home.take(stored({ id: 'lrenew001' }), 1_000);
    const before = Date.now();
    expect(await home.renew('lrenew001', 120_000)).toBe(true);
    const [renewed] = await home.list(Date.now());
    expect(Date.parse(renewed?.expires ?? '')).toBeGreaterThanOrEqual(before + 120_000);
    expect(Date.parse(renewed?.expires ?? '')).toBeLessThan(before + 121_000);
    expect(await home.renew('lmissing1', 120_000)).toBe(false);
    expect(readdirSync(leasesDir(dir)).filter((name) => name.endsWith('.json'))).toEqual(['lrenew001.json']);
  });

  it('ends a lease whoever holds it, once, and says which it ended', async () => {
    const lease = stored({ id: 'lbreak001' });
    await home.take(lease, 60_000);
    expect(await home.end('lbreak001')).toMatchObject({ id: 'lbreak001', user: 'bia', command: 'students grant --file' });
    expect(await home.end('lbreak001')).toBeUndefined();
    expect(await home.list(Date.now())).toEqual([]);
  });

  it('answers with no leases where none was ever taken, and releases one that is not there without a fuss', async () => {
    mkdirSync(dir, { recursive: true });
    expect(await home.list(Date.now())).toEqual([]);
    await expect(home.release('lmissing1')).resolves.toBeUndefined();
  });
});
