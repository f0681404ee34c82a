// The program's V8 code cache, for bin/members.js: a start that finds it skips compiling what the last run compiled.
'use strict';
const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');
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

/**
 * Compiles the program (one CommonJS bundle) with V8's code cache: a start
 * that finds the cache skips compiling what the last run compiled (Node 20
 * has no compile cache for ES modules; Node ≥ 22.1's keeps only what a
 * module's first compilation compiled, the bundle's top level, and a GET
 * then costs 18-28 % more CPU: docs/performance.md). The cache is written
 * after a run (`save`), so it holds the functions that run used; once per
 * build and Node version, unless a later run goes further (above). It lives
 * in the user's cache directory; the file name carries what would make it
 * stale, and V8 refuses a cache of another version or other flags anyway.
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns it off.
 * The bundles the program requires beside it (SIDE_BUNDLES) get caches of
 * their own, saved with the program's.
 * `describe()` says what became of it (MEMBERS_DEBUG=1, bin/members.js).
 */
function loadProgram(file, argv) {
  const program = PROGRAMS[basename(file)];
  const kind = isHelpRun(argv) ? '-help' : program.mcpKind && isMcpRun(argv) ? '-mcp' : '';
  const sides = [];
  const base = createRequire(file);
  // The bundle's own require, but for the bundles beside it that have a cache of their own.
  const bundleRequire = Object.assign((id) => {
    const side = SIDE_BUNDLES[id];
    if (side === undefined) return base(id);
    if (side.loaded === undefined) {
      side.loaded = compileCached(join(dirname(file), id.slice(2)), { prefix: side.prefix, kind: '' }, base);
      sides.push(side.loaded);
    }
    return side.loaded.exports;
  }, base);
  const compiled = compileCached(file, { prefix: program.prefix, kind }, bundleRequire);
  if (compiled.place.refused) tellOnce(compiled.place.refused, compiled.exports.firstTimeTold);
  return {
    exports: compiled.exports,
    save() {
      for (const each of [compiled, ...sides]) each.save(compiled.exports.writeFileAtomically);
    },
    describe: () => [compiled, ...sides].map((each) => each.describe()).join('\ndebug: '),
  };
}

/*
 * The programs bin/members.js runs, each with caches of its own: the whole
 * program, and `members mcp` alone (dist/mcp.cjs, for a command line that
 * starts with `mcp`). Each prefix is its own: a bundle removes only its own
 * older builds' caches. `mcpKind`: the whole program keeps its `members mcp`
 * runs (`members -p desk mcp`) apart, see isMcpRun.
 */
const PROGRAMS = {
  'main.cjs': { prefix: 'code-cache-', mcpKind: true },
  'mcp.cjs': { prefix: 'mcp-cache-', mcpKind: false },
};

/*
 * The bundles the program requires beside dist/main.cjs that are worth a
 * cache of their own: the MCP SDK (scripts/build/mcp-sdk-apart.mjs), ~440 KB
 * that `members mcp` compiled at every start (~20 ms, docs/performance.md).
 * Its own prefix: each bundle removes only its own older builds' caches.
 */
const SIDE_BUNDLES = { './mcp-sdk.cjs': { prefix: 'mcp-sdk-cache-' } };

/** One CommonJS bundle compiled with its code cache (`prefix`, `kind`: its file name), run with `require`. */
function compileCached(file, { prefix, kind }, require) {
  // Pure ASCII (scripts/build.mjs checks): latin1 reads it without decoding UTF-8, ~5 ms sooner.
  const source = readFileSync(file, 'latin1');
  const place = cachePlace(source, prefix, kind);
  const cache = place.path === undefined ? undefined : readCodeCache(place);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: cache?.data,
    // No importModuleDynamically: the bundle holds no import() (scripts/build.mjs says why).
  });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, require, bundle, file, dirname(file));
  let outcome = place.refused ? `not used: ${place.refused.why}`
    : place.path === undefined ? place.off : cache === undefined ? 'none read' : script.cachedDataRejected ? 'refused by V8' : 'used';
  return {
    exports: bundle.exports,
    place,
    save(writeFileAtomically) {
      if (place.path === undefined) return;
      const weight = runWeight();
      // Rewritten only when V8 refused it or this run went further than the one that wrote it.
      if (cache && !script.cachedDataRejected && weight <= cache.weight * FURTHER) return;
      const data = script.createCachedData();
      const header = Buffer.alloc(CACHE_DATA_START);
      header.write(CACHE_HEADER);
      header.writeUInt32LE(weight, CACHE_HEADER.length);
      if (saveCodeCache(place.path, Buffer.concat([header, data]), writeFileAtomically)) outcome += ', written';
      removeOtherBuilds(dirname(place.path), prefix, place.buildId);
    },
    describe: () => ['code cache', place.path ?? place.dir, outcome].filter(Boolean).join(': '),
  };
}

/** The cache's weight and V8's data, or undefined when there is none to use. */
function readCodeCache(place) {
  let bytes;
  try {
    const fd = openSync(place.path, 'r');
    try {
      // Checked on the file opened, so that it cannot be swapped between the check and the read.
      const problem = unsafe(fstatSync(fd));
      if (problem) {
        place.refused = { path: place.path, why: `it ${problem}`, text: `the code cache ${place.path} ${problem}, who could put code in it that members would run: members did not use it, and replaces it with its own` };
        return undefined;
      }
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // No cache yet: this run writes it.
  }
  const intact = bytes.length > CACHE_DATA_START && bytes.toString('latin1', 0, CACHE_HEADER.length) === CACHE_HEADER;
  // Another layout: like no cache, compiled without, and replaced by this run.
  return intact ? { weight: bytes.readUInt32LE(CACHE_HEADER.length), data: bytes.subarray(CACHE_DATA_START) } : undefined;
}

/**
 * Where this build's cache lives for this run (`path`, in `dir`, and the
 * build id); else `off`, why there is none, or `refused`, the directory that
 * may not be trusted and what to tell the user.
 */
function cachePlace(source, prefix, kind) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return { off: 'off (NODE_DISABLE_COMPILE_CACHE)' };
  const env = process.env;
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : process.platform === 'darwin' ? join(homedir(), 'Library', 'Caches') : join(homedir(), '.cache'));
  if (!base) return { off: 'none (no cache directory)' };
  // V8 checks only the source's length: the build's content hash (its last line) tells builds apart.
  const buildId = /\/\/ build-id: (\w+)\n$/.exec(source.slice(-64))?.[1];
  if (!buildId) return { off: 'none (a bundle without its build id)' };
  const dir = join(base, 'members');
  let problem;
  try {
    problem = unsafe(statSync(dir));
  } catch {
    // Not there yet: the run that writes the cache makes it, 0700.
  }
  if (problem) {
    const fix = problem.startsWith('belongs') ? 'set XDG_CACHE_HOME to a directory of your own' : `run \`chmod 700 ${dir}\``;
    return {
      dir,
      refused: { path: dir, why: `the directory ${problem}`, text: `the code cache directory ${dir} ${problem}, who could put code in it that members would run: members runs without it; ${fix}` },
    };
  }
  return { path: join(dir, `${prefix}${buildId}-${process.version}-${process.arch}${kind}.bin`), dir, buildId };
}

/*
 * A code cache is code: V8 runs the functions it holds, and checks only what
 * whoever writes the file can match (the source's length, the flags, its own
 * checksum). So, as ssh does for keys, a cache is read only from a directory
 * and a file that are the user's own and that no one else may write; a
 * directory that is not is neither read nor written. POSIX modes only: on
 * Windows the cache lives in the user's own %LOCALAPPDATA%.
 */
function unsafe(stats) {
  if (process.getuid === undefined) return undefined;
  if (stats.uid !== process.getuid()) return `belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & 0o022) !== 0) return `can be written by other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/**
 * Says why a cache was refused on stderr, once for each directory or file:
 * the program remembers what it told in the config directory (`told-once`,
 * src/config/told-once.ts), and says it again only if that file is gone.
 */
function tellOnce(refused, firstTimeTold) {
  if (firstTimeTold(process.env, `code cache refused: ${refused.path}`)) process.stderr.write(`warning: ${refused.text} (said once)\n`);
}

/*
 * Help gets a cache of its own: deserializing the larger cache of an API run cost --help 3-4 ms. So does
 * `members mcp`: its runs hold the MCP SDK's bytecode too, so they weigh more than any command's, and the
 * cache they wrote (the functions the tools used, not a table's) would never be replaced by a command's.
 */

/** `members mcp`, whatever global options come first (a word `mcp` elsewhere only picks another cache). */
function isMcpRun(args) {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('mcp');
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

function removeOtherBuilds(dir, prefix, buildId) {
  try {
    const node = `-${process.version}-${process.arch}`;
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.includes(node) || name.startsWith(`${prefix}${buildId}-`)) continue;
      const path = join(dir, name);
      if (Date.now() - statSync(path).mtimeMs > OTHER_BUILD_KEPT_MS) rmSync(path, { force: true });
    }
  } catch {
    // Only housekeeping.
  }
}

/**
 * In a directory of the user's own (0700, checked again once made: it may
 * have appeared meanwhile), by the program's atomic writer
 * (src/lib/atomic-file.ts: 0600, never half a file, never through a link).
 * A cache is only an optimisation: any failure to write it is ignored.
 * True when the write was started.
 */
function saveCodeCache(path, data, writeFileAtomically) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (unsafe(statSync(dirname(path)))) return false;
  } catch {
    return false;
  }
  // Read-only home, full disk: the next run compiles again.
  writeFileAtomically(path, data).catch(() => undefined);
  return true;
}

module.exports = { loadProgram };
