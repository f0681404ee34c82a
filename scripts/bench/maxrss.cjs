// Preload for peak-RSS samples where GNU time is missing:
// node --require scripts/bench/maxrss.cjs … writes maxRSS (KiB) to $MEMBERS_BENCH_RSS_FILE at exit.
'use strict';
const { writeFileSync } = require('node:fs');
const file = process.env.MEMBERS_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, `${process.resourceUsage().maxRSS}\n`));
