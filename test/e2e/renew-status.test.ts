/**
 * A renewal never resets a status silently, and its dates are checked against
 * the accession it keeps (issue 30), end to end against the default sandbox
 * and its Laravel flavour: `students grant --renew` and bulk renewals leave a
 * subscription whose status a grant would reset (canceled, inactive,
 * refunded…) as it is unless --include-status-changes; a renewal's dry run
 * takes an expiration before today when it is after the accession kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, run, tempDir } from './harness.js';
import { DESK_FLAVOR_NAMES, deskSandboxes } from './desk-flavors.js';

interface Sub { product_id: string; active: number; status: string; accession_date: string; expiration_date: string | null }
interface Student { id: string; email: string; subscriptions: Sub[] }
interface Row { line: number; result: string; message: string }

const sandboxes = deskSandboxes(['--students', '80', '--seed', '29']);
let students: Student[];

beforeAll(async () => {
  students = await allPages<Student>(sandboxes.default, '/api/v1/students?with=subscriptions');
});

/** What a renewal would change, the same in every flavour (ids and timestamps are the flavour's). */
const state = (sub: Sub | undefined) => sub && { active: sub.active, status: sub.status, accession_date: sub.accession_date, expiration_date: sub.expiration_date };

/** Each student's first subscription that matches, one per student (tests never share one). */
const pick = (match: (sub: Sub) => boolean, skip = 0) => students.flatMap((student) => {
  const sub = student.subscriptions.find(match);
  return sub ? [{ student, sub }] : [];
}).slice(skip);

describe.each(DESK_FLAVOR_NAMES)('against the %s sandbox', (flavor) => {
  const configDir = tempDir('members-renew-status-');
  const members = (args: string[]) => run(args, { env: { ...sandboxes[flavor].env, MEMBERS_CONFIG_DIR: configDir, TZ: 'UTC' } });
  const held = async (student: Student, productId: string) =>
    (JSON.parse((await members(['students', 'products', student.id, '-o', 'json'])).stdout) as Sub[]).find((s) => s.product_id === productId);
  /** Without access, in a status a grant resets. */
  const lapsed = () => pick((s) => s.active === 0 && s.status !== 'active' && s.accession_date < '2025-01-01');
  /** With access, status active: a renewal to another expiration changes no status. */
  const plain = () => pick((s) => s.active === 1 && s.status === 'active', 10);

  it('grant --renew over a canceled or inactive subscription: exit 5, nothing sent, until --include-status-changes', async () => {
    const { student, sub } = lapsed()[0]!;
    // Without --renew, the refusal names both flags at once: --renew alone would only be refused again.
    const bare = await members(['students', 'grant', student.email, sub.product_id, '--expiration', '2031-03-31']);
    expect(bare.code).toBe(5);
    expect(bare.stderr).toContain(`renewing it would change it too: status ${sub.status} becomes active (the server's default for a grant); nothing sent`);
    expect(bare.stderr).toMatch(/ all the same, pass --renew --include-status-changes\n/);
    const refused = await members(['students', 'grant', student.email, sub.product_id, '--renew', '--expiration', '2031-03-31']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`renewing it would change it too: status ${sub.status} becomes active (the server's default for a grant); nothing sent`);
    expect(refused.stderr).toContain('pass --include-status-changes');
    expect(state(await held(student, sub.product_id))).toEqual(state(sub));
    const renewed = await members(['students', 'grant', student.email, sub.product_id, '--renew', '--include-status-changes', '--expiration', '2031-03-31']);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(await held(student, sub.product_id)).toMatchObject({ active: 1, status: 'active', accession_date: sub.accession_date, expiration_date: '2031-03-31' });
  });

  it('a bulk renewal: the row whose status would be reset is skipped and says why; the other is renewed', async () => {
    const { student: a, sub: lost } = lapsed()[1]!;
    const { student: b, sub: kept } = plain()[0]!;
    const file = join(configDir, `renew-${flavor}.csv`);
    writeFileSync(file, `student,product_id,expiration_date,renew\n${a.email},${lost.product_id},2031-04-30,yes\n${b.email},${kept.product_id},2031-04-30,yes\n`);
    const { code, stdout, stderr } = await members(['students', 'grant', '--file', file, '--yes', '-o', 'json']);
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as Row[];
    expect(rows.map((row) => row.result)).toEqual(['skipped', 'renewed']);
    expect(rows[0]!.message).toContain(`status ${lost.status} becomes active (the server's default for a grant); nothing sent`);
    expect(state(await held(a, lost.product_id))).toEqual(state(lost));
    expect(await held(b, kept.product_id)).toMatchObject({ status: 'active', accession_date: kept.accession_date, expiration_date: '2031-04-30' });
    const again = await members(['students', 'grant', '--file', file, '--include-status-changes', '--yes', '-o', 'json']);
    expect((JSON.parse(again.stdout) as Row[]).map((row) => row.result)).toEqual(['renewed', 'skipped']);
    expect(await held(a, lost.product_id)).toMatchObject({ active: 1, status: 'active', accession_date: lost.accession_date });
  });

  it('the dry run of a renewal checks the new expiration against the accession it keeps, not against today', async () => {
    const [first, second] = plain().slice(1).filter(({ sub }) => sub.accession_date < '2025-06-01');
    const { student: a, sub: early } = first!;
    const { student: b, sub: other } = second!;
    // Before today, not before the accession kept (the day itself): a renewal the README allows.
    const fine = early.accession_date;
    const file = join(configDir, `dates-${flavor}.csv`);
    writeFileSync(file, `student,product_id,expiration_date,renew\n${a.email},${early.product_id},${fine},yes\n${b.email},${other.product_id},2000-01-01,yes\n`);
    const { code, stdout } = await members(['students', 'grant', '--file', file, '--dry-run', '-o', 'json']);
    const rows = JSON.parse(stdout) as Row[];
    expect(rows[0]).toMatchObject({ result: 'renewed', message: expect.stringContaining(`accession ${early.accession_date}, expiration ${fine}`) });
    expect(rows[1]).toMatchObject({ result: 'failed', message: expect.stringContaining(`expiration_date 2000-01-01 is before the subscription's accession date ${other.accession_date}, which a renewal keeps`) });
    expect(code).toBe(7);
  });
});
