// Bundles the CLI into dist/: the program (main.cjs) and the completion helpers (complete.js).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';

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
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [confWithoutSchemas],
  define: { __MEMBERS_VERSION__: JSON.stringify(pkg.version) },
};
/*
 * The program is one CommonJS file so that bin/members.js can compile it with
 * a V8 code cache, on Node 20 too (which has none for ES modules). Each
 * command's heavy modules still load only when it runs: esbuild turns their
 * dynamic imports into functions that evaluate them on first call.
 */
// Without comments and indentation it is 1.6 MB instead of 2.3 MB and pure ASCII (esbuild escapes the rest), which
// V8 reads and checks faster; names are kept, so stack traces stay readable (MEMBERS_DEBUG=1).
await build({ ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.cjs', format: 'cjs', minifyWhitespace: true });
// The completion helpers, which bin/members.js runs on Tab before anything else loads.
await build({ ...common, entryPoints: ['src/complete.ts'], outfile: 'dist/complete.js', format: 'esm' });

// The code cache of bin/members.js is keyed by this: V8 itself only checks the source's length.
const bundle = await readFile(new URL('../dist/main.cjs', import.meta.url), 'utf8');
const buildId = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
await writeFile(new URL('../dist/main.cjs', import.meta.url), `${bundle}// build-id: ${buildId}\n`);
