import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The slow tier, `npm run test:slow` (docs/testing.md "Two tiers"): what is slow by nature, measured.
 * Every other test file is the fast tier, `npm test`; `npx vitest run` runs both.
 */
const SLOW = [
  // Memory bounds, large sandboxes, runs over many records.
  'test/e2e/faults/memory.test.ts', // 100,000 and 200,000 records
  'test/sandbox/scale.test.ts', // 100,000 students
  'test/e2e/bulk-strategy.test.ts', // sandboxes of 2,000 and 100,000 students
  'test/e2e/bulk-strategy-servers.test.ts', // sandboxes of 2,000 students paged otherwise, kills
  'test/e2e/bulk-grant.test.ts', // 1,000-row runs through a flaky server
  'test/e2e/rate-budget.test.ts', // two 150-row bulk runs at once under 20/s, twice (local record, a PostgreSQL cluster)
  'test/unit/audit/rate-budget.test.ts', // the shared rate budget on a PostgreSQL cluster
  'test/e2e/sync.test.ts', // whole sync runs and kills mid-apply, in both flavours
  'test/e2e/each.test.ts', // runs over files and a kill mid-run, in both flavours
  'test/e2e/each-resume.test.ts', // a PostgreSQL cluster, a kill mid-run and a re-run
  'test/e2e/each-team.test.ts', // a PostgreSQL cluster, two machines, a kill and runs held mid-run
  'test/e2e/extend.test.ts', // every holder of a product, in both flavours
  'test/e2e/transfer.test.ts', // runs of several changes, in both flavours
  'test/e2e/undo-runs.test.ts', // runs of many changes undone, in both flavours
  'test/e2e/undo-lease.test.ts', // undo runs meeting other runs and the desk, a sandbox per test, in both flavours
  'test/e2e/flavor-matrix.test.ts', // every command in 4 flavours and 4 formats
  // Processes killed, or many at once.
  'test/e2e/interrupted-changes.test.ts', // kills at random points
  'test/e2e/audit-concurrency.test.ts', // 32 processes on one audit log
  'test/e2e/config-permissions.test.ts', // runs as another user, 16 logins at once
  'test/unit/config/concurrency.test.ts', // 8 processes saving at once
  // Waits: servers that stall until the timeouts, terminals, process starts.
  'test/e2e/faults/network.test.ts',
  'test/e2e/faults/secrets.test.ts', // every kind of command
  'test/e2e/demo.test.ts', // the whole demo, twice
  'test/e2e/update-notice.test.ts', // a pseudo-terminal, a registry that never answers
  'test/e2e/code-cache.test.ts',
  // Programs outside Node.
  'test/e2e/spreadsheet.test.ts', // LibreOffice
  'test/e2e/report-chart.test.ts', // LibreOffice and poppler
  'test/e2e/keychain.test.ts', // a Secret Service
  'test/e2e/team-record.test.ts', // PostgreSQL clusters, two machines, a database killed mid-run
  'test/unit/audit/change-record.test.ts', // the record's contract against both homes, one on PostgreSQL
  'test/unit/keychain.test.ts',
  'test/e2e/completion.test.ts', // real shells
  'test/e2e/completion-install.test.ts',
  'test/e2e/completion-catalog.test.ts',
];

const UNIT = ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'];

// A renamed or moved file would otherwise leave the slow tier unnoticed, for the fast one.
const missing = SLOW.filter((file) => !existsSync(new URL(file, import.meta.url)));
if (missing.length > 0) throw new Error(`vitest.config.ts names slow test files that do not exist: ${missing.join(', ')}`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker more than the cores (vitest's default is one fewer): an end-to-end file spends most of its time
    // waiting for the binary and the sandbox it spawned, so on 2 cores 1 worker left a core idle. Measured on
    // 2 cores: the fast project 98 s → 80 s, and the slow tier's files overlap instead of queueing.
    maxWorkers: availableParallelism() + 1,
    // The fast tier is two projects, `unit` and `fast`; each project inherits the options above (extends).
    projects: [
      // One module graph for the pure units, as in the mutation run: a fresh process per file was most of their time
      // (88 files in 33 s; about 0.6 s a file more, each in a process of its own). Nothing here spawns dist/.
      { extends: true, test: { name: 'unit', include: UNIT, exclude: [...configDefaults.exclude, ...SLOW], isolate: false } },
      // Every other file (in-process CLI, sandbox, end to end); it and slow build dist/ once before their files run.
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SLOW, ...UNIT], globalSetup: ['test/global-setup.ts'] } },
      { extends: true, test: { name: 'slow', include: SLOW, globalSetup: ['test/global-setup.ts'] } },
    ],
  },
  define: { __MEMBERS_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0-test') },
});
