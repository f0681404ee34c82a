// Bundles the CLI with code splitting so that each command's heavy modules
// (sandbox, CSV, tables, spinners, undici) load only when that command runs.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

/**
 * conf imports a JSON-schema validator (ajv, ajv-formats) and semver at its
 * top, for its `schema` and `migrations` options, which src/config/store.ts
 * does not use: evaluating them cost every API command 40 ms (a third of a
 * `node -e 0`) just to read the config file. In the bundle they are replaced
 * by stubs that throw if conf ever needs them (e2e tests run the bundle).
 */
const UNUSED_BY_CONF = {
  'ajv/dist/2020.js': 'export class Ajv2020 { constructor() { unbundled(); } }',
  'ajv-formats': 'export default { default: unbundled };',
  semver: 'export default { eq: unbundled, clean: unbundled, satisfies: unbundled, lte: unbundled, gt: unbundled };',
};
const confWithoutSchemas = {
  name: 'conf-without-schemas',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) =>
      (/[\\/]node_modules[\\/]conf[\\/]/.test(args.importer) ? { path: args.path, namespace: 'unused-by-conf' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'unused-by-conf' }, (args) => ({
      contents: `function unbundled() {\n  throw new Error('conf: ${args.path} is not bundled; conf schema and migrations options are unsupported (scripts/build.mjs)');\n}\n${UNUSED_BY_CONF[args.path]}\n`,
      loader: 'js',
    }));
  },
};

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  // complete.ts: the completion helpers, which bin/members.js runs on Tab before anything else loads.
  entryPoints: ['src/main.ts', 'src/complete.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [confWithoutSchemas],
  define: { __MEMBERS_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies (cli-table3, cli-progress) call require() on built-ins.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
