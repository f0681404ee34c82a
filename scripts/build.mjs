// Bundles the CLI into dist/: the program (main.cjs), the completion helpers (complete.cjs) and the root help (help.txt).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { undiciStandIns } from './build/undici-stand-ins.mjs';

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

/**
 * commander requires child_process at its top, for executable subcommands,
 * which members does not have: loading it (with net, dgram and streams) cost
 * every run, --help too, 3 ms. In the bundle commander gets a spawn that
 * loads child_process when called.
 */
const commanderWithLazySpawn = {
  name: 'commander-with-lazy-spawn',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^node:child_process$/ }, (args) =>
      (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-spawn' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-spawn' }, () => ({
      contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);\n",
      loader: 'js',
    }));
  },
};

/**
 * undici's client requires its HTTP/2 module at its top, which loads
 * node:http2 (7 ms of every API command) for a protocol members never
 * negotiates (allowH2 is off). In the bundle the client gets a connectH2
 * that loads that module when called.
 */
const undiciWithLazyH2 = {
  name: 'undici-with-lazy-h2',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      (/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), 'client-h2.js'), namespace: 'lazy-h2' } : undefined));
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy-h2' }, (args) => ({
      contents: `module.exports = function connectH2(...args) { return require(${JSON.stringify(args.path)})(...args); };\n`,
      loader: 'js',
      resolveDir: dirname(args.path),
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
  plugins: [confWithoutSchemas, commanderWithLazySpawn, undiciWithLazyH2, undiciStandIns],
  define: { __MEMBERS_VERSION__: JSON.stringify(pkg.version) },
  /*
   * No import() left in the output: bin/members.js runs the bundle as a vm
   * script, and on Node 20 a script compiled from a code cache loses its
   * dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on every
   * run after the first), while USE_MAIN_CONTEXT_DEFAULT_LOADER prints an
   * ExperimentalWarning. Built-ins imported lazily become require() calls.
   */
  supported: { 'dynamic-import': false },
};
/*
 * The program is one CommonJS file so that bin/members.js can compile it with
 * a V8 code cache, on Node 20 too (which has none for ES modules). Each
 * command's heavy modules still load only when it runs: esbuild turns their
 * dynamic imports into functions that evaluate them on first call.
 */
// Without comments and indentation it is 1.25 MB instead of 1.75 MB and pure ASCII (esbuild escapes the rest), which
// V8 reads and checks faster; names are kept, so stack traces stay readable (MEMBERS_DEBUG=1).
await build({ ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.cjs', format: 'cjs', minifyWhitespace: true });
// The completion helpers, which bin/members.js runs on Tab before anything else loads.
await build({ ...common, entryPoints: ['src/completion/complete.ts'], outfile: 'dist/complete.cjs', format: 'cjs' });

// The code cache of bin/members.js is keyed by this: V8 itself only checks the source's length.
const bundle = await readFile(new URL('../dist/main.cjs', import.meta.url), 'utf8');
// bin/members.js reads the bundle as latin1, 4x faster than decoding UTF-8 (~5 ms of every run):
// esbuild's default charset escapes everything outside ASCII, and this keeps it so.
if (!/^[\x20-\x7e\t\n\r]*$/.test(bundle)) throw new Error('dist/main.cjs holds characters outside ASCII; bin/members.js reads it as latin1');
const buildId = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
await writeFile(new URL('../dist/main.cjs', import.meta.url), `${bundle}// build-id: ${buildId}\n`);

/*
 * `members --help` at the width of a pipe (80 columns), rendered by the
 * program itself: bin/members.js prints it before anything loads, as it does
 * --version (1.1x node -e 0 instead of 1.7-1.9x). Help depends on nothing
 * but the width (test/e2e/help-fast-path.test.ts compares the two).
 */
const program = createRequire(import.meta.url)('../dist/main.cjs');
let help = '';
const capture = { write: (text) => ((help += text), true), isTTY: false, columns: undefined };
const code = await program.main(['--help'], { stdout: capture, stderr: capture, stdin: process.stdin, env: {}, cwd: process.cwd(), onInterrupt: () => () => {} });
if (code !== 0) throw new Error(`members --help exited ${code} at build time: ${help}`);
await writeFile(new URL('../dist/help.txt', import.meta.url), help);
