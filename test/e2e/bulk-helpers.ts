/**
 * Shared by the bulk end-to-end tests: reading the sandbox's state reliably
 * (it injects 5xx and 429 into our reads too), writing CSV files, and
 * spawning the binary to interrupt it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect } from 'vitest';
import { DESK_FLAVORS } from './desk-flavors.js';
import { BIN, run, sandboxGet, useSandboxProcess, tempDir, type SandboxProcess } from './harness.js';

export interface Sub { product_id: string; active?: number | null; expiration_date?: string | null }
export interface Student { id: string; email: string; document?: string | null; subscriptions?: Sub[] }
export interface Product { id: string; title: string }
export interface BulkResult { line: number; student: string; product_id: string; result: string; message: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET of the sandbox's API, retried through its injected failures. */
export async function stateGet<T>(sandbox: SandboxProcess, path: string): Promise<T> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { status, body } = await sandboxGet<T>(sandbox, path);
    if (status === 200) return body;
    if (status !== 429 && status < 500) throw new Error(`GET ${path}: ${status}`);
    await sleep(status === 429 ? 250 : 20);
  }
  throw new Error(`GET ${path}: the sandbox kept failing`);
}

/** Every student with their subscriptions, page by page until no page links on (simplePaginate too). */
export async function allStudents(sandbox: SandboxProcess): Promise<Student[]> {
  const students: Student[] = [];
  for (let page = 1; ; page++) {
    const body = await stateGet<{ data: Student[]; links: { next: string | null } }>(
      sandbox, `/api/v1/students?per_page=100&with=subscriptions&page=${page}`,
    );
    students.push(...body.data);
    if (!body.links.next) return students;
  }
}

export async function products(sandbox: SandboxProcess): Promise<Product[]> {
  return (await stateGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).data;
}

/** Requests per route template, introspection excluded (never faulted). */
export async function stats(sandbox: SandboxProcess): Promise<Record<string, number>> {
  return (await requestCounts(sandbox)).requests;
}

interface RequestCounts {
  requests: Record<string, number>;
  statuses: Record<string, number>;
  total: number;
  /** API requests being answered, and connections of members processes still open. */
  in_flight: number;
  client_connections: number;
}

/** The sandbox's own counters: requests per route template, answers per status, the total, and what is under way. */
export async function requestCounts(sandbox: SandboxProcess): Promise<RequestCounts> {
  return (await sandboxGet<RequestCounts>(sandbox, '/__sandbox/stats')).body;
}

/**
 * Resolves once no members process has a connection open to the sandbox and
 * no request is being answered: after a kill, every request the client had
 * sent has landed (or was cut short), so the counters are final.
 */
export async function settled(sandbox: SandboxProcess): Promise<void> {
  await waitFor(async () => {
    const { in_flight: inFlight, client_connections: clients } = await requestCounts(sandbox);
    return inFlight === 0 && clients === 0;
  });
}

/** Sets the sandbox's counters back to zero. */
export async function resetCounts(sandbox: SandboxProcess): Promise<void> {
  await fetch(`${sandbox.url}/__sandbox/stats/reset`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.apiToken}` } });
}

export const holds = (student: Student, productId: string) =>
  (student.subscriptions ?? []).filter((sub) => sub.product_id === productId).length;

/** The student's subscription to the product exists with access on (and that expiration, when given): a grant skips it. */
export const holdsAsAsked = (student: Student, productId: string, expiration?: string) =>
  (student.subscriptions ?? []).some((sub) => sub.product_id === productId && sub.active === 1
    && (expiration === undefined || sub.expiration_date?.slice(0, 10) === expiration));

export function writeCsv(dir: string, name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

export const ndjson = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as T);

/** Counts of each `result`. */
export function tally(results: BulkResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { result } of results) counts[result] = (counts[result] ?? 0) + 1;
  return counts;
}

/** The binary, spawned for a test that signals it; stdout and stderr collected. */
export function spawnMembers(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Polls until `check` holds (every 20 ms, up to `ms`). */
export async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** The summary line's duration varies: `in 12.3s` → `in X.Xs`. */
export const timeless = (text: string) => text.replace(/ in \d+\.\ds/g, ' in X.Xs');

export interface BulkSandbox {
  sandbox: SandboxProcess;
  /** A temporary directory for the CSV files. */
  dir: string;
  students: Student[];
  catalog: Product[];
  /** `members ARGS` against this sandbox. */
  members(args: string[], input?: string): ReturnType<typeof run>;
  /** Once every request has landed, the counters back to zero: what they count next is what the test runs next. */
  settleAndReset(): Promise<void>;
  /** Once every request has landed, the requests per route template (stats). */
  settledStats(): Promise<Record<string, number>>;
  /**
   * `members ARGV` spawned with `env` on fresh counters and SIGKILLed once the
   * sandbox has counted `count` requests of `route`; resolves, once every
   * request has landed, to how many of them it sent in all.
   */
  killAfter(run: { argv: string[]; env: Record<string, string>; route: string; count: number }): Promise<number>;
}

/**
 * One sandbox (started with `args`) for the enclosing file, with its students
 * and products read once (`each`: a sandbox for every test, read before it).
 */
export function useBulkSandbox(args: string[], options: { each?: boolean } = {}): BulkSandbox {
  const state = {
    sandbox: useSandboxProcess(args, options),
    members: (argv: string[], input?: string) => run(argv, { env: state.sandbox.env, input }),
    settleAndReset: async () => {
      await settled(state.sandbox);
      await resetCounts(state.sandbox);
    },
    settledStats: async () => {
      await settled(state.sandbox);
      return stats(state.sandbox);
    },
    killAfter: async ({ argv, env, route, count }) => {
      await state.settleAndReset();
      const child = spawnMembers(argv, env);
      await waitFor(async () => ((await stats(state.sandbox))[route] ?? 0) >= count);
      child.child.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');
      return (await state.settledStats())[route] ?? 0;
    },
  } as BulkSandbox;
  (options.each ? beforeEach : beforeAll)(async () => {
    state.dir = tempDir('members-bulk-');
    [state.students, state.catalog] = await Promise.all([allStudents(state.sandbox), products(state.sandbox)]);
  });
  return state;
}

/**
 * The tests `define` writes, in a block per flavour (the default sandbox and
 * Laravel's, DESK_FLAVORS) named `title (flavour)`, each block with a bulk
 * sandbox of its own: useBulkSandbox with `args` and the flavour's flags
 * (`each`: each test with a sandbox of its own).
 */
export function describeBulkFlavors(title: string, args: string[], define: (bulk: BulkSandbox) => void, options: { each?: boolean } = {}): void {
  describe.each(DESK_FLAVORS)(`${title} (%s)`, (_name, flavor) => define(useBulkSandbox([...args, ...flavor], options)));
}

/**
 * Holds the sandbox's answer to the next `method route` request until the
 * test releases it (src/sandbox/script.ts `until_released`; `afterChange`:
 * the server has handled it, e.g. read its state, before it holds it): a
 * test makes its own change in between, waiting on the request, not the clock.
 */
export async function holdNext(sandbox: SandboxProcess, request: { method: string; route: string; afterChange?: boolean }) {
  const control = async (path: string, method: string, body?: object) => {
    const response = await fetch(`${sandbox.url}/__sandbox/${path}`, {
      method, headers: { authorization: `Bearer ${sandbox.apiToken}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} /__sandbox/${path}: ${response.status}`);
    return response.status === 204 ? {} : await response.json() as { held?: number };
  };
  await control('script', 'POST', { method: request.method, route: request.route, after_change: request.afterChange === true, until_released: true });
  return {
    /** Resolves once the request is being held. */
    held: () => waitFor(async () => (await control('script', 'GET')).held === 1),
    release: async () => void await control('script/release', 'POST'),
  };
}
