// @ts-check
// `npm run mutation`: mutation testing of the core rules (see "Mutation testing" in the README).
// Not part of `npm test`: it runs the covering unit tests once per mutant (about half an hour on 2 cores).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  // Mutants in module-level constants would each re-run every test (a whole suite per mutant, hours in all);
  // they are reported as ignored. The lists they hold are pinned by tests written out (retry-policy.test.ts).
  ignoreStatic: true,
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
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  thresholds: { high: 95, low: 90, break: null },
  concurrency: 2,
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
