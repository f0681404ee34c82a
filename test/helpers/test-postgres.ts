/**
 * A fresh PostgreSQL database for a test file: in the cluster the run's
 * globalSetup started (the mutation run: test/helpers/postgres-setup.ts), or
 * in a cluster of its own (the slow tier). stop() drops what it started.
 */
import { inject } from 'vitest';
import { postgresIn, startPostgres, type Postgres } from './postgres.js';

export function testPostgres(): Promise<Postgres> {
  const shared = inject('postgres');
  return shared ? postgresIn(shared) : startPostgres();
}
