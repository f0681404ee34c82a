// Bundles the CLI with code splitting so that each command's heavy modules
// (sandbox, CSV, tables, spinners, undici) load only when that command runs.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  define: { __MEMBERS_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies (cli-table3, cli-progress) call require() on built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
