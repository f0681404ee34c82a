#!/usr/bin/env node
// The only file that touches the process: everything else receives a context.
// CommonJS (bin/package.json): Node starts a CommonJS entry ~6 ms sooner than an ES module.
'use strict';
const { mkdirSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { getHeapCodeStatistics, setFlagsFromString } = require('node:v8');
const { Script } = require('node:vm');

/*
 * Fast paths that need none of the program (commander, the bundle): the
 * version, the root help (rendered by the build), and the completion
 * scripts, which completions/ holds as `members completion SHELL` prints
 * them (tests keep both equal to what the program prints).
 */
const argv = process.argv.slice(2);
const COMPLETIONS = { bash: 'members.bash', zsh: '_members', fish: 'members.fish', powershell: 'members.ps1' };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}
// What the completion scripts ask on each Tab (profile names, undo ids, product and course ids): no commander, zod or conf.
// The scripts pass the command line up to the cursor, for its -p and --base-url.
if (argv.length >= 1 && /^__complete-(profiles|undo|products|courses)$/.test(argv[0])) {
  const { runCompletionHelper } = require('../dist/complete.cjs');
  runCompletionHelper(argv[0].slice('__complete-'.length), process.env, (text) => process.stdout.write(text), argv[1]);
  process.exit(0);
}
// The root help as the program renders it for a pipe or an 80-column terminal (scripts/build.mjs).
// Without dist/help.txt (a checkout built before it existed) the program prints it.
if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h') && (!process.stdout.isTTY || process.stdout.columns === 80)) {
  const help = readOptional(join(__dirname, '..', 'dist', 'help.txt'));
  if (help !== undefined) {
    process.stdout.write(help);
    process.exit(0);
  }
}
if (argv.length === 2 && argv[0] === 'completion' && Object.hasOwn(COMPLETIONS, argv[1])) {
  process.stdout.write(readFileSync(join(__dirname, '..', 'completions', COMPLETIONS[argv[1]]), 'utf8'));
  process.exit(0);
}

/*
 * V8's cache holds only the functions the writing run compiled: one written
 * by `members history` left every API command compiling most of its code
 * (one GET 1.5x slower). How far a run went is the bytecode V8 holds at its
 * end (KiB, v8.getHeapCodeStatistics); the cache records it in its header,
 * and a run that went 10 % further writes it again.
 */
const CACHE_HEADER = 'members-code-cache-4';
// Header: CACHE_HEADER, then the weight (uint32 LE). V8 checks the data that follows against its own
// checksum (--verify-snapshot-checksum below).
const CACHE_DATA_START = CACHE_HEADER.length + 4;
const runWeight = () => Math.round(getHeapCodeStatistics().bytecode_and_metadata_size / 1024);
const FURTHER = 1.1;
const CACHE_PREFIX = 'code-cache-';

/*
 * Process-wide tweaks, set before anything they affect is compiled
 * (docs/performance.md, "Where the time goes now"):
 * - undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 compiles it
 *   with its baseline compiler (Liftoff, ~2 ms) and, after a few responses,
 *   recompiles the parser with TurboFan: ~30 ms of CPU on a 2-core machine
 *   (~130 ms when busy), more than a run of a few requests ever gets back.
 *   The flag affects only WebAssembly, which nothing else here uses.
 * - zod compiles a JIT parser per object schema on first parse; a CLI run
 *   parses too few records to earn that back (6 % less CPU for 10,000
 *   students without it). zod reads its config from this global, the one
 *   `z.config()` writes (test/unit/api/zod-config.test.ts pins that).
 * - V8 checksums the code caches it writes and refuses one whose bytes do not
 *   match: a release build does neither unless asked, and a cache altered in
 *   place (same length) crashed every run with a fatal error. The check costs
 *   0.1 ms; our own CRC-32 cost 0.5 ms (node:zlib included).
 * Node's modules loaded after a flag is set miss Node's own code cache (V8
 * checks it against the flags too) and compile from source: net, which a
 * run's stdout (a pipe or a terminal) and every request need, and undici's
 * diagnostics_channel are loaded first (0.5 ms instead of 1.9 ms).
 */
require('node:net');
require('node:diagnostics_channel');
setFlagsFromString('--liftoff-only');
setFlagsFromString('--verify-snapshot-checksum');
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

const program = loadProgram(join(__dirname, '..', 'dist', 'main.cjs'));
const { main, processIo } = program.exports;
const io = processIo();
main(argv, io).then((code) => {
  process.exitCode = code;
  // A run that failed early compiled little: the cache is written by one that worked,
  // with V8's flags as a fresh start has them (V8 refuses a cache written under others).
  if (code === 0) {
    io.restoreV8Flags();
    program.save();
  }
});

/**
 * Compiles the program (one CommonJS bundle) with V8's code cache: a start
 * that finds the cache skips compiling what the last run compiled (Node 20
 * has no compile cache for ES modules; Node ≥ 22.1's does not see vm
 * scripts). The cache is written after a run, so it holds the functions
 * that run used; once per build and Node version, unless a later run goes
 * further (below). It lives in the user's cache directory; the file name
 * carries what would make it stale, and V8 refuses a cache of another
 * version or other flags anyway.
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off.
 */
function loadProgram(file) {
  // Pure ASCII (scripts/build.mjs checks): latin1 reads it without decoding UTF-8, ~5 ms sooner.
  const source = readFileSync(file, 'latin1');
  const cacheFile = codeCacheFile(source);
  const cache = cacheFile && readCodeCache(cacheFile.path);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: cache?.data,
    // No importModuleDynamically: the bundle holds no import() (scripts/build.mjs says why).
  });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file));
  return {
    exports: bundle.exports,
    save() {
      if (!cacheFile) return;
      const weight = runWeight();
      // Rewritten only when V8 refused it or this run went further than the one that wrote it.
      if (cache && !script.cachedDataRejected && weight <= cache.weight * FURTHER) return;
      const data = script.createCachedData();
      const header = Buffer.alloc(CACHE_DATA_START);
      header.write(CACHE_HEADER);
      header.writeUInt32LE(weight, CACHE_HEADER.length);
      saveCodeCache(cacheFile.path, Buffer.concat([header, data]), bundle.exports.writeFileAtomically);
      removeOtherBuilds(dirname(cacheFile.path), cacheFile.buildId);
    },
  };
}

function readOptional(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readCodeCache(file) {
  try {
    const bytes = readFileSync(file);
    const intact = bytes.length > CACHE_DATA_START && bytes.toString('latin1', 0, CACHE_HEADER.length) === CACHE_HEADER;
    // Another layout: like no cache, compiled without, and replaced by this run.
    return intact ? { weight: bytes.readUInt32LE(CACHE_HEADER.length), data: bytes.subarray(CACHE_DATA_START) } : undefined;
  } catch {
    return undefined; // No cache yet: this run writes it.
  }
}

/** Where this build's cache lives for this run, and the build id, or undefined when there is none. */
function codeCacheFile(source) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const env = process.env;
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? join(homedir(), 'Library', 'Caches') : join(homedir(), '.cache'));
  if (!base) return undefined;
  // V8 checks only the source's length: the build's content hash (its last line) tells builds apart.
  const buildId = /\/\/ build-id: (\w+)\n$/.exec(source.slice(-64))?.[1];
  if (!buildId) return undefined;
  // Help gets a cache of its own: deserializing the larger cache of an API run cost --help 3-4 ms.
  const kind = isHelpRun(argv) ? '-help' : '';
  return { path: join(base, 'members', `${CACHE_PREFIX}${buildId}-${process.version}-${process.arch}${kind}.bin`), buildId };
}

function isHelpRun(args) {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return args.length === 0 || args[0] === 'help' || options.includes('--help') || options.includes('-h');
}

/*
 * An upgrade leaves the caches of older builds of this Node behind: they go
 * when a new one is written, once a week has passed since they were. Not at
 * once: two builds in use side by side (a global install and a project's)
 * would remove each other's on every run, and neither would ever start from one.
 */
const OTHER_BUILD_KEPT_MS = 7 * 24 * 3600 * 1000;

function removeOtherBuilds(dir, buildId) {
  try {
    const node = `-${process.version}-${process.arch}`;
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(CACHE_PREFIX) || !name.includes(node) || name.startsWith(`${CACHE_PREFIX}${buildId}-`)) continue;
      const path = join(dir, name);
      if (Date.now() - statSync(path).mtimeMs > OTHER_BUILD_KEPT_MS) rmSync(path, { force: true });
    }
  } catch {
    // Only housekeeping.
  }
}

/**
 * In a directory of the user's own (0700), by the program's atomic writer
 * (src/lib/atomic-file.ts: 0600, never half a file). A cache is only an
 * optimisation: any failure to write it is ignored.
 */
function saveCodeCache(path, data, writeFileAtomically) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  // Read-only home, full disk: the next run compiles again.
  writeFileAtomically(path, data).catch(() => undefined);
}
