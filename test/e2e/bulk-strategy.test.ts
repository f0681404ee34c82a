/**
 * The read plan end to end (issue 28), counted by the sandbox itself. Each
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
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, tempDir, type SandboxProcess, run } from './harness.js';
import {
  allStudents, holds, holdsAsAsked, ndjson, products, requestCounts, resetCounts, spawnMembers, stateGet, tally, waitFor, writeCsv,
  type BulkResult, type Student,
} from './bulk-helpers.js';

const FLAVORS = [['default', []], ['laravel', ['--flavor', 'laravel']], ['simple', ['--paginator', 'simple']]] as const;
const PER_PAGE = 100;
/** Case 1 where the server pages otherwise: its flags, the pages of 2,000 students, and the probe of a server that counts none. */
const PAGE_SIZES = [
  ['ignored15', ['--per-page-ignored', '15'], 134, 0],
  ['ignored15-laravel', ['--per-page-ignored', '15', '--flavor', 'laravel'], 134, 0],
  ['max50', ['--per-page-max', '50'], 40, 0],
  ['max50-laravel-simple', ['--per-page-max', '50', '--flavor', 'laravel', '--paginator', 'simple'], 40, 1],
] as const;
const dir = tempDir('members-strategy-');

interface Twins {
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
async function twins(args: readonly string[], students: number, readStudents = true): Promise<Twins> {
  const started = await Promise.all([0, 1].map(() => startSandbox(['--students', String(students), '--seed', '28', ...args])));
  running.push(...started);
  const [rows, auto] = started as [SandboxProcess, SandboxProcess];
  return {
    rows, auto, students: readStudents ? await allStudents(rows) : [], productIds: (await products(rows)).map((product) => product.id),
    perPage: pageSizeOf(args),
  };
}

async function stop(pair: Twins): Promise<void> {
  for (const sandbox of [pair.rows, pair.auto]) {
    running.splice(running.indexOf(sandbox), 1);
    await sandbox.stop();
  }
}

interface Counted {
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
async function counted(sandbox: SandboxProcess, args: string[]): Promise<Counted> {
  await resetCounts(sandbox);
  const { code, stdout, stderr } = await run(args, { env: sandbox.env });
  const counts = await requestCounts(sandbox);
  const changes = Object.entries(counts.requests).filter(([route]) => /^(POST|DELETE) /.test(route)).reduce((sum, [, n]) => sum + n, 0);
  const destroys = Object.entries(counts.requests).filter(([route]) => route.startsWith('DELETE ')).reduce((sum, [, n]) => sum + n, 0);
  return { code, results: ndjson<BulkResult>(stdout), stderr, requests: counts.total, changes, destroys, status429: counts.statuses['429'] ?? 0 };
}

/** What a student holds, in the fields a grant decides on. */
const holdings = (students: Student[], ids?: ReadonlySet<string>) => students
  .filter((student) => !ids || ids.has(student.id))
  .map((student) => [student.id, (student.subscriptions ?? []).map((sub) => `${sub.product_id} ${sub.active} ${sub.expiration_date ?? ''}`).sort()]);

/**
 * Runs `file` with rows on one twin and auto on the other: the same results,
 * the auto run within its floor. Returns both runs.
 */
async function compare(pair: Twins, file: string, extra: string[] = [], command = ['students', 'grant', '--file', file]) {
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
function grantFile(name: string, pair: Twins, count: number, held: number): { file: string; productId: string; chosen: Student[] } {
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
async function snapshotCase(args: readonly string[], name: string, pages: number, probe: number): Promise<void> {
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

describe.each(FLAVORS)('--strategy auto against --strategy rows (%s)', (flavor, args) => {
  // A server that counts no pages is asked one more, just past the lookups, to bound the walk.
  const probe = flavor === 'simple' ? 1 : 0;
  it('case 1: 1,000 rows, 800 new, on 2,000 students: the snapshot; case 3: its re-run, the snapshot alone', async () => {
    await snapshotCase(args, flavor, 20, probe);
  }, 120_000);

  it('case 2: 10 rows on 100,000 students: the rows', async () => {
    const pair = await twins(args, 100_000, false);
    pair.students = Array.from({ length: 100_000 });
    const people = (await stateGet<{ data: Student[] }>(pair.rows, '/api/v1/students?per_page=10&page=7')).data;
    const productId = pair.productIds[1] as string;
    const file = writeCsv(dir, `case2-${flavor}.csv`, ['student,product_id', ...people.map((student) => `${student.email},${productId}`)]);
    const { auto, floor } = await compare(pair, file, ['--renew']);
    expect(auto.stderr).toMatch(/\(20 lookups instead of reading (at least 21|1,000) pages\)/);
    expect(auto.requests).toBeLessThanOrEqual(floor + 1 + probe);
    const state = async (sandbox: SandboxProcess) => Promise.all(people.map(async (student) =>
      (await stateGet<{ data: Student }>(sandbox, `/api/v1/students/${student.id}`)).data));
    expect(holdings(await state(pair.auto))).toEqual(holdings(await state(pair.rows)));
    await stop(pair);
  }, 120_000);

  it('case 4: 200 rows on 500 students under a 600/min throttle: no 429, no row lost', async () => {
    const pair = await twins([...args, '--rate-limit', '600/min'], 500);
    const { file, chosen } = grantFile(`case4-${flavor}.csv`, pair, 200, 40);
    const { auto } = await compare(pair, file);
    expect(auto.results.filter((r) => r.result === 'failed')).toEqual([]);
    expect(auto.status429).toBeLessThanOrEqual(auto.requests * 0.01);
    expect(auto.requests).toBe(5 + probe + 160);
    const ids = new Set(chosen.map((student) => student.id));
    const [rowsState, autoState] = await Promise.all([allStudents(pair.rows), allStudents(pair.auto)]);
    expect(holdings(autoState, ids)).toEqual(holdings(rowsState, ids));
    await stop(pair);
  }, 120_000);
});

describe.each(PAGE_SIZES)('case 1 on a server that pages otherwise than per_page=100 (%s)', (name, args, pages, probe) => {
  it(`reads the snapshot in the ${pages} pages the server really serves, then the 800 grants`, async () => {
    await snapshotCase(args, name, pages, probe);
  }, 120_000);
});

describe('revoke and import, and dry runs, read either way alike', () => {
  it('the same results, state and floor for a revoke file and an import file, and for their dry runs', async () => {
    const pair = await twins([], 600);
    const productId = pair.productIds[2] as string;
    const holders = pair.students.filter((student) => holds(student, productId) > 0).slice(0, 40);
    const others = pair.students.filter((student) => holds(student, productId) === 0).slice(0, 20);
    const revokes = writeCsv(dir, 'revoke.csv', ['student,product_id', ...[...holders, ...others].map((student, i) => `${i % 3 ? student.id : student.email},${productId}`)]);
    const dryRevoke = await compare(pair, revokes, ['--dry-run'], ['students', 'revoke', '--file', revokes]);
    expect(tally(dryRevoke.auto.results)).toEqual({ revoked: holders.length, skipped: others.length });
    expect(dryRevoke.auto.changes).toBe(0);
    const revoked = await compare(pair, revokes, ['--reason', 'e2e'], ['students', 'revoke', '--file', revokes]);
    expect(tally(revoked.auto.results)).toEqual({ revoked: holders.length, skipped: others.length });

    const people = [...pair.students.slice(0, 10).map((student) => student.email), ...Array.from({ length: 30 }, (_, i) => `new.${i}@example.org`)];
    const imports = writeCsv(dir, 'import.csv', ['first_name,last_name,email', ...people.map((email, i) => `Pessoa,${i},${email}`)]);
    const dryImport = await compare(pair, imports, ['--dry-run'], ['students', 'import', imports]);
    expect(tally(dryImport.auto.results)).toEqual({ created: 30, skipped: 10 });
    const imported = await compare(pair, imports, [], ['students', 'import', imports]);
    expect(tally(imported.auto.results)).toEqual({ created: 30, skipped: 10 });

    const [rowsState, autoState] = await Promise.all([allStudents(pair.rows), allStudents(pair.auto)]);
    const emails = (students: Student[]) => students.map((student) => student.email).sort();
    expect(emails(autoState)).toEqual(emails(rowsState));
    expect(holdings(autoState, new Set(holders.map((student) => student.id)))).toEqual(holdings(rowsState, new Set(holders.map((student) => student.id))));
    await stop(pair);
  }, 120_000);
});

describe('CPFs typed the other way than the server writes them', () => {
  it('cost one lookup each once the first page has told the spelling: auto sends fewer than rows', async () => {
    const pair = await twins([], 2_000);
    const productId = pair.productIds[0] as string;
    const people = pair.students.filter((student) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(student.document ?? '') && holds(student, productId) === 0).slice(0, 8);
    expect(people).toHaveLength(8);
    const file = writeCsv(dir, 'bare-cpf.csv', ['student,product_id', ...people.map((student) => `${(student.document as string).replace(/\D/g, '')},${productId}`)]);
    const { rows, auto } = await compare(pair, file);
    expect(tally(auto.results)).toEqual({ granted: 8 });
    // 16 lookups are fewer than 20 pages: the rows, after the first page, which shows CPFs punctuated.
    expect(auto.stderr).toContain('(16 lookups instead of reading 20 pages)');
    expect(auto.requests).toBe(1 + 16 + 8);
    // Without the first page the bare spelling is tried first, and misses until a lookup has learnt the server's
    // (8 rows in flight at once: most or all of them miss).
    expect(rows.requests).toBeGreaterThan(auto.requests);
    expect(rows.requests).toBeLessThanOrEqual(24 + 8);
    await stop(pair);
  }, 120_000);
});

describe('a snapshot-planned run killed halfway', () => {
  it('SIGKILL, then a re-run: every row applied once, none missing', async () => {
    const pair = await twins(['--latency', '5ms'], 2_000);
    const sandbox = pair.auto;
    const { file, productId, chosen } = grantFile('kill.csv', pair, 1_000, 200);
    const args = ['students', 'grant', '--file', file, '--yes', '-o', 'ndjson', '--concurrency', '4'];
    await resetCounts(sandbox);
    const posts = async () => (await requestCounts(sandbox)).requests['POST /api/v1/students/{id}/products'] ?? 0;

    const first = spawnMembers([...args, '-v'], sandbox.env);
    await waitFor(async () => (await posts()) >= 200);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(first.output().stderr).toContain('reads: snapshot, read 20 pages instead of 1,500 lookups');
    const appliedFirst = await posts();
    expect(appliedFirst).toBeLessThan(800);

    const again = await run(args, { env: sandbox.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('(read 20 pages instead of 1,500 lookups)');
    // The re-run's fresh snapshot sees what the killed run applied: those rows are skipped, the rest granted.
    expect(tally(ndjson<BulkResult>(again.stdout))).toEqual({ granted: 800 - appliedFirst, skipped: 200 + appliedFirst });
    const counts = await requestCounts(sandbox);
    expect(counts.requests['POST /api/v1/students/{id}/products']).toBe(800);
    expect(counts.statuses['422'] ?? 0).toBe(0);
    const after = new Map((await allStudents(sandbox)).map((student) => [student.id, student]));
    expect(chosen.filter((student) => holds(after.get(student.id) as Student, productId) !== 1)).toEqual([]);
    await stop(pair);
  }, 120_000);
});

describe('two snapshot-planned runs of one file at once', () => {
  // Since the leases (issue 36) the second waits for the first (--wait) and then plans from what the first did.
  it('each row is granted once: the second run waits for the first run\'s lease, then skips what it granted', async () => {
    const pair = await twins(['--latency', '20ms'], 500);
    const sandbox = pair.auto;
    const { file, productId, chosen } = grantFile('race.csv', pair, 200, 0);
    const args = ['students', 'grant', '--file', file, '--yes', '-o', 'ndjson', '--concurrency', '8', '--strategy', 'snapshot', '--wait', '2m'];
    const [a, b] = await Promise.all([run(args, { env: sandbox.env }), run(args, { env: sandbox.env })]);
    expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    const [first, second] = [ndjson<BulkResult>(a.stdout), ndjson<BulkResult>(b.stdout)];
    // Row by row, one run granted it and the other found it there: none failed, none granted twice.
    expect(first.map((row, i) => [row.result, second[i]?.result].sort().join())).toEqual(chosen.map(() => 'granted,skipped'));
    const skipped = [...first, ...second].filter((row) => row.result === 'skipped');
    expect(skipped.filter((row) => !/already has access to .*(nothing sent|\(granted meanwhile by someone else\); nothing changed)$/.test(row.message))).toEqual([]);
    // The second read its snapshot after the first was done: it sent nothing for these rows.
    expect(skipped.filter((row) => row.message.includes('nothing sent')).length).toBe(chosen.length);
    const after = new Map((await allStudents(sandbox)).map((student) => [student.id, student]));
    expect(chosen.filter((student) => holds(after.get(student.id) as Student, productId) !== 1)).toEqual([]);
    await stop(pair);
  }, 120_000);
});
