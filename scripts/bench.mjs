#!/usr/bin/env node
// `npm run bench`: the performance of `members` against its floors, on this
// machine, in one run. Starts its own sandboxes, times every case as a fresh
// child process (warm-up first, then shuffled rounds, medians), prints one
// table in which every ratio is against a baseline measured in the same run,
// and writes every figure to bench-results/latest.json (partial.json for
// --only and --quick runs).
//
//   node scripts/bench.mjs [--only startup,get,list,bulk,report,throughput] [--quick]
//
// Run `npm run build` first (npm run bench does). See "Performance" in the README.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  NODE, ROOT, command, mean, measure, median, peakRssMiB, rssMethod, runOnce, shuffle, snapshotApp, startSandbox, verify,
} from './bench/lib.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const QUICK = args.includes('--quick');
const ONLY = flag('--only')?.split(',');
const wants = (group) => !ONLY || ONLY.includes(group);
const rounds = (full) => (QUICK ? Math.max(2, Math.ceil(full / 4)) : full);

// The figures of the issue: latency added by the sandbox, list and bulk sizes.
const LATENCY_MS = 20;
const LIST_STUDENTS = 10_000;
const LIST_PER_PAGE = 100; // what --all asks for (src/commands/list-options.ts FOLLOW_PER_PAGE)
const LIST_CONCURRENCY = 4; // pages in flight with --all (LIST_CONCURRENCY)
const BULK_ROWS = 1_000;
const BULK_CONCURRENCY = 8;
const BULK_REQUESTS_PER_ROW = 2; // GET …/products/{product_id} (already held?), then POST …/products
const REPORT_STUDENTS = 70_000; // --top 10 then ranks ~106,000 rows
const REPORT_TOP = 10;
const REPORT_LIMIT = 500; // rows per page, the CLI's default
const REPORT_ROWS = { large: 100_000, small: 10_000 };
const LOAD_CONNECTIONS = 16;
const LOAD_SECONDS = QUICK ? 2 : 5;

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'members-bench-'));
const configDir = join(work, 'config');
mkdirSync(configDir, { recursive: true });
const app = snapshotApp();
const BIN = app.bin;
const members = (name, argv, env, extra = {}) => command(name, [NODE, BIN, ...argv], { env, ...extra });
const rows = [];
const figures = {};
const sandboxes = [];
const load = [loadavg()[0]];

function row(fields) {
  rows.push(fields);
  const line = [fields.case, fields.median_ms === undefined ? '' : `${fields.median_ms.toFixed(1)} ms`, fields.ratio?.toFixed(2) ?? '', fields.vs ?? ''];
  console.error(`  ${line.join('  ')}`);
}

/**
 * Median wall time, mean CPU time and peak RSS of one measured command: the
 * highest RSS of its samples when they recorded one, else of RSS_RUNS more runs.
 */
const RSS_RUNS = 3;
function summary(samples, cmd) {
  const rss = samples.rssMiB.length > 0 ? samples.rssMiB : Array.from({ length: RSS_RUNS }, () => peakRssMiB(cmd));
  return { median_ms: median(samples.ms), cpu_ms: mean(samples.cpuMs), samples_ms: samples.ms.map((ms) => Math.round(ms * 10) / 10), rss_mib: Math.max(...rss) };
}

async function sandbox(extra) {
  const box = await startSandbox(BIN, extra);
  sandboxes.push(box);
  return box;
}

async function stop(box) {
  await box.stop();
  sandboxes.splice(sandboxes.indexOf(box), 1);
}

/** The minimal scripts are bundled like the CLI (esbuild, ESM, node20.18) so that both load undici the same way. */
async function bundleScript(name) {
  const outfile = join(work, `${name}.bundle.mjs`);
  await build({
    entryPoints: [join(ROOT, 'scripts', 'bench', `${name}.mjs`)],
    outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20.18', logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

/** A ratio meets a target at the precision both are printed with (two decimals). */
const within = (ratio, limit) => Math.round(ratio * 100) / 100 <= limit;

const lines = (result) => String(result.stdout).split('\n').filter(Boolean);
const expectLines = (count) => (result) => {
  if (lines(result).length !== count) throw new Error(`expected ${count} lines of output, got ${lines(result).length}`);
};

// ---------------------------------------------------------------- start-up
const nodeE0 = command('node -e 0', [NODE, '-e', '0']);
if (wants('startup')) {
  console.error('start-up: --version, --help');
  const version = members('members --version', ['--version'], undefined, { check: expectLines(1) });
  const help = members('members --help', ['--help'], undefined, { check: (r) => expectLines(lines(r).length || 1)(r) });
  verify(version);
  verify(help);
  const samples = measure([nodeE0, version, help], { rounds: rounds(40), warmup: 2 });
  const base = summary(samples[nodeE0.name], nodeE0);
  figures.startup = { baseline: base };
  row({ group: 'startup', case: 'node -e 0', ...base });
  for (const cmd of [version, help]) {
    const s = summary(samples[cmd.name], cmd);
    figures.startup[cmd.name] = s;
    row({ group: 'startup', case: cmd.name, ...s, vs: 'node -e 0', ratio: s.median_ms / base.median_ms, target: '≤ 1.35×, RSS ≤ 50 MiB', pass: within(s.median_ms / base.median_ms, 1.35) && s.rss_mib <= 50 });
  }
}

// ---------------------------------------------------------------- one GET
let oneRequestMs;
let getBox;
if (wants('get') || wants('list') || wants('throughput')) {
  getBox = await sandbox([]);
}
let studentId;
if (getBox) {
  studentId = (await getBox.api('/api/v1/students?per_page=1')).data[0].id;
}
if (wants('get') || wants('list')) {
  console.error('one GET: students get ID -o json');
  const env = getBox.env(configDir);
  const one = (result) => {
    if (JSON.parse(String(result.stdout)).id !== studentId) throw new Error('not the student asked for');
  };
  const cli = members('members students get ID -o json', ['students', 'get', studentId, '-o', 'json'], env, { check: one });
  const minimal = command('minimal undici request()', [NODE, await bundleScript('get-undici'), studentId], { env, check: one });
  const fetchMin = command('minimal built-in fetch', [NODE, join(ROOT, 'scripts/bench/get-fetch.mjs'), studentId], { env, check: one });
  const httpMin = command('minimal node:http', [NODE, join(ROOT, 'scripts/bench/get-http.mjs'), studentId], { env, check: one });
  const cmds = [nodeE0, cli, minimal, fetchMin, httpMin];
  for (const cmd of cmds.slice(1)) verify(cmd);
  const samples = measure(cmds, { rounds: rounds(25), warmup: 2 });
  const base = summary(samples[nodeE0.name], nodeE0);
  const s = Object.fromEntries(cmds.slice(1).map((cmd) => [cmd.name, summary(samples[cmd.name], cmd)]));
  figures.get = { baseline: base, ...s };
  oneRequestMs = s[cli.name].median_ms;
  row({ group: 'get', case: 'node -e 0 (same run)', ...base });
  for (const cmd of [minimal, fetchMin, httpMin]) {
    row({ group: 'get', case: cmd.name, ...s[cmd.name], vs: 'node -e 0', ratio: s[cmd.name].median_ms / base.median_ms });
  }
  const cliRatio = s[cli.name].median_ms / base.median_ms;
  row({ group: 'get', case: cli.name, ...s[cli.name], vs: 'node -e 0', ratio: cliRatio, target: '≤ 3.0×, RSS ≤ 90 MiB', pass: within(cliRatio, 3.0) && s[cli.name].rss_mib <= 90 });
  row({ group: 'get', case: `${cli.name} vs minimal undici`, median_ms: s[cli.name].median_ms, vs: 'minimal undici request()', ratio: s[cli.name].median_ms / s[minimal.name].median_ms });
}

// ---------------------------------------------------------------- throughput
if (wants('throughput')) {
  console.error(`sandbox throughput: ${LOAD_CONNECTIONS} keep-alive connections, ${LOAD_SECONDS} s`);
  const script = await bundleScript('load');
  const path = `/api/v1/students/${studentId}`;
  const cpuBefore = processCpuMs(getBox.pid);
  const result = JSON.parse(execFileSync(NODE, [script, getBox.url, getBox.apiToken, path, String(LOAD_CONNECTIONS), String(LOAD_SECONDS)], { encoding: 'utf8' }));
  // The load runs 1 s of warm-up before its counted seconds: the server's CPU covers both.
  const serverCpuMs = processCpuMs(getBox.pid) - cpuBefore;
  const allRequests = result.requests * ((LOAD_SECONDS + 1) / result.seconds);
  result.server_cpu_us_per_request = (serverCpuMs * 1000) / allRequests;
  figures.throughput = { path: '/api/v1/students/{id}', connections: LOAD_CONNECTIONS, ...result };
  row({
    group: 'throughput', case: `sandbox GET /students/{id}, ${LOAD_CONNECTIONS} connections`, per_second: result.per_second,
    note: `p50 ${result.p50_ms.toFixed(1)} ms, p99 ${result.p99_ms.toFixed(1)} ms, server CPU ≈ ${Math.round(result.server_cpu_us_per_request)} µs/request`,
    target: '≥ 2,000 GET/s', pass: result.per_second >= 2000,
  });
}
if (getBox) await stop(getBox);

// ---------------------------------------------------------------- list --all
if (wants('list')) {
  console.error(`list: students list --all -o ndjson, ${LIST_STUDENTS} students, ${LATENCY_MS} ms latency`);
  const box = await sandbox(['--students', String(LIST_STUDENTS), '--latency', `${LATENCY_MS}ms`]);
  const cli = members('members students list --all -o ndjson', ['students', 'list', '--all', '-o', 'ndjson'], box.env(configDir), { check: expectLines(LIST_STUDENTS) });
  verify(cli);
  const samples = measure([cli], { rounds: rounds(5), warmup: 0, rss: true });
  const s = summary(samples[cli.name], cli);
  const pages = Math.ceil(LIST_STUDENTS / LIST_PER_PAGE);
  const ideal = Math.ceil(pages / LIST_CONCURRENCY) * LATENCY_MS + oneRequestMs;
  const rtt = await roundTrip(box, `/api/v1/students?per_page=${LIST_PER_PAGE}&page=2`, LIST_CONCURRENCY);
  figures.list = { ...s, pages, concurrency: LIST_CONCURRENCY, ideal_ms: ideal, one_request_ms: oneRequestMs, round_trip: rtt };
  row({
    group: 'list', case: `members students list --all (${LIST_STUDENTS.toLocaleString('en-US')} rows, ${pages} pages)`, ...s,
    vs: `ideal ⌈${pages}/${LIST_CONCURRENCY}⌉×${LATENCY_MS} ms + one GET = ${ideal.toFixed(0)} ms`, ratio: s.median_ms / ideal, target: '≤ 1.2×', pass: within(s.median_ms / ideal, 1.2),
    note: `a page takes ${rtt.mean_ms.toFixed(1)} ms here, ${LIST_CONCURRENCY} in flight (p99 ${rtt.p99_ms.toFixed(0)} ms)`,
  });
  await stop(box);
}

// ---------------------------------------------------------------- bulk grant
if (wants('bulk')) {
  const help = spawnSync(NODE, [BIN, 'students', 'grant', '--help'], { encoding: 'utf8' });
  if (!help.stdout.includes('--file')) {
    console.error('bulk: `students grant --file` is not there yet; skipped');
    row({ group: 'bulk', case: 'members students grant --file', note: 'command missing: skipped', pass: false });
  } else {
    console.error(`bulk: students grant --file (${BULK_ROWS} rows, --concurrency ${BULK_CONCURRENCY}), ${LATENCY_MS} ms latency`);
    const boxArgs = ['--students', String(BULK_ROWS), '--latency', `${LATENCY_MS}ms`];
    // The same seed every time: the file made on the first sandbox is valid on each fresh one.
    let box = await sandbox(boxArgs);
    const file = join(work, 'grants.csv');
    writeFileSync(file, await grantFile(box));
    const [firstStudent] = readFileSync(file, 'utf8').split('\n')[1].split(',');
    const rtt = await roundTrip(box, `/api/v1/students/${firstStudent}/products`, BULK_CONCURRENCY);
    let perRow;
    const fresh = async () => {
      const used = box ?? (await sandbox(boxArgs));
      box = undefined;
      await used.api('/__sandbox/stats/reset', { method: 'POST' });
      return used;
    };
    const done = async (used) => {
      const stats = await used.api('/__sandbox/stats');
      await stop(used);
      return stats.total;
    };
    const cliArgs = ['students', 'grant', '--file', file, '--yes', '--concurrency', String(BULK_CONCURRENCY), '-o', 'ndjson', '--quiet'];
    const allGranted = (result) => {
      const results = lines(result).map((line) => JSON.parse(line));
      const granted = results.filter((r) => r.result === 'granted').length;
      if (granted !== BULK_ROWS) throw new Error(`bulk: ${granted} of ${BULK_ROWS} rows granted`);
    };
    const curl = async (name, argv) => {
      const used = await fresh();
      const env = used.env(configDir);
      const result = runOnce(command(name, argv, { env }));
      const requests = await done(used);
      return { ms: result.ms, cpuMs: result.cpuMs, requests };
    };
    // A fresh sandbox for every run (a second run would find every row applied). Each round runs the CLI
    // and the minimal script in random order; the first round is the warm-up.
    const minimalScript = await bundleScript('bulk-min');
    const runs = [];
    const minimalRuns = [];
    for (let i = 0; i <= rounds(3); i++) {
      for (const which of shuffle(['cli', 'minimal'])) {
        if (which === 'minimal') {
          const result = await curl('minimal undici bulk', [NODE, minimalScript, file, String(BULK_CONCURRENCY)]);
          if (i > 0) minimalRuns.push(result);
          continue;
        }
        const used = await fresh();
        const cli = members('members students grant --file', cliArgs, used.env(join(work, `config-bulk-${i}`)), { check: allGranted });
        const result = verify(cli, { rss: true });
        perRow = (await done(used)) / BULK_ROWS;
        if (i > 0) runs.push(result);
      }
    }
    const minimal = { ms: median(minimalRuns.map((r) => r.ms)), cpu_ms: mean(minimalRuns.map((r) => r.cpuMs)), requests: minimalRuns[0].requests, samples_ms: minimalRuns.map((r) => r.ms) };
    console.error('  curl: xargs -P 8 (one run)');
    const xargs = await curl('xargs -P 8 curl', ['bash', '-c', `tail -n +2 "$1" | xargs -P 8 -n 1 "$2"`, '_', file, join(ROOT, 'scripts/bench/curl-row.sh')]);
    console.error('  curl: while read loop (one run, about a minute)');
    const loop = await curl('while read curl', [join(ROOT, 'scripts/bench/curl-loop.sh'), file]);
    const med = median(runs.map((r) => r.ms));
    const bulkRss = Math.max(...runs.map((r) => r.rssMiB));
    const ideal = (BULK_ROWS * perRow * LATENCY_MS) / BULK_CONCURRENCY;
    const idealMinimal = (BULK_ROWS * BULK_REQUESTS_PER_ROW * LATENCY_MS) / BULK_CONCURRENCY;
    figures.bulk = {
      rows: BULK_ROWS, concurrency: BULK_CONCURRENCY, requests_per_row: perRow, median_ms: med, cpu_ms: mean(runs.map((r) => r.cpuMs)),
      samples_ms: runs.map((r) => r.ms), ideal_ms: ideal, ideal_two_requests_ms: idealMinimal, rss_mib: bulkRss, curl_loop: loop, xargs, minimal, round_trip: rtt,
    };
    row({
      group: 'bulk', case: `members students grant --file (${BULK_ROWS} rows, --concurrency ${BULK_CONCURRENCY})`, median_ms: med, cpu_ms: figures.bulk.cpu_ms, rss_mib: bulkRss,
      vs: `ideal ${BULK_ROWS}×${perRow}×${LATENCY_MS} ms/${BULK_CONCURRENCY} = ${ideal.toFixed(0)} ms`, ratio: med / ideal, target: '≤ 1.15×', pass: within(med / ideal, 1.15) && perRow <= BULK_REQUESTS_PER_ROW,
      note: `${perRow} requests/row; a request takes ${rtt.mean_ms.toFixed(1)} ms here, ${BULK_CONCURRENCY} in flight (p99 ${rtt.p99_ms.toFixed(0)} ms)`,
    });
    row({
      group: 'bulk', case: `minimal undici script (same 2 requests/row, ${BULK_CONCURRENCY} in flight)`, median_ms: minimal.ms, cpu_ms: minimal.cpu_ms,
      vs: 'same ideal', ratio: minimal.ms / ideal, note: `${minimal.requests / BULK_ROWS} requests/row; members takes ${(med / minimal.ms).toFixed(2)}× its time`,
    });
    row({ group: 'bulk', case: 'while read loop of curl (same 2 requests/row)', median_ms: loop.ms, vs: 'members', ratio: loop.ms / med, target: '≥ 10× slower than members', pass: loop.ms / med >= 10, note: `${loop.requests / BULK_ROWS} requests/row` });
    row({ group: 'bulk', case: 'xargs -P 8 of curl (same 2 requests/row)', median_ms: xargs.ms, vs: 'members', ratio: xargs.ms / med, note: `${xargs.requests / BULK_ROWS} requests/row` });
  }
}

/** The sandbox's real round trip for GET `path` with `concurrency` requests in flight (200 of them). */
async function roundTrip(box, path, concurrency) {
  const script = await bundleScript('rtt');
  return JSON.parse(execFileSync(NODE, [script, box.url, box.apiToken, path, String(concurrency), '200'], { encoding: 'utf8' }));
}

/** User + system CPU milliseconds a process has used so far (Linux /proc; NaN elsewhere). */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 10 ms ticks
  } catch {
    return Number.NaN;
  }
}

/** `student,product_id` rows: each of the sandbox's students and a product it does not hold. */
async function grantFile(box) {
  const products = (await box.api('/api/v1/products?per_page=100')).data.map((p) => p.id);
  const out = ['student,product_id'];
  for (let page = 1; out.length <= BULK_ROWS; page++) {
    const { data, meta } = await box.api(`/api/v1/students?with=subscriptions&per_page=100&page=${page}`);
    for (const student of data) {
      const held = new Set((student.subscriptions ?? []).map((s) => s.product_id ?? s.product?.id));
      const free = products.find((id) => !held.has(id));
      if (free && out.length <= BULK_ROWS) out.push(`${student.id},${free}`);
    }
    if (page >= meta.last_page) break;
  }
  if (out.length !== BULK_ROWS + 1) throw new Error(`could only make ${out.length - 1} grant rows`);
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------- report export
if (wants('report')) {
  console.error(`report: engaged-courses -o csv --out FILE (--students ${REPORT_STUDENTS} --top ${REPORT_TOP})`);
  const box = await sandbox(['--students', String(REPORT_STUDENTS)]);
  const env = box.env(configDir);
  const minimal = await bundleScript('report-min');
  const cmds = [];
  const outFiles = [];
  for (const [size, count] of Object.entries(REPORT_ROWS)) {
    const pages = String(count / REPORT_LIMIT);
    const cliOut = join(work, `report-cli-${size}.csv`);
    const minOut = join(work, `report-min-${size}.csv`);
    outFiles.push([cliOut, count], [minOut, count]);
    cmds.push(
      members(`members report (${count} rows)`, ['report', 'engaged-courses', '--top', String(REPORT_TOP), '--limit', String(REPORT_LIMIT), '--max-pages', pages, '-o', 'csv', '--out', cliOut, '--quiet'], env),
      command(`minimal cursor walk (${count} rows)`, [NODE, minimal, minOut, String(REPORT_TOP), pages], { env }),
    );
  }
  const samples = measure(cmds, { rounds: rounds(3), warmup: 1, rss: true });
  for (const [file, count] of outFiles) {
    const got = readFileSync(file, 'utf8').split('\n').filter(Boolean).length - 1;
    if (got !== count) throw new Error(`${file}: ${got} rows, expected ${count}`);
  }
  const s = Object.fromEntries(cmds.map((cmd) => [cmd.name, summary(samples[cmd.name], cmd)]));
  figures.report = s;
  const big = REPORT_ROWS.large;
  const small = REPORT_ROWS.small;
  for (const count of [small, big]) {
    const cli = s[`members report (${count} rows)`];
    const min = s[`minimal cursor walk (${count} rows)`];
    row({ group: 'report', case: `minimal cursor walk, undici (${count.toLocaleString('en-US')} rows)`, ...min });
    const ratio = cli.median_ms / min.median_ms;
    const flat = count === big ? cli.rss_mib / s[`members report (${small} rows)`].rss_mib : undefined;
    row({
      group: 'report', case: `members report engaged-courses -o csv --out (${count.toLocaleString('en-US')} rows)`, ...cli, vs: 'minimal cursor walk', ratio,
      target: count === big ? '≤ 1.2×, RSS ≤ 100 MiB, flat' : undefined,
      pass: count === big ? within(ratio, 1.2) && cli.rss_mib <= 100 && within(flat, 1.1) : undefined,
      note: flat === undefined ? undefined : `RSS ${flat.toFixed(2)}× that of ${small.toLocaleString('en-US')} rows`,
    });
  }
  await stop(box);
}

// ---------------------------------------------------------------- the table
load.push(loadavg()[0]);
const elapsed = (Date.now() - started) / 1000;
const fmt = {
  ms: (value) => (value === undefined ? '' : value >= 10_000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`),
  ratio: (value) => (value === undefined ? '' : `${value.toFixed(2)}×`),
  rss: (value) => (value === undefined ? '' : `${value.toFixed(1)}`),
};
const table = [
  ['case', 'median', 'CPU', 'vs', 'ratio', 'peak RSS MiB', 'target', 'ok', 'note'],
  ...rows.map((r) => [
    r.case,
    r.per_second !== undefined ? `${Math.round(r.per_second).toLocaleString('en-US')} GET/s` : fmt.ms(r.median_ms),
    fmt.ms(r.cpu_ms),
    r.vs ?? '',
    fmt.ratio(r.ratio),
    fmt.rss(r.rss_mib),
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'yes' : 'NO',
    r.note ?? '',
  ]),
];
const markdown = table.map((cells, i) => {
  const line = `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`;
  return i === 0 ? `${line}\n|${cells.map(() => '---').join('|')}|` : line;
}).join('\n');
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'scripts'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${load.map((l) => l.toFixed(1)).join(' → ')}, commit ${commit}${dirty ? ' + changes' : ''}, ${elapsed.toFixed(0)} s`;
process.stdout.write(`\n${markdown}\n\n${machine}\nmedian: wall time of a fresh process (warm-up, then shuffled rounds); CPU: mean user+system time of the child; peak RSS: ${rssMethod()}.\n`);

// latest.json is the last complete run; --only and --quick runs do not overwrite it.
const resultFile = ONLY || QUICK ? 'partial.json' : 'latest.json';
mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
writeFileSync(join(ROOT, 'bench-results', resultFile), `${JSON.stringify({
  date: new Date().toISOString(), node: process.version, cpus: cpus().length, cpu_model: cpus()[0]?.model, load_average: load, commit, dirty,
  seconds: elapsed, quick: QUICK, rss_method: rssMethod(), dist_main_bytes: statSync(join(ROOT, 'dist', 'main.js')).size,
  table: rows, figures,
}, null, 2)}\n`);
console.error(`wrote bench-results/${resultFile} (${elapsed.toFixed(0)} s)`);

for (const box of [...sandboxes]) await box.stop();
rmSync(work, { recursive: true, force: true });
app.remove();
