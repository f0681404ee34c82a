/**
 * Issue 14's blocker, end to end: a grant tells the truth about access. A
 * subscription that exists without access is never "already has", is renewed
 * only when asked (--renew, a renew column), and undo puts access back as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, sandboxGet, useSandboxProcess, tempDir } from './harness.js';

interface Sub { product_id: string; accession_date: string | null; expiration_date: string | null; status: string | null; active: number | null }
interface Student { id: string; email: string; subscriptions?: Sub[] }

let lapsed: Array<{ student: Student; sub: Sub }>;
let configDir: string;

const members = (args: string[]) => run(args, { env: { ...sandbox.env, MEMBERS_CONFIG_DIR: configDir } });
const held = async (studentId: string, productId: string) => {
  const { status, body } = await sandboxGet<{ data: Sub }>(sandbox, `/api/v1/students/${studentId}/products/${productId}`);
  return status === 200 ? body.data : undefined;
};

const sandbox = useSandboxProcess(['--students', '80', '--seed', '5']);

beforeAll(async () => {
  configDir = tempDir('members-renew-');
  const students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
  // One subscription without access per student, so that tests never share one.
  lapsed = students.flatMap((student) => {
    const sub = (student.subscriptions ?? []).find((s) => s.active === 0 && s.accession_date);
    return sub ? [{ student, sub }] : [];
  });
  expect(lapsed.length).toBeGreaterThanOrEqual(6);
});

describe('grant over a subscription without access', () => {
  it('without --renew: exit 5, says why and what to do, nothing sent', async () => {
    const { student, sub } = lapsed[0]!;
    const { code, stdout, stderr } = await members(['students', 'grant', student.email, sub.product_id]);
    expect(code).toBe(5);
    expect(stdout).toBe('');
    expect(stderr).toContain(`but its access is off (status ${sub.status}`);
    expect(stderr).toContain('pass --renew');
    expect(await held(student.id, sub.product_id)).toEqual(sub);
  });

  it('--renew restores access keeping the accession date; undo returns it to no access', async () => {
    const { student, sub } = lapsed[1]!;
    // Its status (inactive, canceled…) becomes the grant's: said with --include-status-changes (issue 30: never silently).
    const renewed = await members(['students', 'grant', student.email, sub.product_id, '--renew', '--include-status-changes', '--expiration', '2031-07-05', '-o', 'json']);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stderr).toContain('✓ Renewed');
    const after = await held(student.id, sub.product_id);
    expect(after).toMatchObject({ active: 1, accession_date: sub.accession_date, expiration_date: '2031-07-05' });
    expect(JSON.parse(renewed.stdout)).toMatchObject({ active: 1, expiration_date: '2031-07-05' });

    const history = await members(['history', '--student', student.id, '-o', 'json']);
    const [record] = JSON.parse(history.stdout) as Array<{ id: string; action: string; result: string }>;
    expect(record).toMatchObject({ action: 'renew', result: 'renewed' });

    const undo = await members(['undo', record!.id, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(': the subscription is removed: the one it replaced (without access; status');
    // No subscription at all: the API cannot recreate one without access.
    expect(await held(student.id, sub.product_id)).toBeUndefined();
  });

  it('--renew moves the expiration of a subscription with access; undo puts back its former dates', async () => {
    const taken = new Set(lapsed.slice(0, 4).map(({ student }) => student.id));
    const students = (await sandboxGet<{ data: Student[] }>(sandbox, '/api/v1/students?per_page=100&with=subscriptions')).body.data;
    const [student, sub] = students.flatMap((s) => (taken.has(s.id) ? [] : (s.subscriptions ?? []).filter((x) => x.active === 1 && x.status === 'active' && x.accession_date).map((x) => [s, x] as const)))[0]!;
    const refused = await members(['students', 'grant', student.email, sub.product_id, '--expiration', '2032-02-29']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`but ${sub.expiration_date ? `it expires ${sub.expiration_date}` : 'it has no expiration'}, not 2032-02-29; nothing sent`);
    const renewed = await members(['students', 'grant', student.email, sub.product_id, '--expiration', '2032-02-29', '--renew', '-q']);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(await held(student.id, sub.product_id)).toMatchObject({ active: 1, accession_date: sub.accession_date, expiration_date: '2032-02-29' });

    const [record] = JSON.parse((await members(['history', '--student', student.email, '-o', 'json'])).stdout) as Array<{ id: string }>;
    const undo = await members(['undo', record!.id, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`is back to its former dates (accession ${sub.accession_date}, expiration ${sub.expiration_date ?? 'none'})`);
    expect(await held(student.id, sub.product_id)).toMatchObject({ active: 1, accession_date: sub.accession_date, expiration_date: sub.expiration_date });
  });

  it('a bulk renew column renews that row (result renewed) and leaves the others as they are', async () => {
    const [a, b] = [lapsed[2]!, lapsed[3] ?? lapsed[2]!];
    const file = join(configDir, 'renew.csv');
    writeFileSync(file, `student,product_id,renew\n${a.student.id},${a.sub.product_id},yes\n${b.student.email},${b.sub.product_id},no\n`);
    const { code, stdout, stderr } = await members(['students', 'grant', '--file', file, '--include-status-changes', '--yes', '-o', 'json']);
    const rows = JSON.parse(stdout) as Array<{ line: number; result: string }>;
    expect(rows.map((row) => row.result)).toEqual(a === b ? ['renewed', 'skipped'] : ['renewed', 'failed']);
    expect(code).toBe(a === b ? 0 : 7);
    expect(stderr).toMatch(/1 renewed/);
    expect((await held(a.student.id, a.sub.product_id))?.active).toBe(1);
  });

  it('--renew renews the rows whose renew cell is blank, never one that says no', async () => {
    const [blank, no] = [lapsed[4]!, lapsed[5]!];
    const file = join(configDir, 'renew-flag.csv');
    writeFileSync(file, `student,product_id,renew\n${blank.student.id},${blank.sub.product_id},\n${no.student.id},${no.sub.product_id},não\n`);
    const { code, stdout } = await members(['students', 'grant', '--file', file, '--renew', '--include-status-changes', '--yes', '-o', 'json']);
    const rows = JSON.parse(stdout) as Array<{ result: string; message: string }>;
    expect(rows.map((row) => row.result)).toEqual(['renewed', 'failed']);
    expect(rows[1]!.message).toContain('its renew column says no: put yes there');
    expect(code).toBe(7);
    expect((await held(blank.student.id, blank.sub.product_id))?.active).toBe(1);
    expect(await held(no.student.id, no.sub.product_id)).toEqual(no.sub);
  });
});
