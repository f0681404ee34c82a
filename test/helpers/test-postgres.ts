/**
 * A fresh PostgreSQL database for a test file: in the cluster the run's
 * globalSetup started (the mutation run: test/helpers/postgres-setup.ts), or
 * in a cluster of its own (the slow tier). stop() drops what it started.
 */
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { postgresIn, startCluster, startPostgres, stopCluster, type Cluster, type Postgres } from './postgres.js';

export function testPostgres(): Promise<Postgres> {
  const shared = inject('postgres');
  return shared ? postgresIn(shared) : startPostgres();
}

/**
 * An empty database for each test of the block that calls this, in the
 * run's cluster or one of the block's own (a cluster takes seconds to start,
 * a database a moment), so that no test reads another's records. The object returned
 * acts on the running test's database (kill() and start(): the cluster).
 */
export function usePostgresPerTest(): Postgres {
  let cluster: Cluster | undefined;
  let owned: Cluster | undefined;
  let current: Postgres | undefined;
  // The run's cluster when it has one (the mutation run's globalSetup): a database is made there in a moment.
  beforeAll(async () => {
    cluster = inject('postgres') ?? (owned = await startCluster());
  });
  afterAll(async () => {
    if (owned) await stopCluster(owned);
  });
  beforeEach(async () => {
    current = await postgresIn(cluster as Cluster);
  });
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  const database = (): Postgres => {
    if (!current) throw new Error('the database is there only while a test of the block that asked for it runs');
    return current;
  };
  return {
    get url() { return database().url; },
    get port() { return database().port; },
    sql: (text) => database().sql(text),
    passwordRole: (password) => database().passwordRole(password),
    kill: () => database().kill(),
    start: () => database().start(),
    stop: () => database().stop(),
  };
}
