/**
 * What the read plan's end-to-end files share (bulk-strategy.test.ts, bulk-strategy-servers.test.ts: two
 * files, so that the slow tier's workers run them side by side), counted by the sandbox itself. Each
 * case runs the same file with `--strategy rows` and with the default `auto`
 * on twin sandboxes (same seed, same flavor): the results and the final state
 * must be the same, and `auto` must stay within the request floor,
 * `min(rows reads, snapshot pages + 1 re-read per destroy) + changes`, as
 * requests ≤ 1.05 × floor + 3.
 * The four cases of the issue, on the default flavor, Laravel's, and
 * simplePaginate pages (no page count: a probe decides); case 1 again on
 * servers that do not page by per_page=100 (`--per-page-ignored 15`, as
 * `->paginate(15)`; `--per-page-max 50`, as `min($request->per_page, 50)`).
 */
import { afterAll, expect } from 'vitest';
import { startSandbox, tempDir, type SandboxProcess, run } from './harness.js';
import {
  allStudents, holds, holdsAsAsked, ndjson, products, requestCounts, resetCounts, tally, writeCsv,
  type BulkResult, type Student,
} from './bulk-helpers.js';

export const FLAVORS = [['default', []], ['laravel', ['--flavor', 'laravel']], ['simple', ['--paginator', 'simple']]] as const;
const PER_PAGE = 100;
/** Case 1 where the server pages otherwise: its flags, the pages of 2,000 students, and the probe of a server that counts none. */
export const PAGE_SIZES = [
  ['ignored15', ['--per-page-ignored', '15'], 134, 0],
  ['ignored15-laravel', ['--per-page-ignored', '15', '--flavor', 'laravel'], 134, 0],
  ['max50', ['--per-page-max', '50'], 40, 0],
  ['max50-laravel-simple', ['--per-page-max', '50', '--flavor', 'laravel', '--paginator', 'simple'], 40, 1],
] as const;
export const dir = tempDir('members-strategy-');

export interface Twins {
  rows: SandboxProcess;
  auto: SandboxProcess;
  students: Student[];
  productIds: string[];
  /** The page size the sandboxes really use when asked per_page=100. */
  perPage: number;
}

/** The page size a sandbox started with `args` uses for per_page=100. */
function pageSizeOf(args: readonly string[]): number {
  const flag = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
  return flag('--per-page-ignored') ?? Math.min(flag('--per-page-max') ?? PER_PAGE, PER_PAGE);
}

const running: SandboxProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((sandbox) => sandbox.stop()));
});

/** Two sandboxes of the same data; the students and products as the first one lists them. */
export async function twins(args: readonly string[], students: number, readStudents = true): Promise<Twins> {
  const started = await Promise.all([0, 1].map(() => startSandbox(['--students', String(students), '--seed', '28', ...args])));
  running.push(...started);
  const [rows, auto] = started as [SandboxProcess, SandboxProcess];
  return {
    rows, auto, students: readStudents ? await allStudents(rows) : [], productIds: (await products(rows)).map((product) => product.id),
    perPage: pageSizeOf(args),
  };
}

export async function stop(pair: Twins): Promise<void> {
  for (const sandbox of [pair.rows, pair.auto]) {
    running.splice(running.indexOf(sandbox), 1);
    await sandbox.stop();
  }
}

export interface Counted {
  code: number | null;
  results: BulkResult[];
  stderr: string;
  requests: number;
  changes: number;
  /** DELETEs: each read again right before it when its state came from a snapshot (compare before destroy). */
  destroys: number;
  status429: number;
}

/** One run of `args` against `sandbox`, with the sandbox's own count of what it received. */
export async function counted(sandbox: SandboxProcess, args: string[]): Promise<Counted> {
  await resetCounts(sandbox);
  const { code, stdout, stderr } = await run(args, { env: sandbox.env });
  const counts = await requestCounts(sandbox);
  const changes = Object.entries(counts.requests).filter(([route]) => /^(POST|DELETE) /.test(route)).reduce((sum, [, n]) => sum + n, 0);
  const destroys = Object.entries(counts.requests).filter(([route]) => route.startsWith('DELETE ')).reduce((sum, [, n]) => sum + n, 0);
  return { code, results: ndjson<BulkResult>(stdout), stderr, requests: counts.total, changes, destroys, status429: counts.statuses['429'] ?? 0 };
}

/** What a student holds, in the fields a grant decides on. */
export const holdings = (students: Student[], ids?: ReadonlySet<string>) => students
  .filter((student) => !ids || ids.has(student.id))
  .map((student) => [student.id, (student.subscriptions ?? []).map((sub) => `${sub.product_id} ${sub.active} ${sub.expiration_date ?? ''}`).sort()]);

/**
 * Runs `file` with rows on one twin and auto on the other: the same results,
 * the auto run within its floor. Returns both runs.
 */
export async function compare(pair: Twins, file: string, extra: string[] = [], command = ['students', 'grant', '--file', file]) {
  const args = [...command, '--yes', '-o', 'ndjson', '--concurrency', '8', ...extra];
  const rows = await counted(pair.rows, [...args, '--strategy', 'rows']);
  const auto = await counted(pair.auto, args);
  expect(rows.code, rows.stderr).toBe(0);
  expect(auto.code, auto.stderr).toBe(0);
  expect(auto.results).toEqual(rows.results);
  expect(auto.changes).toBe(rows.changes);
  const rowsReads = rows.requests - rows.changes;
  const pages = Math.ceil(pair.students.length / pair.perPage);
  // A snapshot's destroy reads its subscription once more (issue 36); the rows read it right before anyway.
  const floor = Math.min(rowsReads, pages + rows.destroys) + rows.changes;
  expect(auto.requests, `auto sent ${auto.requests} requests; floor ${floor} (rows reads ${rowsReads}, pages ${pages} + ${rows.destroys} re-reads, changes ${rows.changes})`)
    .toBeLessThanOrEqual(1.05 * floor + 3);
  return { rows, auto, floor };
}

/** `count` rows for one product: new ones first in student order, then some already held as asked; keys alternate e-mail and id. */
export function grantFile(name: string, pair: Twins, count: number, held: number): { file: string; productId: string; chosen: Student[] } {
  // The product with the most holders that have access, so that `held` of them can be asked again.
  const productId = [...pair.productIds].sort((a, b) =>
    pair.students.filter((s) => holdsAsAsked(s, b)).length - pair.students.filter((s) => holdsAsAsked(s, a)).length)[0] as string;
  const already = pair.students.filter((student) => holdsAsAsked(student, productId)).slice(0, held);
  const fresh = pair.students.filter((student) => holds(student, productId) === 0).slice(0, count - already.length);
  const chosen = [...fresh, ...already];
  const lines = chosen.map((student, index) => `${index % 2 === 0 ? student.email : student.id},${productId}`);
  return { file: writeCsv(dir, name, ['student,product_id', ...lines]), productId, chosen };
}

/**
 * Case 1 (1,000 rows, 800 new, on 2,000 students; the snapshot, read in `pages` pages, then 800
 * grants) and case 3 (its re-run: the snapshot alone), with the same results and final state as the rows.
 */
export async function snapshotCase(args: readonly string[], name: string, pages: number, probe: number): Promise<void> {
  const pair = await twins(args, 2_000);
  const { file, chosen } = grantFile(`case1-${name}.csv`, pair, 1_000, 200);
  expect(chosen).toHaveLength(1_000);
  const first = await compare(pair, file);
  expect(tally(first.auto.results)).toEqual({ granted: 800, skipped: 200 });
  expect(first.auto.stderr).toContain(`(read ${pages} pages instead of 1,500 lookups)`);
  expect(first.auto.requests).toBe(pages + probe + 800);

  const rerun = await compare(pair, file);
  expect(tally(rerun.auto.results)).toEqual({ skipped: 1_000 });
  expect(rerun.auto.changes).toBe(0);
  expect(rerun.auto.requests).toBe(pages + probe);
  // The final states are the same, student by student.
  const [rowsState, autoState] = await Promise.all([allStudents(pair.rows), allStudents(pair.auto)]);
  expect(holdings(autoState)).toEqual(holdings(rowsState));
  await stop(pair);
}

