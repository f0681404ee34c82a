/**
 * The audit trail end to end: the built binary against `members sandbox`.
 * Each test has its own config directory, hence its own audit log.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

interface Sub { product_id: string; accession_date: string | null; expiration_date: string | null; status: string | null; active: number | null }
interface Student { id: string; email: string; document: string | null; subscriptions?: Sub[] }
interface Product { id: string; title: string }
interface HistoryRow { id: string; command: string; action: string; student: string; student_id: string; product_id: string; result: string; reason: string | null; undoes?: string }

let students: Student[];
let products: Product[];
let nextFree = 0;
let configDir: string;

const members = (args: string[]) => run(args, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir } });
const logText = () => readFileSync(join(configDir, 'audit.jsonl'), 'utf8');
const history = async (...args: string[]) => {
  const { code, stdout, stderr } = await members(['history', '-o', 'json', ...args]);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as HistoryRow[];
};
const held = async (student: Student, product: Product) => {
  const { status, body } = await sandboxGet<{ data: Sub }>(sandbox, `/api/v1/students/${student.id}/products/${product.id}`);
  return status === 200 ? body.data : undefined;
};

/** A student no other test touches, with a subscription to restore (`withSub`) or not. */
function freeStudent(withSub: boolean): { student: Student; product: Product } {
  for (;;) {
    const student = students[nextFree++];
    if (!student) throw new Error('the sandbox ran out of students for the tests');
    const subs = student.subscriptions ?? [];
    const product = withSub
      ? products.find((p) => subs.some((s) => s.product_id === p.id && s.accession_date && s.expiration_date))
      : products.find((p) => !subs.some((s) => s.product_id === p.id));
    if (product) return { student, product };
  }
}

const sandbox = useSandboxProcess(['--students', '60', '--seed', '11']);

beforeAll(async () => {
  students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
  products = (await sandboxGet<{ data: Product[] }>(sandbox, '/api/v1/products?per_page=100')).body.data;
});

afterEach(() => {
  rmSync(configDir, { recursive: true, force: true });
});

// A fresh log per test.
const freshLog = () => (configDir = tempDir('members-audit-e2e-'));

describe('audit trail', () => {
  it('a grant with --reason shows in history with its reason; the log is 0600', async () => {
    freshLog();
    const { student, product } = freeStudent(false);
    const grant = await members(['students', 'grant', student.email, product.id, '--reason', 'ticket 4411: paid by bank transfer']);
    expect(grant.code, grant.stderr).toBe(0);
    expect(grant.stderr.split('\n')[0]).toBe(`→ default (${new URL(sandbox.url).host})`);

    const [row, ...rest] = await history('--student', student.email);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      command: 'students grant', action: 'grant', student: student.email, student_id: student.id, product_id: product.id,
      result: 'granted', reason: 'ticket 4411: paid by bank transfer',
    });
    // The same change by the student's id, learnt from the log.
    expect((await history('--student', student.id)).map((r) => r.id)).toEqual([row?.id]);

    const table = await members(['history', '--student', student.id]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]?.split(/ {2,}/)).toEqual(['TIME', 'USER', 'PROFILE', 'COMMAND', 'STUDENT', 'PRODUCT', 'PRODUCT ID', 'RESULT', 'REASON', 'ID']);
    expect(lines[1]).toContain(`  students grant  ${student.email}  ${product.title}  ${product.id}  granted  ticket 4411: paid by bank transfer  ${row?.id}`);
    expect(statSync(join(configDir, 'audit.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('revoke, then undo: the subscription is back with the same dates', async () => {
    freshLog();
    const { student, product } = freeStudent(true);
    const before = await held(student, product);
    expect(before).toBeDefined();
    const revoke = await members(['students', 'revoke', student.id, product.id, '--yes', '--reason', 'refund #771']);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(await held(student, product)).toBeUndefined();

    const [record] = await history('--limit', '1');
    expect(record).toMatchObject({ action: 'revoke', result: 'revoked', reason: 'refund #771' });
    const undo = await members(['undo', record?.id as string, '--yes', '--reason', 'refund cancelled']);
    expect(undo.code, undo.stderr).toBe(0);
    const after = await held(student, product);
    expect(after?.accession_date?.slice(0, 10)).toBe(before?.accession_date?.slice(0, 10));
    expect(after?.expiration_date?.slice(0, 10)).toBe(before?.expiration_date?.slice(0, 10));

    const [last] = await history('--limit', '1');
    expect(last).toMatchObject({ action: 'undo', undoes: record?.id, result: 'granted', reason: 'refund cancelled' });
    // Twice is refused from the log alone.
    const again = await members(['undo', record?.id as string, '--yes']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`error: change ${record?.id} was already undone by ${last?.id}`);
  });

  it('undo is refused (exit 5, nothing sent) when the state changed in between', async () => {
    freshLog();
    const { student, product } = freeStudent(true);
    expect((await members(['students', 'revoke', student.id, product.id, '--yes'])).code).toBe(0);
    const [revoked] = await history('--limit', '1');
    // Granted again by hand, with other dates.
    expect((await members(['students', 'grant', student.id, product.id, '--accession', '2030-01-01'])).code).toBe(0);
    const undo = await members(['undo', revoked?.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(5);
    expect(undo.stderr).toBe(`error: cannot undo ${revoked?.id}: ${student.id} has product "${product.title}" (${product.id}) again since it was revoked `
      + '(accession 2030-01-01, expiration none); nothing was sent\n');
    expect((await held(student, product))?.accession_date?.slice(0, 10)).toBe('2030-01-01');
    expect((await history()).map((r) => r.action)).toEqual(['grant', 'revoke']);
  });

  it('the log holds neither a token nor the magic link printed on stdout', async () => {
    freshLog();
    const { student } = freeStudent(false);
    const link = await members(['magic-link', student.email, '--expire-in', '10m', '--reason', 'cannot log in']);
    expect(link.code, link.stderr).toBe(0);
    const url = link.stdout.trim();
    expect(url).toMatch(/^https?:\/\//);
    const text = logText();
    const [record] = await history();
    expect(record).toMatchObject({ action: 'magic-link', student: student.email, reason: 'cannot log in', expire_in: 600 });
    for (const secret of [url, new URL(url).pathname, new URL(url).search, sandbox.apiToken, sandbox.developerToken, sandbox.platformToken].filter((s) => s.length > 1)) {
      expect(text).not.toContain(secret);
    }
  });

  it('a bulk grant of 3 rows writes 3 + 1 records; a row can be undone on its own, then the run as a whole', async () => {
    freshLog();
    const rows = [freeStudent(false), freeStudent(false), freeStudent(false)];
    const file = join(configDir, 'grant.csv');
    writeFileSync(file, ['student,product_id', ...rows.map(({ student, product }) => `${student.email},${product.id}`)].join('\n'));
    const bulk = await members(['students', 'grant', '--file', file, '--reason', 'spring cohort', '-o', 'json']);
    expect(bulk.code, bulk.stderr).toBe(0);

    const records = logText().trimEnd().split('\n').map((line) => JSON.parse(line) as HistoryRow & { run_id?: string; line?: number; counts?: object });
    expect(records).toHaveLength(4);
    const run = records[3];
    expect(run).toMatchObject({ command: 'students grant --file', action: 'bulk', result: 'completed', reason: 'spring cohort', source: file, counts: { granted: 3 } });
    expect(records.slice(0, 3).map((r) => [r.action, r.run_id, r.line, r.student, r.product_id]).sort((a, b) => Number(a[2]) - Number(b[2])))
      .toEqual(rows.map(({ student, product }, i) => ['grant', run?.id, i + 2, student.email, product.id]));

    const { student, product } = rows[1] as { student: Student; product: Product };
    const row = records.find((r) => r.student === student.email) as HistoryRow;
    const undo = await members(['undo', row.id, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await held(student, product)).toBeUndefined();
    expect(await held(rows[0]?.student as Student, rows[0]?.product as Product)).toBeDefined();
    // The run as a whole: the row undone already is skipped, the two others are revoked.
    const bulkUndo = await members(['undo', run?.id as string, '--yes', '-o', 'json']);
    expect(bulkUndo.code, bulkUndo.stderr).toBe(0);
    expect((JSON.parse(bulkUndo.stdout) as Array<{ id: string; result: string }>).map((r) => [r.id, r.result]).sort())
      .toEqual(records.slice(0, 3).map((r) => [r.id, r.id === row.id ? 'skipped' : 'undone']).sort());
    for (const { student: each, product: what } of rows) expect(await held(each, what)).toBeUndefined();
    const again = await members(['undo', run?.id as string, '--yes']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`nothing of run ${run?.id as string} (students grant --file, 3 changes) can be undone: was already undone by`);
  });
});
