#!/usr/bin/env node
// The only file that touches the process: everything else receives a context.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { setFlagsFromString } from 'node:v8';

/*
 * Fast paths that need none of the program (commander, the bundle): the
 * version, and the completion scripts, which completions/ holds as
 * `members completion SHELL` prints them (a test keeps them equal).
 */
const argv = process.argv.slice(2);
const COMPLETIONS = { bash: 'members.bash', zsh: '_members', fish: 'members.fish', powershell: 'members.ps1' };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}
// What the completion scripts ask on each Tab (profile names, undo ids): no commander, zod or conf.
if (argv.length >= 1 && /^__complete-(profiles|undo)$/.test(argv[0])) {
  const { runCompletionHelper } = await import('../dist/complete.js');
  runCompletionHelper(argv[0].slice('__complete-'.length), process.env, (text) => process.stdout.write(text));
  process.exit(0);
}
if (argv.length === 2 && argv[0] === 'completion' && Object.hasOwn(COMPLETIONS, argv[1])) {
  process.stdout.write(readFileSync(new URL(`../completions/${COMPLETIONS[argv[1]]}`, import.meta.url), 'utf8'));
  process.exit(0);
}


/*
 * Process-wide tweaks, set before anything they affect is compiled
 * ("Performance" in the README):
 * - undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 compiles it
 *   with its baseline compiler (Liftoff, ~2 ms) and, after a few responses,
 *   recompiles the parser with TurboFan: ~30 ms of CPU on a 2-core machine
 *   (~130 ms when busy), more than a run of a few requests ever gets back.
 *   The flag affects only WebAssembly, which nothing else here uses.
 * - zod compiles a JIT parser per object schema on first parse; a CLI run
 *   parses too few records to earn that back (6 % less CPU for 10,000
 *   students without it). zod reads its config from this global, the one
 *   `z.config()` writes (test/unit/api/zod-config.test.ts pins that).
 */
setFlagsFromString('--liftoff-only');
// Node ≥ 22.1 keeps V8's compiled code of dist/ on disk (in the OS temporary directory): later starts skip most compiling.
// (Node 20 has no such cache for ES modules.) NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

const { main, processIo } = await import('../dist/main.js');

process.exitCode = await main(argv, processIo());
