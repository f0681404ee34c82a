/**
 * `members students revoke --file` and `members students import` end to end:
 * the sandbox's state after each run, a bad row sending nothing, and re-runs
 * coming back `skipped`.
 */
import { describe, expect, it } from 'vitest';
import {
  allStudents, holds, ndjson, stats, stateGet, tally, timeless, useBulkSandbox, writeCsv, type BulkResult, type Product, type Student,
} from './bulk-helpers.js';

const b = useBulkSandbox(['--students', '300', '--seed', '5', '--fail-rate', '0.1', '--latency', '1ms']);

describe('students revoke --file', () => {
  it('off a terminal without --yes: exit 2 and nothing sent', async () => {
    const product = b.catalog[0] as Product;
    const holder = b.students.find((student) => holds(student, product.id) > 0) as Student;
    const file = writeCsv(b.dir, 'revoke-one.csv', ['student,product_id', `${holder.email},${product.id}`]);
    const before = await stats(b.sandbox);
    const { code, stderr } = await b.members(['students', 'revoke', '--file', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: Revoke products from students on 1 row of ${file}: confirmation needed but stdin is not a terminal; pass --yes to proceed\n`);
    expect(await stats(b.sandbox)).toEqual(before);
  });

  it('revokes every row once; a re-run finds nothing left and skips them all', async () => {
    const product = b.catalog[1] as Product;
    const holders = b.students.filter((student) => holds(student, product.id) > 0).slice(0, 40);
    expect(holders.length).toBeGreaterThan(20);
    const file = writeCsv(b.dir, 'revoke.csv', ['student,product_id', ...holders.map((student, i) => `${i % 2 ? student.id : student.email},${product.id}`)]);
    const args = ['students', 'revoke', '--file', file, '--yes', '--concurrency', '8', '--retries', '8', '-o', 'ndjson', '--reason', 'e2e'];

    // The student list's pages as the sandbox holds it now (the import tests add students, in any order).
    const pages = Math.ceil((await stateGet<{ meta: { total: number } }>(b.sandbox, '/api/v1/students?per_page=1')).meta.total / 100);
    const first = await b.members(args);
    expect(first.code).toBe(0);
    expect(tally(ndjson<BulkResult>(first.stdout))).toEqual({ revoked: holders.length });
    expect(timeless(first.stderr)).toBe(`→ default (${new URL(b.sandbox.url).host})\n${holders.length} rows: ${holders.length} revoked, 0 skipped, 0 failed in X.Xs (read ${pages} pages instead of 60 lookups)\n`);
    const after = new Map((await allStudents(b.sandbox)).map((student) => [student.id, student]));
    expect(holders.filter((student) => holds(after.get(student.id) as Student, product.id) !== 0)).toEqual([]);

    const again = await b.members(args);
    expect(again.code).toBe(0);
    expect(tally(ndjson<BulkResult>(again.stdout))).toEqual({ skipped: holders.length });
  }, 30_000);
});

describe('students import', () => {
  const people = Array.from({ length: 25 }, (_, i) => ({
    first: `Import${i}`, last: i === 3 ? '"Souza, Jr."' : `Person${i}`, email: `import.${i}@example.org`,
  }));
  const header = 'first_name,last_name,email,reference_id';
  const line = (p: (typeof people)[number], i: number) => `${p.first},${p.last},${p.email},bulk-${i}`;

  it('a bad e-mail sends nothing and names the line', async () => {
    const lines = [header, ...people.map(line)];
    lines[8] = 'Bad,Address,not-an-email,bulk-x';
    const file = writeCsv(b.dir, 'import-bad.csv', lines);
    const before = await stats(b.sandbox);
    const { code, stdout, stderr } = await b.members(['students', 'import', file, '--yes']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe([
      'error: line 9: email "not-an-email" is not an e-mail address (expected e.g. maria@example.com)',
      `error: 1 invalid row in ${file}; nothing was sent. Fix it, or pass --skip-invalid to apply the other rows`,
      '',
    ].join('\n'));
    expect(await stats(b.sandbox)).toEqual(before);
  });

  it('creates each student once, from stdin; a re-import skips them all', async () => {
    const csv = `\uFEFF${[header, ...people.map(line)].join('\r\n')}\r\n`;
    const args = ['students', 'import', '-', '--yes', '--concurrency', '8', '--retries', '8', '-o', 'ndjson'];
    const first = await b.members(args, csv);
    expect(first.code).toBe(0);
    const results = ndjson<BulkResult>(first.stdout);
    expect(results.map((r) => [r.line, r.student, r.product_id, r.result])).toEqual(people.map((p, i) => [i + 2, p.email, '', 'created']));
    for (const [i, p] of people.entries()) {
      const found = await stateGet<{ data: { email: string; last_name: string; reference_id: string } }>(
        b.sandbox, `/api/v1/students/email/${encodeURIComponent(p.email)}`,
      );
      expect(found.data).toMatchObject({ email: p.email, last_name: i === 3 ? 'Souza, Jr.' : p.last, reference_id: `bulk-${i}` });
    }
    const all = await allStudents(b.sandbox);
    expect(all.filter((student) => student.email.startsWith('import.'))).toHaveLength(people.length);

    const again = await b.members(args, csv);
    expect(again.code).toBe(0);
    expect(tally(ndjson<BulkResult>(again.stdout))).toEqual({ skipped: people.length });
    expect(timeless(again.stderr).trimEnd().split('\n').at(-1)).toBe(`${people.length} rows: 0 created, ${people.length} skipped, 0 failed in X.Xs (read 4 pages instead of 25 lookups)`);
  }, 30_000);
});
