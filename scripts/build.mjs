// Bundles the CLI into dist/: the program (main.cjs), `members mcp` alone (mcp.cjs), its first answers (mcp-front.cjs) and its SDK (mcp-sdk.cjs), the completion
// helpers (complete.cjs), the xlsx writer (xlsx.cjs) and the root help (help.txt).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
// Each plugin patches one dependency's bundled copy, for start-up: what it saves is in its module.
import { commanderWithLazySpawn } from './build/commander-with-lazy-spawn.mjs';
import { confWithoutSchemas } from './build/conf-without-schemas.mjs';
import { undiciWithLazyH2 } from './build/undici-with-lazy-h2.mjs';
// The xlsx writer: kept out of main.cjs, and without a deprecation warning.
import { archiverUtilsBufferFrom } from './build/archiver-utils-buffer-from.mjs';
import { xlsxEngineApart, xlsxReaderApart } from './build/xlsx-engine-apart.mjs';
// The MCP SDK: loaded by `members mcp` alone.
import { mcpSdkApart, mcpSdkLightValidator, mcpSdkZodWithoutJit } from './build/mcp-sdk-apart.mjs';
import { mcpSdkLazySchemas } from './build/mcp-sdk-lazy-schemas.mjs';
import { mcpPrecomputedListing, mcpPrecomputedVersions, mcpToolListing } from './build/mcp-tool-listing.mjs';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  /*
   * The maps stay in dist/ for developers, unreferenced: the package does not
   * ship them (3.2 MB beside a 1.25 MB bundle), and Node maps no vm script
   * anyway, even with --enable-source-maps. A bug report's stack trace keeps
   * the names (identifiers are not minified) and main.cjs:LINE:COLUMN, which
   * dist/main.cjs.map of the same version maps back to src/.
   */
  sourcemap: 'external',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [confWithoutSchemas, commanderWithLazySpawn, undiciWithLazyH2],
  define: { __MEMBERS_VERSION__: JSON.stringify(pkg.version) },
  /*
   * No import() left in the output: bin/members.js runs the bundle as a vm
   * script, and on Node 20 a script compiled from a code cache loses its
   * dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on every
   * run after the first), while USE_MAIN_CONTEXT_DEFAULT_LOADER prints an
   * ExperimentalWarning. Built-ins imported lazily become require() calls.
   */
  supported: { 'dynamic-import': false },
  /*
   * The OS keychain's library stays out of the bundle: it is a native addon
   * (a .node binary per platform, an optional dependency of the package),
   * required from node_modules the first time a token is read or written.
   */
  external: ['@napi-rs/keyring'],
};
/*
 * The program is one CommonJS file so that bin/members.js can compile it with
 * a V8 code cache, on Node 20 too (which has none for ES modules). Each
 * command's heavy modules still load only when it runs: esbuild turns their
 * dynamic imports into functions that evaluate them on first call.
 */
// Without comments and indentation it is 1.25 MB instead of 1.75 MB and pure ASCII (esbuild escapes the rest), which
// V8 reads and checks faster; names are kept, so stack traces stay readable (MEMBERS_DEBUG=1).
// `members mcp`'s tools/list answer, a constant in both bundles (scripts/build/mcp-tool-listing.mjs).
const mcpListing = mcpPrecomputedListing(await mcpToolListing(common));
await build({ ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.cjs', format: 'cjs', minifyWhitespace: true, plugins: [...common.plugins, xlsxEngineApart, xlsxReaderApart, mcpSdkApart, mcpListing] });
// `members mcp` alone (src/entry/mcp-main.ts), which bin/members.js runs for a command line that starts with `mcp`: the
// server's start reads and compiles neither commander's other 40-odd commands nor their declarations.
await build({ ...common, entryPoints: ['src/entry/mcp-main.ts'], outfile: 'dist/mcp.cjs', format: 'cjs', minifyWhitespace: true, plugins: [...common.plugins, xlsxEngineApart, xlsxReaderApart, mcpSdkApart, mcpListing] });
// `members mcp`'s first answers (initialize, tools/list), which bin/members.js gives before the program loads
// (src/entry/mcp-front.ts): constants and a few functions, small enough to compile without a code cache.
await build({ ...common, entryPoints: ['src/entry/mcp-front.ts'], outfile: 'dist/mcp-front.cjs', format: 'cjs', sourcemap: false, plugins: [...common.plugins, mcpListing, await mcpPrecomputedVersions()] });
// The xlsx writer, which the program requires only for -o xlsx (scripts/build/xlsx-engine-apart.mjs).
await build({ ...common, entryPoints: ['src/output/xlsx-engine.ts'], outfile: 'dist/xlsx.cjs', format: 'cjs', minifyWhitespace: true, plugins: [...common.plugins, archiverUtilsBufferFrom] });
// The xlsx reader, which the program requires only for an input file that is a workbook (the same file).
await build({ ...common, entryPoints: ['src/domain/bulk/xlsx-sheet.ts'], outfile: 'dist/xlsx-read.cjs', format: 'cjs', minifyWhitespace: true });
// The MCP server SDK, which the program requires only for `members mcp` (scripts/build/mcp-sdk-apart.mjs).
await build({ ...common, entryPoints: ['src/commands/mcp/sdk.ts'], outfile: 'dist/mcp-sdk.cjs', format: 'cjs', minifyWhitespace: true, plugins: [...common.plugins, mcpSdkLightValidator, mcpSdkLazySchemas, mcpSdkZodWithoutJit] });
// The completion helpers, which bin/members.js runs on Tab before anything else loads.
await build({ ...common, entryPoints: ['src/completion/complete.ts'], outfile: 'dist/complete.cjs', format: 'cjs' });

// The code caches of bin/members.js (the program's, `members mcp`'s and the MCP SDK's: bin/code-cache.js) are keyed by
// this: V8 itself only checks the source's length.
for (const name of ['main.cjs', 'mcp.cjs', 'mcp-sdk.cjs']) {
  const bundle = await readFile(new URL(`../dist/${name}`, import.meta.url), 'utf8');
  // bin/members.js reads the bundle as latin1, 4x faster than decoding UTF-8 (~5 ms of every run):
  // esbuild's default charset escapes everything outside ASCII, and this keeps it so.
  if (!/^[\x20-\x7e\t\n\r]*$/.test(bundle)) throw new Error(`dist/${name} holds characters outside ASCII; bin/members.js reads it as latin1`);
  const buildId = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  await writeFile(new URL(`../dist/${name}`, import.meta.url), `${bundle}// build-id: ${buildId}\n`);
}

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

/*
 * The manual page, man/members.1 ("man" in package.json), from the program itself (scripts/man-page.ts): built
 * here so that it never drifts from the commands, and not kept in git. Its renderer is bundled on the side, run
 * once and thrown away: dist/ ships nothing of it. SOURCE_DATE_EPOCH dates it for a reproducible build.
 */
const renderer = await mkdtemp(join(tmpdir(), 'members-man-'));
try {
  const file = join(renderer, 'man-page.cjs');
  await build({ ...common, entryPoints: ['scripts/man-page.ts'], outfile: file, format: 'cjs', sourcemap: false });
  const { membersManPage } = createRequire(import.meta.url)(file);
  const built = process.env.SOURCE_DATE_EPOCH ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000) : new Date();
  await mkdir(new URL('../man', import.meta.url), { recursive: true });
  await writeFile(new URL('../man/members.1', import.meta.url), membersManPage({ version: pkg.version, date: built.toISOString().slice(0, 10), homepage: pkg.homepage }));
} finally {
  await rm(renderer, { recursive: true, force: true });
}
