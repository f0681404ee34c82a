// Preload for peak-RSS samples where GNU time is missing:
// node --import ./scripts/bench/maxrss.mjs … writes maxRSS (KiB) to $MEMBERS_BENCH_RSS_FILE at exit.
import { writeFileSync } from 'node:fs';

const file = process.env.MEMBERS_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, `${process.resourceUsage().maxRSS}\n`));
