/**
 * The entry point of `members mcp` alone (dist/mcp.cjs), which bin/members.js
 * runs when the command line starts with `mcp`: a program with that one
 * command, its flags and the global options, inside the same error boundary
 * (run.ts), so that an assistant's client starts the server without reading
 * and compiling every other command (docs/performance.md). Its help, errors
 * and exit codes are the whole program's (test/e2e/mcp-fast-path.test.ts).
 */
import { buildCommandLine } from '../command-line.js';
import { registerMcp } from '../commands/mcp/index.js';
import type { Io } from '../lib/io.js';
import { runProgram, type RunDeps } from './run.js';

// What bin/members.js and bin/code-cache.js take from the bundle besides main(), as from dist/main.cjs.
export { processIo, type ProcessIo } from './process-io.js';
export { firstTimeTold, writeFileAtomically } from './code-cache-support.js';

const MCP_ONLY = [registerMcp];

export function main(argv: string[], io: Io, deps: RunDeps = {}): Promise<number> {
  return runProgram((run) => buildCommandLine({ ...run, commands: MCP_ONLY }), argv, io, deps);
}
