// The program's V8 code cache, for bin/members.js: a start that finds it skips compiling what the last run compiled.
'use strict';
const { mkdirSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');
const { getHeapCodeStatistics } = require('node:v8');
const { Script } = require('node:vm');

/*
 * V8's cache holds only the functions the writing run compiled: one written
 * by `members history` left every API command compiling most of its code
 * (one GET 1.5x slower). How far a run went is the bytecode V8 holds at its
 * end (KiB, v8.getHeapCodeStatistics); the cache records it in its header,
 * and a run that went 10 % further writes it again.
 */
const CACHE_HEADER = 'members-code-cache-4';
// Header: CACHE_HEADER, then the weight (uint32 LE). V8 checks the data that follows against its own
// checksum (--verify-snapshot-checksum, set by bin/members.js).
const CACHE_DATA_START = CACHE_HEADER.length + 4;
const runWeight = () => Math.round(getHeapCodeStatistics().bytecode_and_metadata_size / 1024);
const FURTHER = 1.1;
const CACHE_PREFIX = 'code-cache-';

/**
 * Compiles the program (one CommonJS bundle) with V8's code cache: a start
 * that finds the cache skips compiling what the last run compiled (Node 20
 * has no compile cache for ES modules; Node ≥ 22.1's does not see vm
 * scripts). The cache is written after a run (`save`), so it holds the
 * functions that run used; once per build and Node version, unless a later
 * run goes further (above). It lives in the user's cache directory; the file
 * name carries what would make it stale, and V8 refuses a cache of another
 * version or other flags anyway.
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off.
 */
function loadProgram(file, argv) {
  // Pure ASCII (scripts/build.mjs checks): latin1 reads it without decoding UTF-8, ~5 ms sooner.
  const source = readFileSync(file, 'latin1');
  const cacheFile = codeCacheFile(source, argv);
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
function codeCacheFile(source, argv) {
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

module.exports = { loadProgram };
