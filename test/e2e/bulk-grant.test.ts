/**
 * `members students grant --file` end to end against a flaky sandbox: 20% of
 * requests answered 500/503 (half of the failed POSTs AFTER applying the
 * change) and a rate limit. Each row must be applied exactly once: checked in
 * the sandbox's own state, not only in the CLI's output.
 */
import { describe, expect, it } from 'vitest';
import {
  allStudents, holds, holdsAsAsked, ndjson, spawnMembers, stats, tally, timeless, useBulkSandbox, waitFor, writeCsv,
  type BulkResult, type Product, type Student,
} from './bulk-helpers.js';

const b = useBulkSandbox(['--students', '1200', '--seed', '11', '--fail-rate', '0.2', '--rate-limit', '200', '--latency', '1ms']);
/** Keys of the rows: mostly ids, every fifth student by e-mail (looked up once each). */
const keyOf = (student: Student, index: number) => (index % 5 === 0 ? student.email : student.id);
/** The id of a row's student, also when the row named it by e-mail. */
const idOf = (row: BulkResult) => b.students.find((student) => student.email === row.student)?.id ?? row.student;

describe('students grant --file against a flaky sandbox', () => {
  // Each strategy grants its own product: the rows one looks every row up, the snapshot one reads the list once.
  it.each([['rows', 0], ['snapshot', 4]] as const)('--strategy %s applies 1,000 rows exactly once, through 500/503 and 429, in input order', async (strategy, productIndex) => {
    const product = b.catalog[productIndex] as Product;
    const chosen = b.students.slice(0, 1000);
    const alreadyHeld = chosen.filter((student) => holds(student, product.id) > 0).length;
    // Held as asked (access on, this expiration): skipped; held otherwise: renewed (--renew).
    const asAsked = chosen.filter((student) => holdsAsAsked(student, product.id, '2030-12-31')).length;
    const renewed = alreadyHeld - asAsked;
    const file = writeCsv(b.dir, 'grant-1000.csv', [
      'student,product_id,expiration_date',
      ...chosen.map((student, index) => `${keyOf(student, index)},${product.id},2030-12-31`),
    ]);

    const { code, stdout, stderr } = await b.members([
      'students', 'grant', '--file', file, '--renew', '--include-status-changes', '--yes', '--concurrency', '8', '--retries', '8', '-o', 'ndjson', '--verbose', '--strategy', strategy,
    ]);
    const results = ndjson<BulkResult>(stdout);
    const failed = results.filter((r) => r.result === 'failed');
    // On failure, the --verbose request log of the rows concerned says what the server answered.
    const logOf = (row: BulkResult) => stderr.split('\n').filter((line) => line.includes(idOf(row)) || line.includes(row.student));
    expect(failed, failed.flatMap(logOf).join('\n')).toEqual([]);
    expect(code).toBe(0);
    expect(results.map((r) => r.line)).toEqual(chosen.map((_, index) => index + 2));
    expect(results.map((r) => r.student)).toEqual(chosen.map(keyOf));
    expect(renewed).toBeGreaterThan(0);
    expect(tally(results)).toEqual({ granted: 1000 - alreadyHeld, renewed, ...(asAsked > 0 ? { skipped: asAsked } : {}) });
    const reads = strategy === 'rows' ? '--strategy rows: 1,200 lookups' : '--strategy snapshot: read 12 pages';
    expect(timeless(stderr.trimEnd().split('\n').at(-1) ?? '')).toBe(`1000 rows: ${1000 - alreadyHeld} granted, ${renewed} renewed, ${asAsked} skipped, 0 failed in X.Xs (${reads})`);

    // The faults really happened, and no POST ever met "already has this product" (a blind resend).
    expect(stderr).toMatch(/^POST \S+\/products (500|503) /m);
    expect(stderr).toMatch(/ retries=[1-9]/);
    expect(stderr).not.toMatch(/^POST \S+ 422 /m);
    if (strategy === 'rows') {
      // Students given by e-mail were looked up once each.
      expect(stderr.match(/^GET \S+\/students\/email\/\S+ 200 /gm)).toHaveLength(200);
    } else {
      // Nobody was looked up, and a state was checked only before a renewal's revoke (compare before destroy)
      // or after a POST whose outcome was unknown.
      expect(stderr).not.toMatch(/^GET \S+\/students\/email\//m);
      const studentsOf = (pattern: RegExp) => new Set([...stderr.matchAll(pattern)].map((match) => match[1]));
      const checked = studentsOf(/^GET \S+\/students\/([^/\s]+)\/products\/\S+ /gm);
      // One line per exchange: a POST that was retried (or failed) had an unknown outcome on the way.
      const unknown = studentsOf(/^POST \S+\/students\/([^/\s]+)\/products (?:5\d\d \S+ retries=\d+|\d+ \S+ retries=[1-9])/gm);
      const renewals = new Set(results.filter((r) => r.result === 'renewed').map(idOf));
      expect([...checked].filter((id) => !unknown.has(id) && !renewals.has(id as string))).toEqual([]);
      expect([...renewals].filter((id) => !checked.has(id))).toEqual([]);
    }

    // The sandbox's own state: each of the 1,000 holds the product exactly once.
    const after = new Map((await allStudents(b.sandbox)).map((student) => [student.id, student]));
    const counts = chosen.map((student) => holds(after.get(student.id) as Student, product.id));
    expect(counts.filter((n) => n !== 1)).toEqual([]);
  }, 90_000);

  it('a file with one bad row sends nothing and names the line', async () => {
    const product = b.catalog[1] as Product;
    const file = writeCsv(b.dir, 'grant-bad.csv', [
      'student,product_id,accession_date',
      ...b.students.slice(0, 5).map((student) => `${student.id},${product.id},2024-01-01`),
      `${b.students[5]?.id},${product.id},2024-02-30`,
    ]);
    const before = await stats(b.sandbox);
    const { code, stdout, stderr } = await b.members(['students', 'grant', '--file', file, '--yes']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe([
      'error: line 7: invalid accession_date "2024-02-30": expected a real calendar date as YYYY-MM-DD',
      `error: 1 invalid row in ${file}; nothing was sent. Fix it, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(await stats(b.sandbox)).toEqual(before);
  });

  it('interrupted with SIGINT: exit 130 with the rows done so far and the summary; a re-run applies the rest once', async () => {
    const product = b.catalog[2] as Product;
    // Rows held without access would fail without --renew: this test is about interruption.
    const chosen = b.students.slice(200, 500).filter((student) => holds(student, product.id) === 0 || holdsAsAsked(student, product.id));
    const missing = chosen.filter((student) => holds(student, product.id) === 0).length;
    const file = writeCsv(b.dir, 'grant-interrupted.csv', ['student,product_id', ...chosen.map((student) => `${student.id},${product.id}`)]);
    const args = ['students', 'grant', '--file', file, '--yes', '--concurrency', '8', '--retries', '8', '-o', 'ndjson'];

    const posts = async () => (await stats(b.sandbox))['POST /api/v1/students/{id}/products'] ?? 0;
    const postsBefore = await posts();
    const first = spawnMembers(args, b.sandbox.env);
    await waitFor(async () => (await posts()) >= postsBefore + 20);
    first.child.kill('SIGINT');
    const { code } = await first.exited;
    const { stdout, stderr } = first.output();
    expect(code).toBe(130);
    const done = ndjson<BulkResult>(stdout);
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(chosen.length);
    // Only rows processed, in input order from the first: no gap, no row never started.
    expect(done.map((r) => r.line)).toEqual(done.map((_, index) => index + 2));
    expect(done.filter((r) => r.result === 'failed')).toEqual([]);
    expect(stderr).toContain('Stopping: finishing the rows in flight');
    const lines = timeless(stderr).trimEnd().split('\n');
    const granted = done.filter((r) => r.result === 'granted').length;
    const interrupted = `interrupted after ${done.length} of ${chosen.length} rows; run the same file again to apply the rest (rows already applied come back skipped)`;
    expect(lines.slice(-3)).toEqual([
      `${done.length} of ${chosen.length} rows: ${granted} granted, ${done.length - granted} skipped, 0 failed in X.Xs (read 12 pages instead of ${chosen.length} lookups; interrupted)`,
      `error: ${interrupted}`,
      JSON.stringify({ error: { exit_code: 130, status: null, message: interrupted } }),
    ]);

    const again = await b.members(args);
    expect(again.code).toBe(0);
    const rerun = ndjson<BulkResult>(again.stdout);
    expect(rerun).toHaveLength(chosen.length);
    // What the first run applied comes back skipped; together, every missing product was granted once.
    for (const row of done) expect(rerun[row.line - 2]?.result).toBe('skipped');
    expect(granted + (tally(rerun).granted ?? 0)).toBe(missing);
    const after = new Map((await allStudents(b.sandbox)).map((student) => [student.id, student]));
    expect(chosen.map((student) => holds(after.get(student.id) as Student, product.id)).filter((n) => n !== 1)).toEqual([]);
  }, 60_000);
});
