/**
 * One contract, two homes (issue 36): the same suite runs against the local
 * files and a real PostgreSQL database (test/helpers/test-postgres.ts: a cluster
 * started for the file, or the mutation run's).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalRecord, type ChangeRecord, type IntentRows } from '../../../src/audit/record.js';
import { holdLease, overlaps, type Lease } from '../../../src/audit/leases.js';
import { openPostgresRecord, MIGRATIONS, checkRecordUrl, shownUrl, type PostgresRecord } from '../../../src/audit/postgres-record.js';
import { forgetInTeam } from '../../../src/audit/forget-team.js';
import type { Intent } from '../../../src/audit/intents.js';
import type { AuditRecord } from '../../../src/audit/log.js';
import { openRun } from '../../../src/audit/journal.js';
import type { AuditContext } from '../../../src/audit/stamp.js';
import { countSnapshotsPath, type CountSnapshot } from '../../../src/audit/count-snapshots.js';
import { ExitCode, LeaseHeldError } from '../../../src/lib/errors.js';
import { hasPostgres, type Postgres } from '../../helpers/postgres.js';
import { testPostgres, usePostgresPerTest } from '../../helpers/test-postgres.js';

const BASE = 'https://members.example.com';

const record = (id: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({
  id, time: new Date().toISOString(), user: 'ana', profile: 'default', base_url: BASE, command: 'students revoke',
  action: 'revoke', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'revoked', ...extra,
});

const holder = { user: 'ana', pid: 4242, command: 'sync' };

const counts = (productId: string, takenAt: string, extra: Partial<CountSnapshot> = {}): CountSnapshot => ({
  profile: 'default', base_url: BASE, date: takenAt.slice(0, 10), taken_at: takenAt, product_id: productId, title: `Product ${productId}`, active: 10, inactive: 2, ...extra,
});

/**
 * The contract every home keeps. `opener`, called in the block, registers what it needs and gives a function that
 * opens a fresh, empty record: each test has one of its own, so that none reads another's records.
 */
function contract(name: string, opener: () => () => Promise<ChangeRecord>, available: () => boolean) {
  describe.runIf(available())(`the change record: ${name}`, () => {
    const open = opener();
    let changes: ChangeRecord;
    beforeEach(async () => {
      changes = await open();
    });
    afterEach(async () => changes?.close());

    it('keeps appended records in order, and a record appended twice once (a push twice adds nothing)', async () => {
      expect(await changes.append([record('a1'), record('a2', { student_id: 's2' })])).toBe(2);
      expect(await changes.append([record('a1'), record('a3')])).toBe(1);
      expect((await changes.records()).map((kept) => kept.id)).toEqual(['a1', 'a2', 'a3']);
      expect((await changes.records())[1]).toMatchObject({ student_id: 's2', user: 'ana', action: 'revoke' });
      const status = await changes.status();
      expect(status).toMatchObject({ home: changes.home, answers: true, changes: 3 });
    });

    it('finds the records of some runs, in the order written: their changes and their own records, no other', async () => {
      await changes.append([
        record('run-c1', { run_id: 'run-A', line: 2 }), record('run-c2', { run_id: 'run-B' }), record('run-c3'),
        record('run-c4', { run_id: 'run-A', line: 3 }), record('run-A', { action: 'bulk', result: 'completed' }), record('run-C', { action: 'bulk' }),
      ]);
      expect((await changes.runs(['run-A', 'run-B'])).map((kept) => kept.id)).toEqual(['run-c1', 'run-c2', 'run-c4', 'run-A']);
      expect(await changes.runs(['run-none'])).toEqual([]);
      expect(await changes.runs([])).toEqual([]);
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

    it('keeps the runs of a run key, oldest first and each once, until its file is done, then the run that did it', async () => {
      expect(await changes.runKeys.read('key-1')).toEqual({ runs: [] });
      await changes.runKeys.add('key-1', 'run-1');
      await changes.runKeys.add('key-1', 'run-2');
      await changes.runKeys.add('key-1', 'run-1');
      await changes.runKeys.add('key-2', 'run-3');
      expect(await changes.runKeys.read('key-1')).toEqual({ runs: ['run-1', 'run-2'] });
      await changes.runKeys.finish('key-1', 'run-2');
      await changes.runKeys.finish('key-never', 'run-9');
      expect(await changes.runKeys.read('key-1')).toEqual({ runs: [], finished: 'run-2' });
      expect(await changes.runKeys.read('key-never')).toEqual({ runs: [], finished: 'run-9' });
      expect(await changes.runKeys.read('key-2')).toEqual({ runs: ['run-3'] });
      await changes.runKeys.add('key-1', 'run-4');
      expect(await changes.runKeys.read('key-1')).toEqual({ runs: ['run-4'], finished: 'run-2' });
    });

    it('gives a lease on a run key to one run of it, names its holder to the other (exit 10); leases on products and other keys pass', async () => {
      const first = await holdLease(changes.leases, { scope: { base_url: BASE, products: [], run_key: 'k1' }, holder: { ...holder, command: 'each scores add' }, waitMs: 0 });
      expect(first.lease.run_key).toBe('k1');
      const refused = holdLease(changes.leases, { scope: { base_url: BASE, products: [], run_key: 'k1' }, holder: { ...holder, user: 'bia' }, waitMs: 0 });
      await expect(refused).rejects.toMatchObject({ exitCode: ExitCode.leaseHeld });
      await expect(refused).rejects.toThrow(/the run of the same command on the same file on https:\/\/members\.example\.com \(key k1\).*ana on .* \(members each scores add, pid 4242\)/);
      const everything = await holdLease(changes.leases, { scope: { base_url: BASE, products: 'all' }, holder, waitMs: 0 });
      const otherKey = await holdLease(changes.leases, { scope: { base_url: BASE, products: [], run_key: 'k2' }, holder, waitMs: 0 });
      const elsewhere = await holdLease(changes.leases, { scope: { base_url: 'https://other.example', products: [], run_key: 'k1' }, holder, waitMs: 0 });
      expect((await changes.leases.list(Date.now())).find((lease) => lease.id === first.lease.id)).toMatchObject({ run_key: 'k1', products: [] });
      await Promise.all([first.release(), everything.release(), otherKey.release(), elsewhere.release()]);
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

contract('local files', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'members-record-'));
    dirs.push(dir);
    return new LocalRecord(dir);
  };
}, () => true);

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

  it('skips a line whose date is not a day and counts it; blank lines are no snapshot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'members-counts-'));
    try {
      const day = counts('p1', '2026-08-01T03:00:00.000Z');
      const lines = [day, { ...day, date: '2026-8-1' }, { ...day, date: 'x2026-08-01' }, { ...day, date: '2026-08-01x' }].map((one) => JSON.stringify(one));
      await writeFile(countSnapshotsPath(dir), `\n${lines.join('\n')}\n  \n`);
      expect(await new LocalRecord(dir).snapshots.read()).toEqual({ snapshots: [day], skipped: 3 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('makes its directory owner-only when it is new, keeps a snapshot given twice at once once, and writes nothing for none', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'members-counts-'));
    try {
      const dir = join(parent, 'config', 'members');
      const snapshots = new LocalRecord(dir).snapshots;
      expect(await snapshots.read()).toEqual({ snapshots: [], skipped: 0 });
      expect(await snapshots.keep([])).toBe(0);
      expect(existsSync(dir)).toBe(false);
      const day = counts('p1', '2026-08-01T03:00:00.000Z');
      expect(await snapshots.keep([day, { ...day }])).toBe(1);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(await snapshots.read()).toEqual({ snapshots: [day], skipped: 0 });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

const withPostgres = hasPostgres();
contract('PostgreSQL', () => {
  const pg = usePostgresPerTest();
  return () => openPostgresRecord(pg.url);
}, () => withPostgres);

describe.runIf(withPostgres)('the team record: a database of schema 3 (before run keys)', () => {
  const pg = usePostgresPerTest();

  it('is migrated to keep run keys (swept a week after their file is done), and its leases on products, taken by the older binary, still hold', async () => {
    await pg.sql(`${MIGRATIONS.slice(0, 3).join(';\n')};
      CREATE TABLE members_schema (version integer NOT NULL); INSERT INTO members_schema VALUES (3);
      INSERT INTO members_leases (id, base_url, products, holder, since, expires)
      VALUES ('lcafe0001', '${BASE}', ARRAY['p1'], '{"user":"ana","host":"desk-1","pid":7,"command":"sync"}', now(), now() + interval '1 hour');`);
    const team = await openPostgresRecord(pg.url);
    try {
      expect((await team.status()).schema).toBe(MIGRATIONS.length);
      expect(await team.leases.list(Date.now())).toEqual([expect.objectContaining({ id: 'lcafe0001', products: ['p1'], command: 'sync' })]);
      expect((await team.leases.list(Date.now()))[0]).not.toHaveProperty('run_key');
      await expect(holdLease(team.leases, { scope: { base_url: BASE, products: ['p1'] }, holder, waitMs: 0 })).rejects.toThrow(LeaseHeldError);
      const run = await holdLease(team.leases, { scope: { base_url: BASE, products: [], run_key: 'k1' }, holder, waitMs: 0 });
      await team.runKeys.add('k1', 'r1');
      expect(await team.runKeys.read('k1')).toEqual({ runs: ['r1'] });
      // A file done sweeps the keys done more than a week ago; a run cut short then is kept.
      await pg.sql(`INSERT INTO members_run_keys (key, runs, finished, updated)
        VALUES ('old-done', '{}', 'r0', now() - interval '8 days'), ('old-killed', '{r5}', NULL, now() - interval '8 days'), ('lately-done', '{}', 'r6', now() - interval '6 days')`);
      await team.runKeys.finish('k1', 'r1');
      expect(await pg.sql('SELECT key FROM members_run_keys ORDER BY key')).toBe('k1\nlately-done\nold-killed\n');
      await run.release();
    } finally {
      await team.close();
    }
  });
});

describe.runIf(withPostgres)('the team record: its schema', () => {
  const pg = usePostgresPerTest();

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
    // Its tables made first: another session is to lock one.
    await changes.status();
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
    // The tables made first, whichever test of the block runs first.
    const first = await openPostgresRecord(pg.url);
    await first.status();
    await first.close();
    await pg.sql(`UPDATE members_schema SET version = ${MIGRATIONS.length + 1}`);
    const changes = await openPostgresRecord(pg.url);
    await expect(changes.records()).rejects.toMatchObject({ exitCode: ExitCode.usage, message: expect.stringMatching(/newer than this members knows.*Upgrade members/) });
    // `members record status` says so too, rather than that the record does not answer.
    await expect(changes.status()).rejects.toMatchObject({ exitCode: ExitCode.usage });
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
      expect(await changes.status()).toMatchObject({
        home: 'postgres', where: expect.stringMatching(/^postgres:\/\/members@127\.0\.0\.1:\d+\/members/), answers: false, schema: null, changes: null,
        problem: expect.stringMatching(/ECONNREFUSED|connect|terminat/),
      });
      // A lease asked for, and a record opened while the database is down: exit 11 too.
      await expect(holdLease(changes.leases, { scope: { base_url: BASE, products: ['p1'] }, holder, waitMs: 0 })).rejects.toMatchObject({ exitCode: ExitCode.recordUnavailable });
      const late = await openPostgresRecord(pg.url, { connectTimeoutMs: 2_000 });
      const refused = await late.append([record('gone2')]).catch((error: unknown) => error);
      expect(refused).toMatchObject({ exitCode: ExitCode.recordUnavailable, message: expect.stringMatching(/cannot be reached or written \(.*ECONNREFUSED.*\); nothing more was sent/) });
      expect((refused as Error).cause).toBeInstanceOf(Error);
      await late.close();
    } finally {
      await pg.start();
      await changes.close();
    }
  });
});

// One database for the block, its cases in the written order (shuffled or not): dropping a database after the
// password role's case waits without end here, so these cases read what the ones before them wrote.
describe.runIf(withPostgres)('the team record: its rows', { shuffle: false }, () => {
  let pg: Postgres;
  let team: PostgresRecord;
  beforeAll(async () => {
    pg = await testPostgres();
    team = await openPostgresRecord(pg.url);
  });
  afterAll(async () => {
    await team?.close();
    await pg?.stop();
  });

  const intent = (id: string): Intent => ({ record: record(id, { result: 'revoked' }), pid: 4242, host: 'desk-1', log_offset: 0 });

  it('takes the password the keychain or config file holds when the URL has none, the URL\'s own over it', async () => {
    const role = await pg.passwordRole('s3:c@r%t/');
    const url = pg.url.replace('//members@', `//${role}@`);
    const stored = await openPostgresRecord(url, { password: 's3:c@r%t/', connectTimeoutMs: 2_000 });
    expect(await stored.status()).toMatchObject({ answers: true });
    expect(stored.name).not.toContain('s3');
    await stored.close();
    const own = await openPostgresRecord(url.replace(`//${role}@`, `//${role}:${encodeURIComponent('s3:c@r%t/')}@`), { password: 'stale', connectTimeoutMs: 2_000 });
    expect((await own.status()).answers).toBe(true);
    await own.close();
    const none = await openPostgresRecord(url, { connectTimeoutMs: 2_000 });
    await expect(none.records()).rejects.toMatchObject({ exitCode: ExitCode.recordUnavailable });
    await none.close();
  });

  it('shows up as members among the database\'s sessions', async () => {
    await team.records();
    expect(await pg.sql("SELECT count(*) > 0 FROM pg_stat_activity WHERE application_name = 'members' AND datname = current_database()")).toBe('t\n');
  });

  it('gives one of several runs taking overlapping leases at once the lease, from two machines', async () => {
    const other = await openPostgresRecord(pg.url);
    const scope = { base_url: BASE, products: ['p-race'] };
    const takings = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? team : other).leases.take({ ...leaseFields(), ...scope, id: `lrace000${i}` }, 30_000)));
    expect(takings.filter((taking) => 'taken' in taking)).toHaveLength(1);
    await Promise.all(takings.flatMap((taking) => ('taken' in taking ? [team.leases.release(taking.taken.id)] : [])));
    await other.close();
  });

  it('cannot be used once closed', async () => {
    const closed = await openPostgresRecord(pg.url);
    await closed.records();
    await closed.close();
    await expect(closed.records()).rejects.toMatchObject({ exitCode: ExitCode.recordUnavailable });
  });

  it('names itself by its URL without the password, and says its schema and how many changes it holds', async () => {
    const port = new URL(pg.url).port;
    const database = new URL(pg.url).pathname.slice(1);
    expect(team.name).toBe(`the team record postgres://members@127.0.0.1:${port}/${database}`);
    expect(await team.status()).toEqual({ home: 'postgres', where: `postgres://members@127.0.0.1:${port}/${database}`, answers: true, schema: MIGRATIONS.length, changes: 0 });
  });

  it('keeps the intents of changes on their way until removed; one run at a time checks each, and a claim runs out after 5 minutes', async () => {
    const first = intent('i1');
    await team.intents.write(first);
    await team.intents.write(intent('i2'));
    expect((await team.intents.list()).map((kept) => kept.record.id)).toEqual(['i1', 'i2']);
    expect((await team.intents.list())[0]).toEqual(first);
    expect(await team.intents.claim('i1', 'run-a')).toBe(true);
    expect(await team.intents.claim('i1', 'run-b')).toBe(false);
    expect((await team.intents.list()).map((kept) => kept.record.id)).toEqual(['i2']);
    await team.intents.release('i1');
    expect((await team.intents.list()).map((kept) => kept.record.id)).toEqual(['i1', 'i2']);
    expect(await team.intents.claim('i1', 'run-b')).toBe(true);
    // A run that died with its claim: another takes the intent once the claim ran out.
    expect(await pg.sql("SELECT claimed_by, claimed_until > now() + interval '4 minutes', claimed_until <= now() + interval '5 minutes' FROM members_intents WHERE id = 'i1'")).toBe('run-b|t|t\n');
    await pg.sql("UPDATE members_intents SET claimed_until = now() - interval '1 second' WHERE id = 'i1'");
    expect((await team.intents.list()).map((kept) => kept.record.id)).toEqual(['i1', 'i2']);
    expect(await team.intents.claim('i1', 'run-c')).toBe(true);
    await team.intents.remove('i1');
    await team.intents.remove('i2');
    expect(await team.intents.list()).toEqual([]);
    expect(await team.intents.claim('i2', 'run-a')).toBe(false);
  });

  it('says whether a change is recorded, and gives the records from a time on, in the order written', async () => {
    expect(await team.intents.recorded('t1')).toBe(false);
    await team.append([record('t0', { time: '2026-11-28T09:00:00.000Z' }), record('t1', { time: '2026-11-28T11:00:00.000Z' }), record('t2', { time: '2026-11-28T10:00:00.000Z' })]);
    expect(await team.intents.recorded('t1')).toBe(true);
    // Other tests of the block append records of today, later than these: only this test's count.
    expect((await team.intents.since('2026-11-28T10:00:00.000Z')).map((kept) => kept.id).filter((id) => /^t\d$/.test(id))).toEqual(['t1', 't2']);
  });

  it('appends a long history in order, however many statements it takes, and a second push of it adds nothing', async () => {
    const history = Array.from({ length: 1_201 }, (_, i) => record(`h${String(i).padStart(4, '0')}`, { student_id: `s${i}`, run_id: 'r-long' }));
    expect(await team.append(history)).toBe(1_201);
    expect(await team.append(history)).toBe(0);
    const kept = (await team.records()).filter((change) => change.run_id === 'r-long');
    expect(kept.map((change) => change.id)).toEqual(history.map((change) => change.id));
    expect(await pg.sql("SELECT count(*), min(student_id), max(base_url) FROM members_changes WHERE run_id = 'r-long'")).toBe(`1201|s0|${BASE}\n`);
    expect(await team.append([])).toBe(0);
  });

  it('keeps the time, platform and student of each record in columns of their own (what history filters on)', async () => {
    const { base_url: _base, ...noBase } = record('c1', { student_id: 's-col' });
    await team.append([noBase as AuditRecord]);
    expect(await pg.sql("SELECT base_url = '', student_id, run_id IS NULL FROM members_changes WHERE id = 'c1'")).toBe('t|s-col|t\n');
  });

  it('replaces a record in place, its student column too (an erasure)', async () => {
    await team.append([record('e1', { student_id: 's-e' }), record('e2', { student_id: 's-e' })]);
    const { student_id: _gone, ...erased } = { ...record('e1', { student_id: 's-e' }), student: '[forgotten]' };
    await team.replace([erased, { ...record('e2'), student_id: 's-moved' }]);
    const kept = await team.records();
    expect(kept.map((change) => change.id).slice(-2)).toEqual(['e1', 'e2']);
    expect(kept.find((change) => change.id === 'e1')).toEqual(erased);
    expect(await pg.sql("SELECT id, coalesce(student_id, '-') FROM members_changes WHERE id IN ('e1', 'e2') ORDER BY seq")).toBe('e1|-\ne2|s-moved\n');
  });

  it('keeps a lease on every product as every product, lists the live ones oldest first, and renews one to its new end', async () => {
    const all = await holdLease(team.leases, { scope: { base_url: BASE, products: 'all' }, holder, waitMs: 0 });
    const other = await holdLease(team.leases, { scope: { base_url: 'https://b.example', products: ['p1'] }, holder: { ...holder, host: 'cron-1' }, waitMs: 0 });
    const listed = await team.leases.list(Date.now());
    expect(listed.map((lease) => [lease.id, lease.products, lease.host, lease.user])).toEqual([[all.lease.id, 'all', all.lease.host, 'ana'], [other.lease.id, ['p1'], 'cron-1', 'ana']]);
    expect(Date.parse(listed[0]?.expires ?? '') - Date.parse(listed[0]?.since ?? '')).toBe(30_000);
    expect(await team.leases.renew(all.lease.id, 600_000)).toBe(true);
    const [renewed] = await team.leases.list(Date.now());
    expect(Date.parse(renewed?.expires ?? '') - Date.parse(renewed?.since ?? '')).toBeGreaterThan(590_000);
    await Promise.all([all.release(), other.release()]);
    expect(await pg.sql('SELECT count(*) FROM members_leases')).toBe('0\n');
  });

  it('sweeps expired leases when one is taken', async () => {
    await team.leases.take({ ...leaseFields(), id: 'lexpired0' }, 1);
    await pg.sql("UPDATE members_leases SET expires = now() - interval '1 second' WHERE id = 'lexpired0'");
    expect(await team.leases.list(Date.now())).toEqual([]);
    const taken = await holdLease(team.leases, { scope: { base_url: BASE, products: ['p5'] }, holder, waitMs: 0 });
    expect(await pg.sql('SELECT id FROM members_leases')).toBe(`${taken.lease.id}\n`);
    await taken.release();
  });
});

describe.runIf(withPostgres)('the team record: forgetting a student', () => {
  const pg = usePostgresPerTest();
  let team: PostgresRecord;
  let dir: string;
  beforeEach(async () => {
    team = await openPostgresRecord(pg.url);
    dir = await mkdtemp(join(tmpdir(), 'members-forget-team-'));
  });
  afterEach(async () => {
    await team?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const context: AuditContext = {
    io: { env: {}, stderr: { write: () => true }, pid: 1000, isRunning: () => false },
    settings: async () => ({ profile: 'production', baseUrl: BASE, token: undefined }),
    configDir: async () => dir,
  };
  const MARIA = { id: 's-maria', first_name: 'Maria', last_name: 'Silva', email: 'maria.silva@example.com', document: '070.692.055-46' };

  it('erases the student\'s values from every row about it, a snapshot of it under an earlier id too, and the quotes elsewhere; records that it did', async () => {
    await team.append([
      record('f1', { command: 'students create', action: 'create', result: 'created', student: MARIA.email, student_id: 's-old', after: { ...MARIA, id: 's-old' } }),
      record('f2', { student: MARIA.email, student_id: 's-maria', reason: 'asked by Maria Silva' }),
      record('f3', { student: 'joao@example.com', student_id: 's-joao', reason: 'moved from maria.silva@example.com' }),
      record('f4', { student: 'ana@example.com', student_id: 's-ana', reason: 'unrelated' }),
      record('f5', { student: 'doc:070.692.055-46', student_id: 's-older', product_id: 'p3' }),
      // Keys known only from records of her ids: a reference under the earlier id, another under hers.
      record('f6', { student: 'ref:crm-old77', student_id: 's-old', product_id: 'p4' }),
      record('f7', { student: 'ref:crm-new88', student_id: 's-maria', product_id: 'p4' }),
      record('f8', { student: 'ana@example.com', student_id: 's-ana', reason: 'crm-old77 and crm-new88 were merged' }),
    ]);
    const outcome = await forgetInTeam(context, team, 's-maria', { command: 'students delete --forget', reason: 'LGPD request of maria.silva@example.com (Maria)' });
    expect(outcome.records).toBe(7);
    const dump = await pg.sql('SELECT record::text FROM members_changes ORDER BY seq');
    for (const value of ['maria.silva@example.com', 'Maria Silva', '070.692.055-46', 'Maria', 'crm-old77', 'crm-new88']) expect(dump).not.toContain(value);
    const kept = await team.records();
    expect(kept.map((change) => change.id)).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', outcome.id]);
    expect(kept[3]).toEqual(record('f4', { student: 'ana@example.com', student_id: 's-ana', reason: 'unrelated', time: kept[3]?.time }));
    expect(kept[8]).toMatchObject({
      action: 'forget', command: 'students delete --forget', student_id: 's-maria', result: 'forgotten', user: userInfo().username, base_url: BASE, profile: 'production',
      counts: { records: 7, intents: 0 }, reason: 'LGPD request of [forgotten] ([forgotten])',
    });
    expect(kept[2]?.reason).toBe('moved from [forgotten]');
  });

  it('writes nothing when the record holds nothing of the student', async () => {
    const before = await team.records();
    expect(await forgetInTeam(context, team, 's-nobody', { command: 'history --forget' })).toEqual({ records: 0 });
    expect(await team.records()).toEqual(before);
  });

  it('learns the student from what the server sent before a delete, and keeps a forget without a reason without one', async () => {
    await team.append([record('g1', { student: 'ref:crm-90001', reason: 'ticket of crm-90001' })]);
    const outcome = await forgetInTeam(context, team, 's-gone', { command: 'students delete --forget', known: { email: 'gone@example.com', reference_id: 'crm-90001' } });
    expect(outcome.records).toBe(1);
    const kept = await team.records();
    expect(kept.find((change) => change.id === 'g1')?.reason).toBe('ticket of [forgotten]');
    expect(kept.at(-1)).not.toHaveProperty('reason');
  });
});

describe.runIf(withPostgres)('the team record: migrating', () => {
  const pg = usePostgresPerTest();

  it('brings a database at an older version up to this binary\'s, once', async () => {
    await pg.sql('CREATE TABLE members_schema (version integer NOT NULL); INSERT INTO members_schema VALUES (0)');
    const changes = await openPostgresRecord(pg.url);
    expect((await changes.status()).schema).toBe(MIGRATIONS.length);
    expect(await pg.sql('SELECT version FROM members_schema')).toBe(`${MIGRATIONS.length}\n`);
    await changes.close();
  });
});

describe('the local record', () => {
  it('names its log file, and says what keeps it from answering (a log that cannot be read)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'members-record-'));
    try {
      const changes = new LocalRecord(dir);
      expect(changes.name).toBe(`the local record (${join(dir, 'audit.jsonl')})`);
      mkdirSync(join(dir, 'audit.jsonl'));
      expect(await changes.status()).toEqual({ home: 'local', where: join(dir, 'audit.jsonl'), answers: false, schema: null, changes: null, problem: expect.stringMatching(/EISDIR/) });
    } finally {
      await rm(dir, { recursive: true, force: true });
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

  it('overlap on a run key only with a lease on the same key of the same platform, never with products', () => {
    const run = { base_url: BASE, products: [], run_key: 'k1' };
    expect(overlaps(run, { ...run })).toBe(true);
    expect(overlaps(run, { ...run, run_key: 'k2' })).toBe(false);
    expect(overlaps(run, { ...run, base_url: 'https://x.example' })).toBe(false);
    expect(overlaps(run, { base_url: BASE, products: 'all' })).toBe(false);
    expect(overlaps({ base_url: BASE, products: 'all' }, run)).toBe(false);
  });

  it('takes postgres://USER@HOST:PORT/DB, and never shows a password', () => {
    expect(checkRecordUrl('postgresql://ana@db:5432/members?sslmode=require').hostname).toBe('db');
    expect(() => checkRecordUrl('mysql://ana@db/members')).toThrow(/PostgreSQL URL/);
    expect(() => checkRecordUrl('postgres://db:5432/members')).toThrow(/names no user/);
    expect(() => checkRecordUrl('postgres://ana@db:5432/')).toThrow(/names no database/);
    expect(() => checkRecordUrl('not a url')).toThrow(/is not a URL/);
    expect(shownUrl('postgres://ana:s3cret@db:5432/members')).toBe('postgres://ana@db:5432/members');
    expect(shownUrl('not a url: s3cret')).toBe('an invalid PostgreSQL URL');
    // Without // there is no host, and URL keeps the password in its path: it is cut there too.
    expect(shownUrl('postgres:ana:s3cret@db/members')).toBe('postgres:ana@db/members');
    expect(() => checkRecordUrl('postgres:ana:s3cret@db/members')).toThrow('postgres:ana@db/members names no user');
    expect(() => checkRecordUrl('postgres://ana:s3cret@db:x/members')).toThrow('"postgres://ana@db:x/members" is not a URL');
  });
});
