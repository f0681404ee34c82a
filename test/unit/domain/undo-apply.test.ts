/**
 * applyUndo against exact MockAgent interceptors and a journal that records
 * what it is told: each plan's requests, the change recorded (begun after the
 * question, then applied or failed), its message, and every conflict, found
 * before anything is sent. A revoke or restore reads the subscription again
 * after the question (sendChange's compare before destroy): changed, it is
 * stale and nothing is sent. Unused interceptors fail the test.
 */
import { describe, expect, it } from 'vitest';
import { recordingJournal } from '../../helpers/recording-journal.js';
import { UndoConflictError, UndoStaleError, applyUndo, type UndoPlan } from '../../../src/domain/undo.js';
import { RenewalFailedError } from '../../../src/domain/send-change.js';
import { mockApi } from '../../helpers/mock-api.js';
import { GRANT, REVOKE, DELETE, SNAPSHOT, rec } from '../../helpers/audit-records.js';

const { api, pool } = mockApi();
const LABEL = 'Maria <maria@example.com>';
const PRODUCT = '/api/v1/students/s1/products/p1';
const SUB = { ...SNAPSHOT, product: { id: 'p1', title: 'Yoga' } };
const MARIA = { id: 's1', first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' };

/** A journal and a confirm() that write down, in order, what applyUndo does with them. */
function recorder(options: { refuse?: boolean } = {}) {
  const { journal, steps } = recordingJournal('undo', 'u1');
  const confirm = async () => {
    steps.push(['confirm']);
    if (options.refuse) throw new Error('not confirmed');
  };
  return { context: { api: api(), journal, confirm }, steps };
}

const revokePlan: UndoPlan = { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT };
const RENEW = rec('n1', { command: 'students grant', action: 'renew', result: 'renewed', before: { ...SNAPSHOT, status: 'canceled' }, after: SNAPSHOT });
const restorePlan = (expiration?: string): UndoPlan => ({ ...revokePlan, restore: { accession: '2023-01-01', ...(expiration ? { expiration } : {}) } });
const held = (fields: Record<string, unknown> = {}) => pool().intercept({ path: PRODUCT, method: 'GET' }).reply(200, { data: { ...SUB, ...fields } });
const deleted = () => pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(200, { data: { ...SUB, active: 0, status: 'canceled' } }, { headers: { 'x-request-id': 'req-del' } });

describe('applyUndo: a grant (revoke)', () => {
  it('revokes the subscription as it was granted, asking first, and records it with its state before', async () => {
    const { context, steps } = recorder();
    held();
    held();
    deleted();
    const result = await applyUndo(context, GRANT, revokePlan, LABEL);
    expect(result).toEqual({ message: `revoked product p1 from ${LABEL}` });
    expect(steps).toEqual([
      ['confirm'],
      ['begin', {
        action: 'undo', undoes: 'g1', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'revoked', before: expect.objectContaining({ id: 77, product_id: 'p1' }),
      }],
      ['applied', { request_id: 'req-del' }],
    ]);
  });

  it('sends nothing when the subscription changed while the question was asked: stale, nothing recorded', async () => {
    const { context, steps } = recorder();
    held();
    held({ expiration_date: '2031-01-31' });
    const error = await applyUndo(context, GRANT, revokePlan, LABEL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UndoStaleError);
    expect((error as Error).message).toBe(
      `cannot undo g1: the subscription of ${LABEL} to product p1 changed while this undo ran (now access on, status active, expiration 2031-01-31); nothing was sent. `
        + 'Someone changed it meanwhile: look at `members students products maria@example.com` before changing it again',
    );
    expect(steps).toEqual([['confirm']]);
  });

  it('a DELETE answered 404 once the look finds it gone is done (a retried request whose first attempt went through)', async () => {
    const { context, steps } = recorder();
    held();
    held();
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    expect(await applyUndo(context, GRANT, revokePlan, LABEL)).toEqual({ message: `revoked product p1 from ${LABEL}` });
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'applied']);
  });

  it('a renewal without a former access to restore: revoked, and says the subscription is removed, its former one not recreated', async () => {
    const { context } = recorder();
    held();
    held();
    deleted();
    const lost = { ...SNAPSHOT, status: 'canceled', active: 0 };
    expect((await applyUndo(context, RENEW, { ...revokePlan, lost }, LABEL)).message).toBe(
      `revoked the renewed product p1 from ${LABEL}: the subscription is removed: the one it replaced (without access; status canceled, accession 2024-01-01, expiration 2025-01-01) `
        + 'cannot be recreated through the API, which creates no subscription without access; its status and dates stay in the audit record n1',
    );
    held();
    held();
    deleted();
    expect((await applyUndo(context, RENEW, revokePlan, LABEL)).message).toBe(`revoked the renewed product p1 from ${LABEL}`);
  });

  it('refuses, sending nothing and asking nothing, when the subscription changed since it was granted', async () => {
    const { context, steps } = recorder();
    held({ expiration_date: '2026-01-01' });
    const error = await applyUndo(context, GRANT, revokePlan, LABEL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UndoConflictError);
    expect((error as Error).message).toBe(
      `cannot undo g1: the subscription of ${LABEL} to product p1 changed since it was granted (expiration 2025-01-01 → 2026-01-01); nothing was sent. `
        + 'Look at `members students products maria@example.com` and revoke by hand if it is still wanted',
    );
    expect(steps).toEqual([]);
  });

  it('names the student by id in the hint when the record has no student as typed', async () => {
    const { context } = recorder();
    held({ expiration_date: '2026-01-01' });
    await expect(applyUndo(context, rec('g2', { student: undefined, after: SNAPSHOT }), revokePlan, LABEL)).rejects.toThrow('`members students products s1`');
  });

  it('refuses when the student no longer has the product', async () => {
    const { context, steps } = recorder();
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: MARIA });
    await expect(applyUndo(context, GRANT, revokePlan, LABEL)).rejects.toThrow(new UndoConflictError(`cannot undo g1: ${LABEL} no longer has product p1; nothing was sent`));
    expect(steps).toEqual([]);
  });

  it('records a revoke that failed as failed, and throws its error', async () => {
    const { context, steps } = recorder();
    held();
    held();
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(422, { message: 'Locked.' });
    await expect(applyUndo(context, GRANT, revokePlan, LABEL)).rejects.toThrow('Locked.');
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'failed']);
  });

  it('sends nothing when the question is declined', async () => {
    const { context, steps } = recorder({ refuse: true });
    held();
    await expect(applyUndo(context, GRANT, revokePlan, LABEL)).rejects.toThrow('not confirmed');
    expect(steps).toEqual([['confirm']]);
  });
});

describe('applyUndo: a renewal (revoke, then the former dates granted again)', () => {
  const regrant = (body: string, status = 'active') => {
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST', body }).reply(201, { data: { ...SUB, id: 78, accession_date: '2023-01-01', expiration_date: '2024-01-01', status } }, { headers: { 'x-request-id': 'req-grant' } });
  };

  it('records one change, renewed, from the renewed subscription to the former dates', async () => {
    const { context, steps } = recorder();
    held();
    held();
    deleted();
    regrant('{"product_id":"p1","accession_date":"2023-01-01","expiration_date":"2024-01-01"}');
    const result = await applyUndo(context, rec('n2', { action: 'renew', result: 'renewed', after: SNAPSHOT }), restorePlan('2024-01-01'), LABEL);
    expect(result.message).toBe(`product p1 of ${LABEL} is back to its former dates (accession 2023-01-01, expiration 2024-01-01)`);
    expect(result.subscription).toMatchObject({ id: 78, accession_date: '2023-01-01' });
    expect(steps).toEqual([
      ['confirm'],
      ['begin', {
        action: 'undo', undoes: 'n2', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'renewed',
        before: expect.objectContaining({ id: 77, product_id: 'p1' }),
        after: { product_id: 'p1', accession_date: '2023-01-01', expiration_date: '2024-01-01' },
      }],
      ['applied', { request_id: 'req-grant', after: expect.objectContaining({ id: 78, accession_date: '2023-01-01', expiration_date: '2024-01-01' }) }],
    ]);
  });

  it('without a former expiration: records null, and says the status the grant got when the former one differed', async () => {
    const { context, steps } = recorder();
    held();
    held();
    deleted();
    regrant('{"product_id":"p1","accession_date":"2023-01-01"}');
    const result = await applyUndo(context, RENEW, restorePlan(), LABEL);
    expect(result.message).toBe(`product p1 of ${LABEL} is back to its former dates (accession 2023-01-01, expiration none); `
      + 'its status is active, not canceled as before: the API sets no status on a grant');
    expect(steps[1]).toEqual(['begin', expect.objectContaining({ after: { product_id: 'p1', accession_date: '2023-01-01', expiration_date: null } })]);
  });

  it('says nothing of the status when it is the former one', async () => {
    const { context } = recorder();
    held();
    held();
    deleted();
    regrant('{"product_id":"p1","accession_date":"2023-01-01"}', 'canceled');
    expect((await applyUndo(context, RENEW, restorePlan(), LABEL)).message).toBe(`product p1 of ${LABEL} is back to its former dates (accession 2023-01-01, expiration none)`);
  });

  it('a grant that fails after the revoke puts the renewed subscription back, as any renewal does, and says so', async () => {
    const { context, steps } = recorder();
    held();
    held();
    deleted();
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST', body: '{"product_id":"p1","accession_date":"2023-01-01","expiration_date":"2024-01-01"}' })
      .reply(422, { message: 'Product closed.' });
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST', body: '{"product_id":"p1","accession_date":"2024-01-01","expiration_date":"2025-01-01"}' })
      .reply(201, { data: { ...SUB, id: 79 } }, { headers: { 'x-request-id': 'req-back' } });
    const error = await applyUndo(context, RENEW, restorePlan('2024-01-01'), LABEL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenewalFailedError);
    expect((error as Error).message).toMatch(/^the renewal failed: the server rejected the request \(422\): Product closed\. .*; the old subscription was restored with access until 2025-01-01 \(accession 2024-01-01\)/);
    // The undo's change is recorded as the revoke it was; the put-back as a change of its own that undoes it.
    expect(steps).toEqual([
      ['confirm'],
      ['begin', expect.objectContaining({ action: 'undo', undoes: 'n1', result: 'renewed' })],
      ['begin', expect.objectContaining({ action: 'undo', undoes: 'u1', result: 'granted', command: 'undo (restores the subscription after a failed renewal)' })],
      ['applied', { result: 'revoked' }],
      ['applied', { request_id: 'req-back', after: expect.objectContaining({ id: 79 }) }],
    ]);
  });
});

describe('applyUndo: a revoke (grant again)', () => {
  const plan: UndoPlan = { kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01', expiration: '2025-01-01' };

  it('grants the product again with its dates, after the question, and records the new subscription', async () => {
    const { context, steps } = recorder();
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST', body: '{"product_id":"p1","accession_date":"2024-01-01","expiration_date":"2025-01-01"}' })
      .reply(201, { data: { ...SUB, id: 80 } }, { headers: { 'x-request-id': 'req-g' } });
    const result = await applyUndo(context, REVOKE, plan, LABEL);
    expect(result.message).toBe(`granted product p1 to ${LABEL} again (accession 2024-01-01, expiration 2025-01-01); it is a new subscription, with the status and access the server gives a grant`);
    expect(result.subscription).toMatchObject({ id: 80 });
    expect(steps).toEqual([
      ['confirm'],
      ['begin', {
        action: 'undo', undoes: 'r1', student: 'maria@example.com', student_id: 's1', product_id: 'p1', result: 'granted',
        after: { product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-01' },
      }],
      ['applied', { request_id: 'req-g', after: expect.objectContaining({ id: 80, product_id: 'p1' }) }],
    ]);
  });

  it('a grant refused because the product was granted while the question was asked: stale, nothing recorded', async () => {
    const { context, steps } = recorder();
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(422, { message: 'The student already has this product.' });
    held({ accession_date: '2026-02-01', expiration_date: null });
    await expect(applyUndo(context, REVOKE, plan, LABEL)).rejects.toThrow(new UndoStaleError(
      `cannot undo r1: ${LABEL} has product p1 again: it was granted while this undo ran (accession 2026-02-01, expiration none); nothing was sent`,
    ));
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'dropped']);
  });

  it('refuses when the student has the product again, with access', async () => {
    const { context, steps } = recorder();
    held({ accession_date: '2025-06-01 00:00:00' });
    await expect(applyUndo(context, REVOKE, plan, LABEL)).rejects.toThrow(new UndoConflictError(
      `cannot undo r1: ${LABEL} has product p1 again since it was revoked (accession 2025-06-01, expiration 2025-01-01); nothing was sent`,
    ));
    expect(steps).toEqual([]);
  });

  it('refuses when the student holds it again without access: a person must look, undo never renews', async () => {
    const { context, steps } = recorder();
    held({ active: 0, status: 'canceled', expiration_date: null });
    await expect(applyUndo(context, REVOKE, plan, LABEL)).rejects.toThrow(new UndoConflictError(
      `cannot undo r1: ${LABEL} has product p1 again since it was revoked (accession 2024-01-01, expiration none); nothing was sent`,
    ));
    expect(steps).toEqual([]);
  });

  it('records a grant that failed as failed', async () => {
    const { context, steps } = recorder();
    pool().intercept({ path: PRODUCT, method: 'GET' }).reply(404, { message: 'Not found.' });
    pool().intercept({ path: '/api/v1/students/s1/products', method: 'POST' }).reply(422, { message: 'Product closed.' });
    await expect(applyUndo(context, REVOKE, plan, LABEL)).rejects.toThrow('Product closed.');
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'failed']);
  });
});

describe('applyUndo: a score', () => {
  const plan: UndoPlan = { kind: 'score', studentId: 's1', previous: 3, set: 5 };
  const SCORE = rec('c1', { command: 'scores set', action: 'scores.set', result: 'updated', product_id: undefined, score: 5, before: { score: 3 } });
  const scoreIs = (score: number | undefined) => pool().intercept({ path: '/api/v1/students/s1/scores', method: 'GET' })
    .reply(200, { data: { ...(score === undefined ? {} : { score }), posts: 0, comments: 0, replies: 0 } });

  it('puts the former score back when the score is still the one set, and records both', async () => {
    const { context, steps } = recorder();
    scoreIs(5);
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT', body: '{"score":3}' })
      .reply(200, { data: { score: 3, posts: 0, comments: 0, replies: 0 } }, { headers: { 'x-request-id': 'req-s' } });
    expect(await applyUndo(context, SCORE, plan, LABEL)).toEqual({ message: `the score of ${LABEL} is 3 again` });
    expect(steps).toEqual([
      ['confirm'],
      ['begin', { action: 'undo', undoes: 'c1', student: 'maria@example.com', student_id: 's1', result: 'updated', score: 3, before: { score: 5 } }],
      ['applied', { request_id: 'req-s', after: { score: 3 } }],
    ]);
  });

  it('refuses when the score changed since', async () => {
    const { context, steps } = recorder();
    scoreIs(7);
    await expect(applyUndo(context, SCORE, plan, LABEL)).rejects.toThrow(new UndoConflictError(
      `cannot undo c1: the score of ${LABEL} is 7 now, not 5 as that change left it; nothing was sent`,
    ));
    expect(steps).toEqual([]);
  });

  it('records a PUT that failed as failed', async () => {
    const { context, steps } = recorder();
    scoreIs(5);
    pool().intercept({ path: '/api/v1/students/s1/scores', method: 'PUT' }).reply(422, { message: 'Invalid.' });
    await expect(applyUndo(context, SCORE, plan, LABEL)).rejects.toThrow('Invalid.');
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'failed']);
  });
});

describe('applyUndo: a delete (create again)', () => {
  const body = { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' };
  const plan: UndoPlan = { kind: 'recreate', body, oldId: 's1' };
  const absent = () => pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET' }).reply(404, { message: 'Not found.' });

  it('creates the student again, records the new id, and says what is not restored', async () => {
    const { context, steps } = recorder();
    absent();
    pool().intercept({ path: '/api/v1/students', method: 'POST', body: JSON.stringify(body) }).reply(201, { data: { ...MARIA, id: 's9' } }, { headers: { 'x-request-id': 'req-c' } });
    const result = await applyUndo(context, DELETE, plan, LABEL);
    expect(result.message).toBe('created Maria Silva <maria@example.com> again as a new student, id s9 (was s1); its products, scores and progress are not restored');
    expect(result.created).toMatchObject({ id: 's9' });
    expect(steps).toEqual([
      ['confirm'],
      ['begin', { action: 'undo', undoes: 'd1', student: 'maria@example.com', student_id: undefined, result: 'created' }],
      ['applied', { student_id: 's9', request_id: 'req-c', after: expect.objectContaining({ id: 's9', email: 'maria@example.com' }) }],
    ]);
  });

  it('without the former id, says none', async () => {
    const { context } = recorder();
    absent();
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(201, { data: { ...MARIA, id: 's9' } });
    expect((await applyUndo(context, DELETE, { kind: 'recreate', body }, LABEL)).message).toBe(
      'created Maria Silva <maria@example.com> again as a new student, id s9; its products, scores and progress are not restored',
    );
  });

  it('refuses when the e-mail is taken again', async () => {
    const { context, steps } = recorder();
    pool().intercept({ path: '/api/v1/students/email/maria%40example.com', method: 'GET' }).reply(200, { data: { ...MARIA, id: 's5' } });
    await expect(applyUndo(context, DELETE, plan, LABEL)).rejects.toThrow(new UndoConflictError(
      'cannot undo d1: a student with e-mail maria@example.com exists again (id s5); nothing was sent',
    ));
    expect(steps).toEqual([]);
  });

  it('records a creation that failed as failed', async () => {
    const { context, steps } = recorder();
    absent();
    pool().intercept({ path: '/api/v1/students', method: 'POST' }).reply(422, { message: 'The email has already been taken.' });
    await expect(applyUndo(context, DELETE, plan, LABEL)).rejects.toThrow('The email has already been taken.');
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['confirm', 'begin', 'failed']);
  });
});
