import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'completions/', 'reports/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only bin/members.js and scripts may touch the process; everything else gets a Context.
      'no-console': 'error',
    },
  },
  { files: ['scripts/**', 'bin/**'], rules: { 'no-console': 'off' } },
  // CommonJS (bin/package.json): see bin/members.js.
  { files: ['bin/**'], languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
