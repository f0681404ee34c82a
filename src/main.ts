/** The entry point of the whole program (dist/main.cjs): every command, run inside the one error boundary (entry/run.ts). */
import type { Io } from './lib/io.js';
import { runProgram, type RunDeps } from './entry/run.js';
import { buildProgram } from './program.js';

// What bin/members.js and bin/code-cache.js take from the bundle besides main().
export { processIo, type ProcessIo } from './entry/process-io.js';
export { checkForUpdates } from './entry/update-check.js';
export { firstTimeTold, writeFileAtomically } from './entry/code-cache-support.js';

export function main(argv: string[], io: Io, deps: RunDeps = {}): Promise<number> {
  return runProgram(buildProgram, argv, io, deps);
}
