// Timing, peak-RSS and sandbox helpers of scripts/bench.mjs. No dependencies
// beyond Node: each sample is one child process timed from spawn to exit.
/* global fetch */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const NODE = process.execPath;
const TIME = '/usr/bin/time';
const PRELOAD = new URL('./maxrss.mjs', import.meta.url).href;

/**
 * Copies bin/, dist/ and package.json to a private directory and returns its
 * bin/members.js: a `npm run build` elsewhere in the tree (it empties dist/
 * first) cannot break a run in progress. The bundle needs no node_modules.
 */
export function snapshotApp() {
  const dir = mkdtempSync(join(tmpdir(), 'members-bench-app-'));
  for (const entry of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  return { bin: join(dir, 'bin', 'members.js'), dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A command to run: argv plus what it needs. `stdout` is 'ignore' (/dev/null)
 * unless a check wants it; `check(result)` may throw when the output is wrong.
 */
export function command(name, argv, options = {}) {
  return { name, argv, env: options.env, input: options.input, check: options.check, status: options.status ?? 0 };
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) of the waited-for children of this process so far; 10 ms steps. */
function childrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * CLOCK_TICK_MS; // cutime, cstime
  } catch {
    return Number.NaN;
  }
}

/**
 * Runs once; wall-clock milliseconds from spawn to exit, the CPU time the
 * child used (coarse: average it over many runs) and, with `rss`, its peak
 * RSS in MiB. `rss` wraps the child in GNU time (or an --import preload),
 * which adds about a millisecond: use it for long cases, or in separate runs.
 */
export function runOnce(cmd, { capture = false, rss = false } = {}) {
  const dir = rss ? mkdtempSync(join(tmpdir(), 'members-bench-rss-')) : undefined;
  const rssFile = dir && join(dir, 'rss');
  let { argv, env = process.env } = cmd;
  if (rss && existsSync(TIME)) {
    argv = [TIME, '-f', '%M', '-o', rssFile, ...argv];
  } else if (rss) {
    if (argv[0] !== NODE) throw new Error(`${cmd.name}: peak RSS needs GNU time or a node child`);
    argv = [NODE, '--import', PRELOAD, ...argv.slice(1)];
    env = { ...env, MEMBERS_BENCH_RSS_FILE: rssFile };
  }
  try {
    const cpuBefore = childrenCpuMs();
    const started = process.hrtime.bigint();
    const result = spawnSync(argv[0], argv.slice(1), {
      env,
      stdio: [cmd.input === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : 'ignore', 'pipe'],
      input: cmd.input,
      maxBuffer: 1 << 30,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = childrenCpuMs() - cpuBefore;
    if (result.error) throw result.error;
    if (result.status !== (cmd.status ?? 0)) {
      throw new Error(`${cmd.name}: exit ${result.status ?? result.signal}\n${String(result.stderr).slice(0, 2000)}`);
    }
    const rssMiB = rssFile ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : undefined;
    return { ms, cpuMs, rssMiB, stdout: capture ? result.stdout : undefined, stderr: String(result.stderr) };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs once with its output captured and checked. */
export function verify(cmd, options = {}) {
  const result = runOnce(cmd, { ...options, capture: true });
  cmd.check?.(result);
  return result;
}

/** Peak RSS (MiB) of one more run of `cmd`. */
export function peakRssMiB(cmd) {
  return runOnce(cmd, { rss: true }).rssMiB;
}

export const rssMethod = () => (existsSync(TIME) ? 'GNU time %M (wait4 ru_maxrss)' : 'preload: process.resourceUsage().maxRSS at exit');

export function shuffle(items) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

export function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * `warmup` untimed runs of each command, then `rounds` rounds, each running
 * every command once in a fresh random order (so drift in the machine's state
 * spreads over all of them). With `rss`, every sample also records its peak
 * RSS (for long cases, where the wrapper's millisecond does not matter).
 * Returns { name: { ms: [wall ms…], cpuMs: [cpu ms…], rssMiB: [MiB…] } }.
 */
export function measure(cmds, { rounds, warmup = 1, rss = false } = {}) {
  const samples = Object.fromEntries(cmds.map((cmd) => [cmd.name, { ms: [], cpuMs: [], rssMiB: [] }]));
  for (let i = 0; i < warmup; i++) {
    for (const cmd of cmds) runOnce(cmd);
  }
  for (let round = 0; round < rounds; round++) {
    for (const cmd of shuffle(cmds)) {
      const { ms, cpuMs, rssMiB } = runOnce(cmd, { rss });
      samples[cmd.name].ms.push(ms);
      samples[cmd.name].cpuMs.push(cpuMs);
      if (rssMiB !== undefined) samples[cmd.name].rssMiB.push(rssMiB);
    }
  }
  return samples;
}

/**
 * Starts `members sandbox --port 0 -o json --quiet …` and reads its JSON
 * line (base URL and tokens). `stop()` sends SIGTERM and waits for the exit.
 */
export async function startSandbox(bin, args = []) {
  const child = spawn(NODE, [bin, 'sandbox', '--port', '0', '-o', 'json', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    new Promise((resolve) => lines.once('line', resolve)),
    exited.then((code) => {
      throw new Error(`sandbox ${args.join(' ')} exited (${code}) before printing its address`);
    }),
  ]);
  const info = JSON.parse(first);
  return {
    url: info.base_url,
    apiToken: info.api_token,
    developerToken: info.developer_token,
    platformToken: info.platform_token,
    pid: child.pid,
    /** The environment that points `members` at this sandbox, and nothing of the caller's config. */
    env(configDir) {
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MEMBERS_')));
      return {
        ...env,
        MEMBERS_BASE_URL: info.base_url,
        MEMBERS_TOKEN: info.api_token,
        MEMBERS_DEVELOPER_TOKEN: info.developer_token,
        MEMBERS_PLATFORM_TOKEN: info.platform_token,
        MEMBERS_CONFIG_DIR: configDir,
      };
    },
    async api(path, init = {}) {
      const send = () => fetch(info.base_url + path, {
        ...init,
        headers: { authorization: `Bearer ${info.api_token}`, accept: 'application/json', 'content-type': 'application/json', ...init.headers },
      });
      // fetch may reuse a keep-alive connection the server has just closed (idle for 5 s): once more then.
      const response = await send().catch((error) => (error?.cause?.code === 'UND_ERR_SOCKET' ? send() : Promise.reject(error)));
      const text = await response.text();
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
