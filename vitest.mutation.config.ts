// The test run StrykerJS repeats for each mutant (`npm run mutation`): the unit and
// property tests, in process; no global set-up (they need no dist/), no e2e spawns.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'],
    globalSetup: [],
  },
}));
