/**
 * The globalSetup of the mutation run (vitest.mutation.config.ts): one
 * PostgreSQL cluster for the whole Stryker run, started before its first
 * test run and ended when Stryker closes vitest (or kills the process that
 * started it), instead of one per file per mutant. Each file's records get
 * databases of their own in it (testPostgres).
 */
import type { TestProject } from 'vitest/node';
import { hasPostgres, startCluster, stopCluster, stopClusterAfter } from './postgres.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!hasPostgres()) return undefined;
  const cluster = await startCluster();
  // Stryker may kill this process (a mutant's timeout, the end of the run) before the teardown below runs.
  stopClusterAfter(cluster, process.pid);
  project.provide('postgres', cluster);
  return () => stopCluster(cluster);
}
