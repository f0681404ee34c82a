/**
 * grantToStudent and revokeFromStudent against exact MockAgent interceptors:
 * what is sent (and what is not), the result record, dry runs, renewals, and
 * the races with another run. Unused interceptors fail the test.
 */
import { describe, expect, it } from 'vitest';
import { parseStudentKey } from '../../../src/api/endpoints/student-key.js';
import type { Student, Subscription } from '../../../src/api/endpoints/schemas.js';
import { NotFoundError, RejectedError } from '../../../src/lib/errors.js';
import { AccessNotHeldError, StatusResetError, grantDates, grantToStudent, revokeFromStudent } from '../../../src/domain/changes.js';
import type { ResolvedStudent } from '../../../src/domain/resolve.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const PRODUCT_PATH = '/api/v1/students/s1/products/p1';

const MARIA: Student = { id: 's1', full_name: 'Maria Souza', email: 'maria@example.com' };
const byEmail: ResolvedStudent = { input: 'maria@example.com', key: parseStudentKey('maria@example.com'), id: 's1', record: MARIA };
const byId: ResolvedStudent = { input: 's1', key: parseStudentKey('s1'), id: 's1' };
const sub = (fields: Partial<Subscription> = {}): Subscription => ({
  id: 9, active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01', expiration_date: null,
  product: { id: 'p1', title: 'Yoga' }, ...fields,
});
const heldAs = (subscription: Subscription | undefined) => {
  const interceptor = pool().intercept({ path: PRODUCT_PATH, method: 'GET' });
  if (subscription) interceptor.reply(200, { data: subscription });
  else interceptor.reply(404, { message: 'Not found.' });
};
const LABEL = 'Maria Souza <maria@example.com>';

describe('grantToStudent', () => {
  it('sends nothing when access is already held, and says so with the title', async () => {
    heldAs(sub());
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { reason: 'ticket' });
    expect(outcome).toEqual({
      student: 'maria@example.com', student_id: 's1', product_id: 'p1', reason: 'ticket', result: 'skipped',
      message: `${LABEL} already has access to product "Yoga" (p1); nothing sent`, subscription: sub(),
    });
  });

  it('posts the dates once, after beforeChange, and names the product by its title', async () => {
    heldAs(undefined);
    const steps: string[] = [];
    pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST',
      body: JSON.stringify({ product_id: 'p1', accession_date: '2025-01-01', expiration_date: '2025-12-31' }),
    }).reply(() => {
      steps.push('POST');
      return { statusCode: 201, data: { data: sub({ expiration_date: '2025-12-31' }) }, responseOptions: { headers: { 'x-request-id': 'req-1' } } };
    });
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01', expiration: '2025-12-31' }, {
      beforeChange: async (held) => void steps.push(`before ${String(held)}`),
    });
    expect(steps).toEqual(['before undefined', 'POST']);
    expect(outcome).toMatchObject({ result: 'granted', message: `granted product "Yoga" (p1) to ${LABEL}`, requestId: 'req-1' });
    expect(outcome.subscription?.expiration_date).toBe('2025-12-31');
  });

  it('in a dry run checks that a student given by id exists, and sends no POST', async () => {
    heldAs(undefined);
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: MARIA });
    const outcome = await grantToStudent(api(), byId, 'p1', { accession: '2025-01-01' }, { dryRun: true, beforeChange: async () => {
      throw new Error('never asked in a dry run');
    } });
    expect(outcome).toMatchObject({ result: 'granted', dryRun: true, message: 'would grant product p1 to student s1 (dry run; nothing sent)' });
  });

  it('in a dry run of a student already looked up, sends nothing more', async () => {
    heldAs(undefined);
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { dryRun: true });
    expect(outcome.message).toBe(`would grant product p1 to ${LABEL} (dry run; nothing sent)`);
  });

  it('a refusal because another run granted it meanwhile is a skip, not a failure', async () => {
    heldAs(undefined);
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(422, { message: 'The product has already been taken.' });
    heldAs(sub());
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' });
    expect(outcome).toMatchObject({
      result: 'skipped', subscription: sub(),
      message: `${LABEL} already has access to product "Yoga" (p1) (granted meanwhile by someone else); nothing changed`,
    });
  });

  it('a refusal with nothing held afterwards is the refusal', async () => {
    heldAs(undefined);
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(422, { message: 'The product is closed.' });
    heldAs(undefined);
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' })).rejects.toBeInstanceOf(RejectedError);
  });

  it('a subscription without access, not told to renew: AccessNotHeldError with the fix, and nothing sent', async () => {
    const off = sub({ active: 0, status: 'canceled', accession_date: '2023-05-06 10:00:00' });
    heldAs(off);
    const refusal = grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { wording: { renew: 'set renew to yes' } });
    await expect(refusal).rejects.toBeInstanceOf(AccessNotHeldError);
    // The renewal would reset the status: the fix names both flags at once, not one and then the other.
    await expect(refusal).rejects.toThrow(
      `${LABEL} has product "Yoga" (p1) but its access is off (status canceled); renewing it would change it too: `
      + 'status canceled becomes active (the server\'s default for a grant); nothing sent. '
      + 'To revoke it and grant it again (accession 2023-05-06, expiration none) all the same, set renew to yes, and pass --include-status-changes',
    );
    heldAs(off);
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => false }))
      .rejects.toThrow(/ all the same, pass --renew --include-status-changes$/);
    // Told to include status changes already, or over an `active` status: --renew alone.
    heldAs(off);
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => false, includeStatusChanges: true }))
      .rejects.toThrow(/\(accession 2023-05-06, expiration none\), pass --renew$/);
    heldAs(sub({ active: 0, status: 'active', accession_date: '2023-05-06 10:00:00' }));
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => false }))
      .rejects.toThrow(/; nothing sent\. To revoke it and grant it again \(accession 2023-05-06, expiration none\), pass --renew$/);
  });

  it('renews when told to: DELETE, then POST with the original accession; a DELETE already gone is fine', async () => {
    const off = sub({ active: 0, status: 'inactive', accession_date: '2023-05-06' });
    heldAs(off);
    const asked: Array<[Subscription, string]> = [];
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    pool().intercept({
      path: '/api/v1/students/s1/products', method: 'POST', body: JSON.stringify({ product_id: 'p1', accession_date: '2023-05-06' }),
    }).reply(201, { data: sub({ accession_date: '2023-05-06' }) });
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, {
      renew: async (held, gap) => Boolean(asked.push([held, gap])), includeStatusChanges: true,
    });
    expect(asked).toEqual([[off, 'its access is off (status inactive)']]);
    expect(outcome).toMatchObject({
      result: 'renewed', replaced: off,
      message: `renewed product "Yoga" (p1) for ${LABEL}: its access is off (status inactive); revoked and granted again, accession 2023-05-06, expiration none`,
    });
  });

  it('a renewal whose DELETE fails otherwise stops before the POST', async () => {
    heldAs(sub({ active: 0 }));
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(422, { message: 'Locked.' });
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => true })).rejects.toBeInstanceOf(RejectedError);
  });

  it('a renewal in a dry run says what it would do and sends nothing', async () => {
    const other = sub({ expiration_date: '2025-03-01' });
    heldAs(other);
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01', expiration: '2026-03-01' }, {
      dryRun: true, renew: async () => true,
    });
    expect(outcome).toMatchObject({
      result: 'renewed', dryRun: true, replaced: other,
      message: `would renew product "Yoga" (p1) for ${LABEL}: it expires 2025-03-01, not 2026-03-01; `
        + 'would revoke it and grant it again (accession 2024-01-01, expiration 2026-03-01) (dry run; nothing sent)',
    });
  });
});

describe('revokeFromStudent', () => {
  it('deletes a held product after beforeChange, and names it by its title', async () => {
    heldAs(sub());
    const steps: string[] = [];
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(() => {
      steps.push('DELETE');
      return { statusCode: 204, data: '', responseOptions: { headers: { 'x-request-id': 'req-2' } } };
    });
    const outcome = await revokeFromStudent(api(), byEmail, 'p1', { reason: 'left', beforeChange: async (held) => void steps.push(`before ${held?.product_id}`) });
    expect(steps).toEqual(['before p1', 'DELETE']);
    expect(outcome).toEqual({
      student: 'maria@example.com', student_id: 's1', product_id: 'p1', reason: 'left', result: 'revoked',
      message: `revoked product "Yoga" (p1) from ${LABEL}`, subscription: sub(), requestId: 'req-2',
    });
  });

  it('skips a product not held, after checking that a student given by id exists', async () => {
    heldAs(undefined);
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: MARIA });
    expect(await revokeFromStudent(api(), byId, 'p1')).toMatchObject({ result: 'skipped', message: 'student s1 does not have product p1; nothing sent' });
  });

  it('an unknown student is not found, never a skip', async () => {
    heldAs(undefined);
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(404, { message: 'Not found.' });
    await expect(revokeFromStudent(api(), byId, 'p1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('in a dry run sends no DELETE', async () => {
    heldAs(sub());
    const outcome = await revokeFromStudent(api(), byEmail, 'p1', { dryRun: true });
    expect(outcome).toMatchObject({ result: 'revoked', dryRun: true, message: `would revoke product "Yoga" (p1) from ${LABEL} (dry run; nothing sent)` });
  });

  it('a DELETE answered 404 counts as revoked when the product is gone, and fails when it is still there', async () => {
    heldAs(sub());
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    heldAs(undefined);
    expect((await revokeFromStudent(api(), byEmail, 'p1')).result).toBe('revoked');

    heldAs(sub());
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    heldAs(sub());
    await expect(revokeFromStudent(api(), byEmail, 'p1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('another failure of the DELETE is the failure', async () => {
    heldAs(sub());
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(422, { message: 'Locked.' });
    await expect(revokeFromStudent(api(), byEmail, 'p1')).rejects.toBeInstanceOf(RejectedError);
  });
});

describe('with the state known from a snapshot', () => {
  it('a grant held as asked sends nothing at all', async () => {
    const outcome = await grantToStudent(api(), byId, 'p1', { accession: '2025-01-01' }, { known: { held: sub() } });
    expect(outcome).toMatchObject({ result: 'skipped', message: 'student s1 already has access to product "Yoga" (p1); nothing sent' });
  });

  it('a grant not held sends the POST alone; a dry run sends nothing, not even for an id', async () => {
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(201, { data: sub() });
    expect(await grantToStudent(api(), byId, 'p1', { accession: '2025-01-01' }, { known: { held: undefined } })).toMatchObject({ result: 'granted' });
    const dry = await grantToStudent(api(), byId, 'p1', { accession: '2025-01-01' }, { known: { held: undefined }, dryRun: true });
    expect(dry).toMatchObject({ result: 'granted', dryRun: true });
  });

  it('a grant refused because it appeared since the snapshot is looked at and skipped', async () => {
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(422, { message: 'The student already has this product.' });
    heldAs(sub());
    const outcome = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { known: { held: undefined } });
    expect(outcome).toMatchObject({ result: 'skipped', message: `${LABEL} already has access to product "Yoga" (p1) (granted meanwhile by someone else); nothing changed` });
  });

  it('a revoke not held is skipped without proving the student exists (the snapshot holds it)', async () => {
    const outcome = await revokeFromStudent(api(), byId, 'p1', { known: { held: undefined } });
    expect(outcome).toMatchObject({ result: 'skipped', message: 'student s1 does not have product p1; nothing sent' });
  });

  it('a revoke held reads the subscription again, then sends the DELETE (compare before destroy)', async () => {
    heldAs(sub());
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(204);
    expect(await revokeFromStudent(api(), byId, 'p1', { known: { held: sub() } })).toMatchObject({ result: 'revoked', subscription: sub() });
  });

  it('a revoke whose subscription changed since the snapshot (renewed by the desk) is stale: nothing sent, the state now said', async () => {
    heldAs(sub({ id: 10, expiration_date: '2027-01-31' }));
    const outcome = await revokeFromStudent(api(), byId, 'p1', { known: { held: sub({ expiration_date: '2025-01-31' }) } });
    expect(outcome).toMatchObject({
      result: 'stale', subscription: { id: 10 },
      message: 'product "Yoga" (p1) of student s1 changed since the run read it (now access on, status active, expiration 2027-01-31); nothing sent: look at it, then run again if the change is still wanted',
    });
  });

  it('a revoke whose subscription is gone since the snapshot is skipped, nothing sent', async () => {
    heldAs(undefined);
    expect(await revokeFromStudent(api(), byId, 'p1', { known: { held: sub() } })).toMatchObject({
      result: 'skipped', message: 'student s1 no longer has product "Yoga" (p1) (revoked meanwhile by someone else); nothing sent',
    });
  });

  it('a renewal planned from the snapshot is stale when the subscription changed; skipped when it is as asked already', async () => {
    const off = sub({ active: 0, expiration_date: '2024-05-06' });
    const renew = { known: { held: off }, renew: async () => true };
    heldAs(sub({ active: 0, expiration_date: '2024-06-30' }));
    await expect(grantToStudent(api(), byId, 'p1', { accession: '2025-01-01', expiration: '2026-01-01' }, renew)).resolves.toMatchObject({ result: 'stale' });
    heldAs(sub({ expiration_date: '2026-01-01' }));
    await expect(grantToStudent(api(), byId, 'p1', { accession: '2025-01-01', expiration: '2026-01-01' }, renew)).resolves.toMatchObject({
      result: 'skipped', message: 'student s1 already has access to product "Yoga" (p1) (renewed meanwhile by someone else); nothing changed',
    });
  });
});

describe('a renewal never resets a status silently (issue 30)', () => {
  const canceled = sub({ active: 0, status: 'canceled', accession_date: '2023-05-06', expiration_date: '2024-05-06' });

  it('refuses a renewal whose grant would reset the status (StatusResetError, exit 5): nothing sent, the way to allow it said', async () => {
    heldAs(canceled);
    const told: Array<string | undefined> = [];
    const error = await grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, {
      renew: async (_held, _gap, statusChange) => Boolean(told.push(statusChange)),
    }).catch((caught: unknown) => caught);
    expect(told).toEqual(['status canceled becomes active (the server\'s default for a grant)']);
    expect(error).toBeInstanceOf(StatusResetError);
    expect(error).toMatchObject({
      exitCode: 5, held: canceled,
      message: `${LABEL} has product "Yoga" (p1) but its access is off (status canceled, expiration 2024-05-06); renewing it would change it too: `
        + 'status canceled becomes active (the server\'s default for a grant); nothing sent. To revoke it and grant it again (accession 2023-05-06, expiration none) all the same, pass --include-status-changes',
    });
  });

  it('renews when told (includeStatusChanges), or when a person said yes to a question naming it (asked); the hint is the caller\'s', async () => {
    for (const options of [{ renew: async () => true, includeStatusChanges: true }, { renew: async () => 'asked' as const }]) {
      heldAs(canceled);
      pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(204, '');
      pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(201, { data: sub({ accession_date: '2023-05-06' }) });
      await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, options)).resolves.toMatchObject({ result: 'renewed' });
    }
    heldAs(canceled);
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => true, wording: { statusChange: 'say so in column x' } }))
      .rejects.toThrow(/all the same, say so in column x$/);
  });

  it('a status the grant leaves (active, or none known) needs no leave', async () => {
    heldAs(sub({ active: 0, status: null }));
    pool().intercept({ path: PRODUCT_PATH, method: 'DELETE' }).reply(204, '');
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(201, { data: sub() });
    await expect(grantToStudent(api(), byEmail, 'p1', { accession: '2025-01-01' }, { renew: async () => true })).resolves.toMatchObject({ result: 'renewed' });
  });
});

describe('the dates of a renewal are checked against the accession it keeps (issue 30)', () => {
  const names = { accession: 'accession_date', expiration: 'expiration_date' };
  const today = new Date(2026, 10, 25);
  // No accession given, an expiration before today: fine for a renewal that keeps an earlier accession.
  const dates = grantDates(undefined, '2025-03-01', names, today, { mayRenew: true });

  it('a renewal keeping an earlier accession takes an expiration before today (in a dry run too)', async () => {
    heldAs(sub({ active: 0, status: 'active', accession_date: '2024-01-01' }));
    const outcome = await grantToStudent(api(), byEmail, 'p1', dates, { renew: async () => true, dryRun: true, wording: { dates: names } });
    expect(outcome).toMatchObject({ result: 'renewed', dryRun: true });
    expect(outcome.message).toContain('accession 2024-01-01, expiration 2025-03-01');
  });

  it('refuses one before the accession it keeps, and a plain grant before today, naming the dates; nothing sent', async () => {
    heldAs(sub({ active: 0, status: 'active', accession_date: '2025-06-01' }));
    await expect(grantToStudent(api(), byEmail, 'p1', dates, { renew: async () => true, wording: { dates: names } })).rejects.toThrow(
      'expiration_date 2025-03-01 is before the subscription\'s accession date 2025-06-01, which a renewal keeps when accession_date is not given; the expiration cannot precede the accession',
    );
    // A caller that never renews (undo) is told the product is held, whatever the dates.
    heldAs(sub({ active: 0, status: 'active', accession_date: '2025-06-01' }));
    await expect(grantToStudent(api(), byEmail, 'p1', dates, { wording: { dates: names } })).rejects.toBeInstanceOf(AccessNotHeldError);
    heldAs(undefined);
    await expect(grantToStudent(api(), byEmail, 'p1', dates, { wording: { dates: names } })).rejects.toThrow(
      'expiration_date 2025-03-01 is before today (2026-11-25), the accession date when accession_date is not given; the expiration cannot precede the accession',
    );
  });
});
