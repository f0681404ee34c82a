import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
  define: { __MEMBERS_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0-test') },
});
