/**
 * The team's home of the change record (issue 36): one PostgreSQL database
 * shared by the desk and the cron server, through `pg` (loaded only by the
 * commands that reach a team record). The tool creates and migrates its own
 * tables (MIGRATIONS, numbered; a schema newer than this binary is refused,
 * exit 2). Records are append-only rows keyed by their audit id, so a push
 * twice adds nothing; intents are rows written before their change is sent;
 * leases are rows taken under a table lock held for one transaction — never
 * an advisory lock, which a pooler in transaction mode (PgBouncer) loses.
 *
 * Every failure to reach or write the database is a RecordUnavailableError
 * (exit 11) naming the record and `members record status`.
 */
import type { Pool, PoolClient } from 'pg';
import { RecordUnavailableError, UsageError } from '../lib/errors.js';
import type { AuditRecord } from './log.js';
import type { Intent } from './intents.js';
import type { Lease, LeaseHome, Taking } from './leases.js';
import type { SharedBudget } from '../api/transport/shared-budget.js';
import type { ChangeRecord, IntentRows, RecordStatus } from './record.js';
import type { CountSnapshot, SnapshotRows } from './count-snapshots.js';
import { FINISHED_KEPT_MS, type KeyRuns, type RunKeys } from './run-keys.js';
import { GroupCommit } from './group-commit.js';

/** The schema, one step per number: a database at version N has run 1..N. Append only: a released step is never edited. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE members_changes (
     seq bigserial PRIMARY KEY,
     id text NOT NULL UNIQUE,
     time timestamptz NOT NULL,
     base_url text NOT NULL,
     student_id text,
     run_id text,
     record jsonb NOT NULL
   );
   CREATE INDEX members_changes_student ON members_changes (student_id);
   CREATE INDEX members_changes_run ON members_changes (run_id);
   CREATE TABLE members_intents (
     id text PRIMARY KEY,
     base_url text NOT NULL,
     intent jsonb NOT NULL,
     written timestamptz NOT NULL DEFAULT now(),
     claimed_by text,
     claimed_until timestamptz
   );
   CREATE TABLE members_leases (
     id text PRIMARY KEY,
     base_url text NOT NULL,
     products text[],
     holder jsonb NOT NULL,
     since timestamptz NOT NULL,
     expires timestamptz NOT NULL
   );`,
  // `products snapshot` (issue 38): a school's subscriber counts by day; the key makes a push twice add nothing.
  `CREATE TABLE members_product_counts (
     seq bigserial PRIMARY KEY,
     base_url text NOT NULL,
     profile text NOT NULL,
     product_id text NOT NULL,
     taken_at text NOT NULL,
     snapshot jsonb NOT NULL,
     UNIQUE (base_url, profile, product_id, taken_at)
   );`,
  // The rate limit the runs on one token share (issue 36, item 6): each token's next free start (ms since the epoch), keyed by a hash.
  `CREATE TABLE members_rate_budgets (
     key text PRIMARY KEY,
     next_ms bigint NOT NULL
   );`,
  // One run of a command on a file for the whole team (run-keys.ts): each key's runs, and a lease on a key rather than products.
  `CREATE TABLE members_run_keys (
     key text PRIMARY KEY,
     runs text[] NOT NULL,
     finished text,
     updated timestamptz NOT NULL DEFAULT now()
   );
   ALTER TABLE members_leases ADD COLUMN run_key text;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Records (or snapshots) per INSERT: a few hundred KiB of JSON at most. */
const APPEND_CHUNK = 500;

/** The pool's connections (POOL_SIZE) shared by the intents' and the records' writes, a lease's renewal aside. */
const POOL_SIZE = 5;
const GROUPS = { parallel: 2, most: APPEND_CHUNK };

/** The URL as shown: never its password, even when it is malformed (`postgres:ana:pw@db/x` has no host for URL to clear). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') return withoutPassword(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'an invalid PostgreSQL URL';
  }
}

/** `scheme:[//]user:secret@rest` → `scheme:[//]user@rest`. */
const withoutPassword = (text: string) => text.replace(/^([^:/@]+:(?:\/\/)?[^:/@]*):[^@]*@/, '$1@');

/** `postgres://USER@HOST:PORT/DB` (or `postgresql:`), with a user and a database; exit 2 otherwise. */
export function checkRecordUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`"${withoutPassword(url)}" is not a URL: give postgres://USER@HOST:PORT/DB, or local`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`a team record is a PostgreSQL URL (postgres://USER@HOST:PORT/DB), not ${parsed.protocol}//…; or give local`);
  }
  if (!parsed.username || parsed.pathname.replace(/^\//, '') === '') {
    throw new UsageError(`${shownUrl(url)} names no ${parsed.username ? 'database' : 'user'}: give postgres://USER@HOST:PORT/DB`);
  }
  return parsed;
}

interface Row {
  record: AuditRecord;
}

interface LeaseRow { id: string; base_url: string; products: string[] | null; run_key: string | null; holder: Lease; since: Date; expires: Date }

const leaseOf = (row: LeaseRow): Lease => ({
  ...row.holder, id: row.id, base_url: row.base_url, products: row.products ?? 'all', ...(row.run_key === null ? {} : { run_key: row.run_key }),
  since: row.since.toISOString(), expires: row.expires.toISOString(),
});

export class PostgresRecord implements ChangeRecord {
  readonly home = 'postgres';
  readonly name: string;
  readonly leases: LeaseHome;
  readonly budget: SharedBudget;
  readonly snapshots: SnapshotRows;
  readonly runKeys: RunKeys;
  private ready?: Promise<void>;

  /**
   * @param budgetPool the rate budget's own connection: a reservation holds up the run's next request, so it never
   * queues behind the workers' record writes in `pool` (waiting there, its slots would arrive late and go out at once).
   */
  constructor(private readonly pool: Pool, url: string, private readonly budgetPool: Pool = pool) {
    this.name = `the team record ${shownUrl(url)}`;
    this.snapshots = this.snapshotRows();
    this.runKeys = this.runKeyRows();
    // A database that goes away between queries: the pool reports it here, a query then fails (exit 11).
    pool.on('error', () => undefined);
    if (budgetPool !== pool) budgetPool.on('error', () => undefined);
    // One row per token, moved by one atomic statement (its row lock serializes the runs): no advisory lock, no transaction held.
    this.budget = {
      reserve: async ({ key, now, count, gapMs, notBefore }) => {
        const { rows } = await this.query<{ start: string }>(
          `INSERT INTO members_rate_budgets AS b (key, next_ms) VALUES ($1, $2::bigint + $3::bigint * $4::bigint)
           ON CONFLICT (key) DO UPDATE SET next_ms = GREATEST(b.next_ms, $2::bigint) + $3::bigint * $4::bigint
           RETURNING next_ms - $3::bigint * $4::bigint AS start`,
          [key, Math.ceil(Math.max(now, notBefore)), count, Math.ceil(gapMs)], this.budgetPool);
        return Number(rows[0]?.start);
      },
    };
    this.leases = {
      take: (lease, ttlMs) => this.transaction((client) => this.take(client, lease, ttlMs)),
      renew: async (id, ttlMs) => (await this.query(`UPDATE members_leases SET expires = now() + $2 * interval '1 millisecond' WHERE id = $1 AND expires > now()`, [id, ttlMs])).rowCount === 1,
      release: async (id) => void await this.query('DELETE FROM members_leases WHERE id = $1', [id]),
      list: async () => (await this.query<LeaseRow>('SELECT * FROM members_leases WHERE expires > now() ORDER BY since')).rows.map(leaseOf),
      end: async (id) => {
        const { rows } = await this.query<LeaseRow>('DELETE FROM members_leases WHERE id = $1 RETURNING *', [id]);
        return rows[0] ? leaseOf(rows[0]) : undefined;
      },
    };
  }

  private async take(client: PoolClient, lease: Lease, ttlMs: number): Promise<Taking> {
    // Self-conflicting: one run at a time looks for overlaps and inserts; readers (lock list) are not blocked.
    await client.query('LOCK TABLE members_leases IN SHARE ROW EXCLUSIVE MODE');
    await client.query('DELETE FROM members_leases WHERE expires <= now()');
    // A lease on a run key meets only the leases on that key (audit/leases.ts overlaps); one on products, only those on products.
    const { rows } = await client.query<LeaseRow>(`SELECT * FROM members_leases WHERE base_url = $1 AND run_key IS NOT DISTINCT FROM $3::text
      AND ($3::text IS NOT NULL OR products IS NULL OR $2::text[] IS NULL OR products && $2::text[]) ORDER BY since LIMIT 1`,
    [lease.base_url, lease.products === 'all' ? null : lease.products, lease.run_key ?? null]);
    if (rows[0]) return { held: leaseOf(rows[0]) };
    const { id, base_url: _base, products, run_key: runKey, since: _since, expires: _expires, ...holder } = lease;
    const inserted = await client.query<LeaseRow>(`INSERT INTO members_leases (id, base_url, products, run_key, holder, since, expires)
      VALUES ($1, $2, $3, $4, $5, now(), now() + $6 * interval '1 millisecond') RETURNING *`, [id, lease.base_url, products === 'all' ? null : products, runKey ?? null, holder, ttlMs]);
    return { taken: leaseOf(inserted.rows[0] as LeaseRow) };
  }

  async status(): Promise<RecordStatus> {
    const where = this.name.replace(/^the team record /, '');
    try {
      const schema = await this.migrated();
      const { rows } = await this.query<{ n: number }>('SELECT count(*)::int AS n FROM members_changes');
      return { home: 'postgres', where, answers: true, schema, changes: rows[0]?.n ?? 0 };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return { home: 'postgres', where, answers: false, schema: null, changes: null, problem: reason(error) };
    }
  }

  /** In chunks of one statement each, in the order given (a push of a long history is a few round trips, not one per record). */
  /** Appends of concurrent changes go as one statement (group-commit.ts); each resolves to how many of its records were added. */
  async append(records: readonly AuditRecord[]): Promise<number> {
    return this.appends.add(records);
  }

  private readonly appends = new GroupCommit<readonly AuditRecord[], number>(async (calls) => {
    // A record concludes its change: its intent row goes in the same statement (one commit, where it would cost
    // two; the journal removes the row itself only when nothing is recorded).
    const added = new Set((await this.insertChunks<{ id: string }>(`WITH given AS (SELECT r, n FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(r, n)),
      concluded AS (DELETE FROM members_intents WHERE id IN (SELECT r->>'id' FROM given))
      INSERT INTO members_changes (id, time, base_url, student_id, run_id, record)
      SELECT r->>'id', (r->>'time')::timestamptz, coalesce(r->>'base_url', ''), r->>'student_id', r->>'run_id', r
      FROM given ORDER BY n
      ON CONFLICT (id) DO NOTHING RETURNING id`, calls.flat())).map((row) => row.id));
    return calls.map((records) => records.filter((record) => added.has(record.id)).length);
  }, GROUPS);

  /** Runs `insert` (its $1: a JSON array; RETURNING what each added row gives) on `items` in chunks, in order. */
  private async insertChunks<R extends object>(insert: string, items: readonly unknown[]): Promise<R[]> {
    const added: R[] = [];
    for (let start = 0; start < items.length; start += APPEND_CHUNK) {
      added.push(...(await this.query<R>(insert, [JSON.stringify(items.slice(start, start + APPEND_CHUNK))])).rows);
    }
    return added;
  }

  private snapshotRows(): SnapshotRows {
    return {
      where: this.name,
      keep: async (snapshots) => (await this.insertChunks(`INSERT INTO members_product_counts (base_url, profile, product_id, taken_at, snapshot)
        SELECT coalesce(s->>'base_url', ''), s->>'profile', s->>'product_id', s->>'taken_at', s
        FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(s, n) ORDER BY n
        ON CONFLICT DO NOTHING RETURNING seq`, snapshots)).length,
      read: async () => ({
        snapshots: (await this.query<{ snapshot: CountSnapshot }>('SELECT snapshot FROM members_product_counts ORDER BY seq')).rows.map((row) => row.snapshot),
        skipped: 0,
      }),
    };
  }

  /** One row per key, changed by one statement each: a run added twice is kept once. */
  private runKeyRows(): RunKeys {
    return {
      read: async (key) => {
        const row = (await this.query<{ runs: string[]; finished: string | null }>('SELECT runs, finished FROM members_run_keys WHERE key = $1', [key])).rows[0];
        const runs: KeyRuns = { runs: row?.runs ?? [] };
        return row?.finished ? { ...runs, finished: row.finished } : runs;
      },
      add: async (key, runId) => void await this.query(`INSERT INTO members_run_keys AS k (key, runs) VALUES ($1, ARRAY[$2::text])
        ON CONFLICT (key) DO UPDATE SET runs = array_append(k.runs, $2::text), updated = now() WHERE NOT ($2::text = ANY (k.runs))`, [key, runId]),
      // Keys whose file was done more than a week ago go in the same statement: none is waited for that long.
      finish: async (key, runId) => void await this.query(`WITH swept AS (DELETE FROM members_run_keys WHERE runs = '{}' AND key <> $1 AND updated < now() - $3 * interval '1 millisecond')
        INSERT INTO members_run_keys AS k (key, runs, finished) VALUES ($1, '{}', $2)
        ON CONFLICT (key) DO UPDATE SET runs = '{}', finished = $2, updated = now()`, [key, runId, FINISHED_KEPT_MS]),
    };
  }

  /** Replaces records by id (an erasure, audit/forget.ts): the row keeps its place in the order. */
  async replace(records: readonly AuditRecord[]): Promise<void> {
    for (const record of records) await this.query('UPDATE members_changes SET record = $2, student_id = $3 WHERE id = $1', [record.id, record, record.student_id ?? null]);
  }

  async records(): Promise<AuditRecord[]> {
    const { rows } = await this.query<Row>('SELECT record FROM members_changes ORDER BY seq');
    return rows.map((row) => row.record);
  }

  /** Through the indexes on run_id and id: a re-run reads its runs, not the team's whole record. */
  async runs(ids: readonly string[]): Promise<AuditRecord[]> {
    const { rows } = await this.query<Row>('SELECT record FROM members_changes WHERE run_id = ANY($1::text[]) OR id = ANY($1::text[]) ORDER BY seq', [ids]);
    return rows.map((row) => row.record);
  }

  readonly intents: IntentRows = {
    // The intents of concurrent changes go as one statement; each change waits for the commit that holds its own.
    write: (intent: Intent) => this.intentWrites.add(intent),
    remove: async (id: string) => void await this.query('DELETE FROM members_intents WHERE id = $1', [id]),
    // Those no run is checking: never claimed, or claimed by a run that died (its claim ran out).
    list: async () => (await this.query<{ intent: Intent }>('SELECT intent FROM members_intents WHERE claimed_until IS NULL OR claimed_until < now() ORDER BY written')).rows.map((row) => row.intent),
    claim: async (id: string, by: string) => (await this.query(`UPDATE members_intents SET claimed_by = $2, claimed_until = now() + interval '5 minutes'
      WHERE id = $1 AND (claimed_until IS NULL OR claimed_until < now())`, [id, by])).rowCount === 1,
    release: async (id: string) => void await this.query('UPDATE members_intents SET claimed_by = NULL, claimed_until = NULL WHERE id = $1', [id]),
    recorded: async (id: string) => (await this.query('SELECT 1 FROM members_changes WHERE id = $1', [id])).rowCount === 1,
    since: async (time: string) => (await this.query<Row>('SELECT record FROM members_changes WHERE time >= $1 ORDER BY seq', [time])).rows.map((row) => row.record),
  };

  private readonly intentWrites = new GroupCommit<Intent, void>(async (intents) => {
    await this.query(`INSERT INTO members_intents (id, base_url, intent)
      SELECT i->'record'->>'id', i->'record'->>'base_url', i FROM jsonb_array_elements($1::jsonb) AS t(i)`, [JSON.stringify(intents)]);
    return intents.map(() => undefined);
  }, GROUPS);

  async close(): Promise<void> {
    await Promise.all([this.pool, this.budgetPool].map((pool) => pool.end().catch(() => undefined)));
  }

  /** Runs a statement once the schema is current; any failure of the database is exit 11. */
  async query<R extends object = Record<string, never>>(text: string, values?: unknown[], pool = this.pool): Promise<{ rows: R[]; rowCount: number | null }> {
    await this.migrated();
    try {
      return await pool.query(text, values) as unknown as { rows: R[]; rowCount: number | null };
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    await this.migrated();
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      throw this.unavailable(error);
    } finally {
      client?.release();
    }
  }

  unavailable(error: unknown): RecordUnavailableError {
    if (error instanceof RecordUnavailableError) return error;
    return new RecordUnavailableError(`${this.name} cannot be reached or written (${reason(error)}); nothing more was sent. See \`members record status\``, { cause: error });
  }

  /** The schema version, once the migrations this binary knows are applied (once per run). */
  private migrated(): Promise<number> {
    this.ready ??= this.migrate().then(() => undefined);
    return this.ready.then(() => this.version as number);
  }

  private version?: number;

  private async migrate(): Promise<void> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      // Most runs find the schema current: one read and no lock, which would queue every run's start behind the others'.
      const found = await client.query<{ version: number }>('SELECT version FROM members_schema').catch((error: { code?: string }) => {
        if (error.code === UNDEFINED_TABLE) return undefined;
        throw error;
      });
      if (found?.rows[0]?.version === SCHEMA_VERSION) {
        this.version = SCHEMA_VERSION;
        return;
      }
      await client.query('CREATE TABLE IF NOT EXISTS members_schema (version integer NOT NULL)').catch(async (error: { code?: string }) => {
        // Two first runs at once: the other one created it (the catalog says so in one of these ways).
        if (!CREATED_MEANWHILE.has(error.code ?? '')) throw error;
      });
      await client.query('BEGIN');
      // One migrator at a time; the others wait here, then find the schema current.
      await client.query('LOCK TABLE members_schema IN ACCESS EXCLUSIVE MODE');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM members_schema');
      const current = rows[0]?.version ?? 0;
      if (current > SCHEMA_VERSION) {
        await client.query('ROLLBACK');
        throw new UsageError(`${this.name} has schema version ${current}, newer than this members knows (${SCHEMA_VERSION}): a newer members wrote it. `
          + 'Upgrade members on this machine (npm install -g members-cli), or use another record (`members record use local`); nothing was sent');
      }
      for (let step = current; step < SCHEMA_VERSION; step++) await client.query(MIGRATIONS[step] as string);
      if (rows.length === 0) await client.query('INSERT INTO members_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
      else if (current < SCHEMA_VERSION) await client.query('UPDATE members_schema SET version = $1', [SCHEMA_VERSION]);
      await client.query('COMMIT');
      this.version = Math.max(current, SCHEMA_VERSION);
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      this.ready = undefined;
      if (error instanceof UsageError) throw error;
      throw this.unavailable(error);
    } finally {
      client?.release();
    }
  }
}

/** What PostgreSQL answers when a table is not there (a database the tool has not set up yet). */
const UNDEFINED_TABLE = '42P01';

/** unique_violation, duplicate_table, duplicate_object: what a CREATE TABLE IF NOT EXISTS racing another one may meet. */
const CREATED_MEANWHILE = new Set(['23505', '42P07', '42710']);

const reason = (error: unknown) => (error instanceof Error ? (error.message || (error as NodeJS.ErrnoException).code || error.name) : String(error));

/** Opens the team record at `url` (pg loads here, and only here); `password` from the keychain or the config file, when the URL has none. */
export async function openPostgresRecord(url: string, options: { password?: string; connectTimeoutMs?: number } = {}): Promise<PostgresRecord> {
  const parsed = checkRecordUrl(url);
  // pg takes the URL's password, empty when it has none, over a `password` option: the one stored goes into the URL.
  if (options.password !== undefined && !parsed.password) parsed.password = encodeURIComponent(options.password);
  const { default: pg } = await import('pg');
  const pool = (max: number) => new pg.Pool({
    connectionString: parsed.toString(),
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // An idle connection is closed soon: a run's end is not held up by the pool.
    idleTimeoutMillis: 1_000,
    allowExitOnIdle: true,
    application_name: 'members',
  });
  // The pacer reserves one batch at a time: one connection of its own is enough (opened only once a run is paced).
  return new PostgresRecord(pool(POOL_SIZE), url, pool(1));
}
