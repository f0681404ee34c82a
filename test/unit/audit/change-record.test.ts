/**
 * One contract, two homes (issue 36): the same suite runs against the local
 * files and a real PostgreSQL cluster started for the test (test/helpers/postgres.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRecord, type ChangeRecord, type IntentRows } from '../../../src/audit/record.js';
import { holdLease, overlaps, type Lease } from '../../../src/audit/leases.js';
import { openPostgresRecord, MIGRATIONS, checkRecordUrl, shownUrl } from '../../../src/audit/postgres-record.js';
import type { AuditRecord } from '../../../src/audit/log.js';
import { openRun } from '../../../src/audit/journal.js';
import type { AuditContext } from '../../../src/audit/stamp.js';
import { countSnapshotsPath, type CountSnapshot } from '../../../src/audit/count-snapshots.js';
import { ExitCode, LeaseHeldError } from '../../../src/lib/errors.js';
import { hasPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';

const BASE = 'https://members.example.com';

const record = (id: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({
  id, time: new Date().toISOString(), user: 'ana', profile: 'default', base_url: BASE, command: 'students revoke',
  action: 'revoke', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'revoked', ...extra,
});

const holder = { user: 'ana', pid: 4242, command: 'sync' };

const counts = (productId: string, takenAt: string, extra: Partial<CountSnapshot> = {}): CountSnapshot => ({
  profile: 'default', base_url: BASE, date: takenAt.slice(0, 10), taken_at: takenAt, product_id: productId, title: `Product ${productId}`, active: 10, inactive: 2, ...extra,
});

/** The contract every home keeps; `open` gives a fresh, empty record. */
function contract(name: string, open: () => Promise<ChangeRecord>, available: () => boolean) {
  describe.runIf(available())(`the change record: ${name}`, () => {
    let changes: ChangeRecord;
    beforeAll(async () => {
      changes = await open();
    });
    afterAll(async () => changes?.close());

    it('keeps appended records in order, and a record appended twice once (a push twice adds nothing)', async () => {
      expect(await changes.append([record('a1'), record('a2', { student_id: 's2' })])).toBe(2);
      expect(await changes.append([record('a1'), record('a3')])).toBe(1);
      expect((await changes.records()).map((kept) => kept.id)).toEqual(['a1', 'a2', 'a3']);
      expect((await changes.records())[1]).toMatchObject({ student_id: 's2', user: 'ana', action: 'revoke' });
      const status = await changes.status();
      expect(status).toMatchObject({ home: changes.home, answers: true, changes: 3 });
    });

    it('keeps product counts once each, in the order kept, with or without a base URL (a push twice adds nothing)', async () => {
      const september = counts('p1', '2026-09-01T03:00:00.000Z');
      const older = { ...counts('p2', '2026-09-01T03:00:00.000Z'), profile: 'school' } as CountSnapshot;
      delete older.base_url;
      const october = counts('p1', '2026-10-01T03:00:00.000Z', { active: 12 });
      expect(await changes.snapshots.keep([september, older])).toBe(2);
      expect(await changes.snapshots.keep([september, october, { ...september, base_url: 'https://other.example' }])).toBe(2);
      expect(await changes.snapshots.keep([])).toBe(0);
      expect(await changes.snapshots.read()).toEqual({ snapshots: [september, older, october, { ...september, base_url: 'https://other.example' }], skipped: 0 });
      expect(changes.snapshots.where).toContain(changes.home === 'local' ? 'product-counts.jsonl' : 'the team record');
    });

    it('gives a lease to one of two overlapping runs, names its holder to the other (exit 10), and lets it go at the end', async () => {
      const first = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p1', 'p2'] }, holder, waitMs: 0 });
      const refused = holdLease(changes.leases, { scope: { base_url: BASE, products: ['p2'] }, holder: { ...holder, user: 'bia', command: 'students grant --file' }, waitMs: 0 });
      await expect(refused).rejects.toThrow(LeaseHeldError);
      await expect(refused).rejects.toMatchObject({ exitCode: ExitCode.leaseHeld });
      await expect(refused).rejects.toThrow(/ana on .* \(members sync, pid 4242\).*members lock break l[0-9a-f]{8}/);
      // Another product, another platform: no overlap.
      const other = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p3'] }, holder, waitMs: 0 });
      const elsewhere = await holdLease(changes.leases, { scope: { base_url: 'https://other.example', products: 'all' }, holder, waitMs: 0 });
      expect((await changes.leases.list(Date.now())).map((lease) => lease.id).sort()).toEqual([first.lease.id, other.lease.id, elsewhere.lease.id].sort());
      await Promise.all([first.release(), other.release(), elsewhere.release()]);
      expect(await changes.leases.list(Date.now())).toEqual([]);
    });

    it('lets a waiting run take the lease once the holder releases it', async () => {
      const first = await holdLease(changes.leases, { scope: { base_url: BASE, products: 'all' }, holder, waitMs: 0 });
      let told: Lease | undefined;
      const second = holdLease(changes.leases, {
        scope: { base_url: BASE, products: ['p1'] }, holder, waitMs: 60_000,
        onWait: (held) => {
          told = held;
          void first.release();
        },
      });
      const taken = await second;
      expect(told?.id).toBe(first.lease.id);
      await taken.release();
    });

    it('lets a lease its holder stopped renewing expire, and refuses to renew it after', async () => {
      const dead = await changes.leases.take({ ...leaseFields(), id: 'ldeadbeef' }, 1);
      expect('taken' in dead).toBe(true);
      const next = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p1'] }, holder, waitMs: 5_000, pause: () => new Promise((resolve) => setTimeout(resolve, 5)) });
      expect(await changes.leases.renew('ldeadbeef', 30_000)).toBe(false);
      await next.release();
    });

    it('ends at once a lease whose holder is known to be gone, and takes the scope', async () => {
      const dead = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p7'] }, holder: { ...holder, pid: 999_999 }, waitMs: 0 });
      const next = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p7'] }, holder, waitMs: 0, isDead: (held) => held.pid === 999_999 });
      expect((await changes.leases.list(Date.now())).map((lease) => lease.id)).toEqual([next.lease.id]);
      await Promise.all([next.release(), dead.release()]);
    });

    it('ends a lease whoever holds it (lock break), once', async () => {
      const held = await holdLease(changes.leases, { scope: { base_url: BASE, products: ['p9'] }, holder, waitMs: 0 });
      expect((await changes.leases.end(held.lease.id))?.command).toBe('sync');
      expect(await changes.leases.end(held.lease.id)).toBeUndefined();
      expect(await changes.leases.renew(held.lease.id, 30_000)).toBe(false);
      await held.release();
    });
  });
}

const leaseFields = (): Lease => ({ id: '', base_url: BASE, products: ['p1'], ...holder, host: 'desk-1', since: '', expires: '' });

let local: string | undefined;
contract('local files', async () => new LocalRecord((local = await mkdtemp(join(tmpdir(), 'members-record-')))), () => true);
afterAll(async () => local && rm(local, { recursive: true, force: true }));

describe('the local record\'s product counts', () => {
  it('reads the product-counts.jsonl of earlier versions (no base URL) and skips a line cut by a crash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'members-counts-'));
    try {
      const older = { profile: 'default', date: '2026-08-01', taken_at: '2026-08-01T03:00:00.000Z', product_id: 'p1', title: 'Python Pro', active: 7, inactive: 1 };
      await writeFile(countSnapshotsPath(dir), `${JSON.stringify(older)}\n{"profile":"def`);
      const home = new LocalRecord(dir);
      expect(await home.snapshots.read()).toEqual({ snapshots: [older], skipped: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const withPostgres = hasPostgres();
let server: Postgres | undefined;
contract('PostgreSQL', async () => {
  server = await startPostgres();
  return openPostgresRecord(server.url);
}, () => withPostgres);
afterAll(async () => server?.stop());

describe.runIf(withPostgres)('the team record: its schema', () => {
  let pg: Postgres;
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => pg?.stop());

  it('creates its tables once, from two runs at once, at the version of this binary', async () => {
    const [a, b] = await Promise.all([openPostgresRecord(pg.url), openPostgresRecord(pg.url)]);
    const statuses = await Promise.all([a.status(), b.status()]);
    expect(statuses.map((status) => status.schema)).toEqual([MIGRATIONS.length, MIGRATIONS.length]);
    expect(await pg.sql('SELECT version FROM members_schema')).toBe(`${MIGRATIONS.length}\n`);
    await Promise.all([a.close(), b.close()]);
  });

  it('writes the intents of changes at once, and a record appended concludes its intent; appends at once count each its own', async () => {
    const changes = await openPostgresRecord(pg.url);
    const intents = changes.intents as IntentRows;
    const intent = (id: string) => ({ record: record(id), pid: 4242, host: 'desk-1', log_offset: 0, deadline: new Date().toISOString() });
    await Promise.all(['i1', 'i2', 'i3'].map((id) => intents.write(intent(id))));
    expect((await intents.list()).map((kept) => kept.record.id).sort()).toEqual(['i1', 'i2', 'i3']);
    expect(await changes.append([record('i1'), record('i2')])).toBe(2);
    expect((await intents.list()).map((kept) => kept.record.id)).toEqual(['i3']);
    // Appends at once (two on their way, the rest grouped behind them): each counts its own.
    expect(await Promise.all([changes.append([record('x1')]), changes.append([record('i3')]), changes.append([record('i1'), record('i4')])])).toEqual([1, 1, 1]);
    expect(await intents.list()).toEqual([]);
    expect((await changes.records()).map((kept) => kept.id).sort()).toEqual(['i1', 'i2', 'i3', 'i4', 'x1']);
    await changes.close();
  });

  it('starts on a current schema without locking it: a run is not queued behind another that holds the schema table', async () => {
    const first = await openPostgresRecord(pg.url);
    await first.status();
    await first.close();
    const { default: pgModule } = await import('pg');
    const other = new pgModule.Client({ connectionString: pg.url });
    await other.connect();
    try {
      // SHARE: lets reads through, holds off the migrator's ACCESS EXCLUSIVE lock until this transaction ends.
      await other.query('BEGIN');
      await other.query('LOCK TABLE members_schema IN SHARE MODE');
      const changes = await openPostgresRecord(pg.url);
      expect(await changes.status()).toMatchObject({ answers: true, schema: MIGRATIONS.length });
      await changes.close();
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  }, 10_000);

  it('lets a run take its next change while a record is on its way, and records the run once every record is in', async () => {
    const changes = await openPostgresRecord(pg.url);
    const context: AuditContext = {
      io: { env: {}, stderr: { write: () => true }, pid: 4242 },
      settings: async () => ({ profile: 'default', baseUrl: BASE }),
      configDir: async () => tmpdir(),
      changeRecord: async () => changes,
    };
    const { default: pgModule } = await import('pg');
    const other = new pgModule.Client({ connectionString: pg.url });
    await other.connect();
    // Another session holds the records' table: an INSERT there waits until it lets go.
    await other.query('BEGIN');
    await other.query('LOCK TABLE members_changes IN EXCLUSIVE MODE');
    const run = await openRun(context, { command: 'students grant --file' });
    const first = await run.begin({ action: 'grant', student_id: 's1', product_id: 'p1', result: 'granted' });
    const id = await first.applied();
    // Its record waits for the lock; the next change's intent is written meanwhile.
    const second = await run.begin({ action: 'grant', student_id: 's2', product_id: 'p1', result: 'granted' });
    expect((await (changes.intents as IntentRows).list()).map((intent) => intent.record.id)).toEqual(expect.arrayContaining([id, second.id]));
    await second.applied();
    const finished = run.finish({ counts: { granted: 2 } });
    await other.query('COMMIT');
    await other.end();
    const runId = await finished;
    const kept = (await changes.records()).filter((record) => record.run_id === run.runId || record.id === runId).map((record) => record.id);
    // The two records in either order (both were on their way at once), the run's after them.
    expect([...kept.slice(0, 2).sort(), kept[2]]).toEqual([...[id, second.id].sort(), runId]);
    expect((await (changes.intents as IntentRows).list()).filter((intent) => intent.record.run_id === run.runId)).toEqual([]);
    await changes.close();
  }, 10_000);

  it('refuses a schema newer than the binary (exit 2) and says what to do', async () => {
    await pg.sql(`UPDATE members_schema SET version = ${MIGRATIONS.length + 1}`);
    const changes = await openPostgresRecord(pg.url);
    await expect(changes.records()).rejects.toMatchObject({ exitCode: ExitCode.usage, message: expect.stringMatching(/newer than this members knows.*Upgrade members/) });
    await changes.close();
    await pg.sql(`UPDATE members_schema SET version = ${MIGRATIONS.length}`);
  });

  it('says exit 11, naming the record and `members record status`, when the database is gone', async () => {
    const changes = await openPostgresRecord(pg.url, { connectTimeoutMs: 2_000 });
    await changes.status();
    await pg.kill();
    try {
      await expect(changes.append([record('gone1')])).rejects.toMatchObject({
        exitCode: ExitCode.recordUnavailable, message: expect.stringMatching(/the team record postgres:\/\/members@127\.0\.0\.1:\d+\/members.*members record status/),
      });
      expect(await changes.status()).toMatchObject({ answers: false, changes: null });
    } finally {
      await pg.start();
      await changes.close();
    }
  });
});

describe('scopes and URLs', () => {
  it('overlap on one platform when they share a product, or either is every product', () => {
    expect(overlaps({ base_url: BASE, products: ['a'] }, { base_url: BASE, products: ['b', 'a'] })).toBe(true);
    expect(overlaps({ base_url: BASE, products: ['a'] }, { base_url: BASE, products: ['b'] })).toBe(false);
    expect(overlaps({ base_url: BASE, products: 'all' }, { base_url: BASE, products: ['b'] })).toBe(true);
    expect(overlaps({ base_url: BASE, products: ['b'] }, { base_url: BASE, products: 'all' })).toBe(true);
    expect(overlaps({ base_url: BASE, products: 'all' }, { base_url: 'https://x.example', products: 'all' })).toBe(false);
  });

  it('takes postgres://USER@HOST:PORT/DB, and never shows a password', () => {
    expect(checkRecordUrl('postgresql://ana@db:5432/members?sslmode=require').hostname).toBe('db');
    expect(() => checkRecordUrl('mysql://ana@db/members')).toThrow(/PostgreSQL URL/);
    expect(() => checkRecordUrl('postgres://db:5432/members')).toThrow(/names no user/);
    expect(() => checkRecordUrl('postgres://ana@db:5432/')).toThrow(/names no database/);
    expect(() => checkRecordUrl('not a url')).toThrow(/is not a URL/);
    expect(shownUrl('postgres://ana:s3cret@db:5432/members')).toBe('postgres://ana@db:5432/members');
  });
});
