#!/usr/bin/env node
// The only file that touches the process: everything else receives a context.
import { main, processIo } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2), processIo());
