/**
 * The read plan end to end (issue 28) on servers that do not page by per_page=100 (`--per-page-ignored 15`, as
 * `->paginate(15)`; `--per-page-max 50`, as `min($request->per_page, 50)`), revoke and import files, CPFs typed
 * the other way, a run killed halfway and two runs at once. What they share: bulk-strategy-kit.ts.
 */
import { describe, expect, it } from 'vitest';
import { run } from './harness.js';
import {
  allStudents, holds, ndjson, requestCounts, resetCounts, spawnMembers, tally, waitFor, writeCsv, type BulkResult, type Student,
} from './bulk-helpers.js';
import { PAGE_SIZES, compare, dir, grantFile, holdings, snapshotCase, stop, twins } from './bulk-strategy-kit.js';

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
