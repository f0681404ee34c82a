// `npm run mutation`: StrykerJS on the modules whose rules every other part
// relies on. Slow (minutes), so it is not part of `npm test`; the scores are
// in README.md ("Mutation testing").
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // Each mutant runs only the tests that reached it.
  coverageAnalysis: 'perTest',
  mutate: [
    'src/api/retry-policy.ts',
    'src/api/paginate.ts',
    'src/api/path.ts',
    'src/api/redact.ts',
    'src/values.ts',
    'src/output/csv.ts',
    'src/output/fields.ts',
    'src/commands/bulk/csv.ts',
    'src/domain/bulk/engine.ts',
    'src/domain/changes.ts',
    'src/config/settings.ts',
  ],
  concurrency: 1,
  // Re-tests only the mutants whose code or covering tests changed since the last run (delete the file,
  // or pass --force, for a run from scratch).
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
