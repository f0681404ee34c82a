#!/usr/bin/env node
// The only file that touches the process: everything else receives a context. In order: the fast paths,
// `members mcp`'s first answers (dist/mcp-front.cjs), V8's switches, the program (compiled with its code cache,
// bin/code-cache.js), the exit code.
// CommonJS (bin/package.json): Node starts a CommonJS entry ~6 ms sooner than an ES module.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { setFlagsFromString } = require('node:v8');

/*
 * Fast paths that need none of the program (commander, the bundle): the
 * version (`--version`, `version`), the root help (rendered by the build),
 * and the completion scripts, which completions/ holds as `members
 * completion SHELL` prints them (tests keep each equal to what the program
 * prints). None of them shows the update notice: they answer scripts, Tab
 * and bug reports, and only the program reads the state it comes from.
 */
const argv = process.argv.slice(2);
const COMPLETIONS = { bash: 'members.bash', zsh: '_members', fish: 'members.fish', powershell: 'members.ps1' };
// The version, Node.js's and the platform, one a line, as src/lib/version.ts writes them (a test keeps both equal).
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version')) {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`members ${version}\nNode.js ${process.version}\n${process.platform} ${process.arch}\n`);
  process.exit(0);
}
// The update check a run started in the background (src/main.ts, startUpdateCheck): detached, with no terminal and no output.
if (argv.length === 1 && argv[0] === '__update-check') {
  require('../dist/main.cjs').checkForUpdates().catch(() => undefined).finally(() => process.exit(0));
  return;
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
 * SIGTERM and SIGHUP (a closed terminal) end a run with 130, as Ctrl-C does
 * (contract, exit codes): a command that must finish something first (a
 * change in flight, a bulk run's results) listens too, and this one then
 * stays out of its way; with nobody else listening (a start-up, a command
 * that owns nothing in flight, a second signal) the run ends here at once.
 */
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(130);
  });
}

/*
 * `members mcp` on a pipe, as an assistant's client starts it: the answers to
 * its first messages (initialize, tools/list) are constants of the build,
 * given before the program loads (src/entry/mcp-front.ts); the program takes
 * over right after them, at the first message they do not cover, or when
 * stdin ends. A command line the front does not know runs the program alone.
 */
if (argv[0] === 'mcp' && !require('node:tty').isatty(0)) {
  const front = require('../dist/mcp-front.cjs');
  const options = front.frontOptions(argv);
  if (options !== undefined) {
    // A signal while the front waits for the client (Ctrl-C too) ends the server as the program would: its error, exit 130.
    const stop = (signal) => {
      process.stderr.write(front.stopped(signal));
      process.exit(130);
    };
    const STOPPING = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of STOPPING) process.on(signal, stop);
    front.answerHandshake(process.stdin, front.writerTo(process.stdout), options, (handshake) => {
      for (const signal of STOPPING) process.off(signal, stop);
      runProgram((io) => front.handedOver(io, handshake, process.stdin));
    });
    return;
  }
}
runProgram((io) => io);

/** Runs the program on the process; `adapt` may change its Io (the MCP front's hand-over). */
function runProgram(adapt) {
  /*
   * Process-wide tweaks, set before anything they affect is compiled
   * (docs/performance.md, "Where the time goes now"):
   * - undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 compiles it
   *   with its baseline compiler (Liftoff, ~2 ms) and, after a few responses,
   *   recompiles the parser with TurboFan: ~30 ms of CPU on a 2-core machine
   *   (~130 ms when busy), more than a run of a few requests ever gets back.
   *   The flag affects only WebAssembly, which nothing else here uses.
   * - V8 checksums the code caches it writes and refuses one whose bytes do not
   *   match: a release build does neither unless asked, and a cache altered in
   *   place (same length) crashed every run with a fatal error. The check costs
   *   0.1 ms; our own CRC-32 cost 0.5 ms (node:zlib included).
   * Node's modules loaded after a flag is set miss Node's own code cache (V8
   * checks it against the flags too) and compile from source: net, which a
   * run's stdout (a pipe or a terminal) and every request need, undici's
   * diagnostics_channel, http and assert are loaded first (one GET: 3 ms less
   * CPU; net and diagnostics_channel alone 0.5 ms instead of 1.9 ms), and the
   * built-ins of the code cache's loader.
   */
  require('node:net');
  require('node:diagnostics_channel');
  require('node:http');
  require('node:assert');
  const { loadProgram } = require('./code-cache.js'); // and the built-ins it needs
  const V8_FLAGS = ['--liftoff-only', '--verify-snapshot-checksum'];
  for (const flag of V8_FLAGS) setFlagsFromString(flag);

  // A command line that starts with `mcp` (as an assistant's client writes it) runs the program of that command alone:
  // it starts without reading and compiling the others (src/entry/mcp-main.ts). `members -p desk mcp` runs the whole one.
  const program = loadProgram(join(__dirname, '..', 'dist', argv[0] === 'mcp' ? 'mcp.cjs' : 'main.cjs'), argv);
  const { main, processIo } = program.exports;
  const io = adapt(processIo());
  main(argv, io).then((code) => {
    process.exitCode = code;
    // A run that failed early compiled little: the cache is written by one that worked,
    // with V8's flags as a fresh start has them (V8 refuses a cache written under others).
    if (code === 0) {
      io.restoreV8Flags();
      program.save();
    }
    // For bug reports: how this process started, after the run's own output (docs/contract.md, environment).
    if (process.env.MEMBERS_DEBUG === '1') process.stderr.write(`debug: V8 flags: ${V8_FLAGS.join(' ')}\ndebug: ${program.describe()}\n`);
  });
}

function readOptional(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
