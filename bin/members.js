#!/usr/bin/env node
// The only file that touches the process: everything else receives a context.
import { main, processIo } from '../dist/main.js';

// A reader that went away (`members … | head`) is not an error of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), processIo());
