// @ts-check
// `npm run mutation`: mutation testing of the core rules (see "Mutation testing" in the README).
// Not part of `npm test`: it takes about 10 minutes on one core.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Only the unit and property tests of these modules (see that file): each mutant runs the ones that reach it.
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants such as the retry lists) are tested too: with the focused
  // test set, re-running all of it for each costs seconds, not a whole suite.
  mutate: [
    'src/api/transport/retry-policy.ts',
    'src/api/pagination/paginate.ts',
    'src/api/endpoints/path.ts',
    'src/api/transport/redact.ts',
    'src/lib/values.ts',
    'src/output/csv.ts',
    'src/output/fields.ts',
    'src/output/xlsx.ts',
    'src/domain/bulk/csv.ts',
    'src/domain/bulk/engine.ts',
    'src/domain/changes.ts',
    'src/domain/snapshot.ts',
    'src/domain/read-plan.ts',
    'src/domain/course-audience.ts',
    'src/domain/extend.ts',
    'src/domain/transfer.ts',
    'src/domain/grant-status.ts',
    'src/domain/undo.ts',
    'src/domain/bulk/reads.ts',
    'src/domain/email-slips.ts',
    'src/domain/cpf-slip.ts',
    'src/api/endpoints/student-key.ts',
    'src/domain/sync/plan.ts',
    'src/domain/sync/rows.ts',
    'src/domain/sync/records.ts',
    'src/domain/sync/saved-plan.ts',
    'src/config/settings.ts',
    'src/config/token-storage.ts',
    'src/config/update-notice.ts',
    'src/audit/journal.ts',
    'src/audit/intents.ts',
    'src/audit/resolve.ts',
    'src/audit/runs.ts',
    'src/audit/forget.ts',
    'src/domain/bulk/seen-keys.ts',
  ],
  // Not `incremental`: with the vitest runner it does not notice new tests, and reuses every survivor.
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  thresholds: { high: 95, low: 90, break: null },
  concurrency: 1,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
