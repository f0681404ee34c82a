#!/usr/bin/env node
// The only file that touches the process: everything else receives a context.
import { setFlagsFromString } from 'node:v8';

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
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

const { main, processIo } = await import('../dist/main.js');

process.exitCode = await main(process.argv.slice(2), processIo());
