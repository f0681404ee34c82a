/**
 * sendChange (src/domain/send-change.ts), the one path that sends a change
 * and records it, against exact MockAgent interceptors and a journal that
 * writes down what it is told: compare before destroy (one GET, `stale` and
 * nothing sent or recorded when the subscription changed; the record's
 * `before` is what was really removed), a DELETE answered 404, a refused
 * grant looked at, a delete; an undo's changes recorded as such. Unused
 * interceptors fail the test.
 */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src/api/endpoints/schemas.js';
import { sendChange } from '../../../src/domain/send-change.js';
import { sameSubscription, stateText } from '../../../src/domain/subscription-state.js';
import { mockApi } from '../../helpers/mock-api.js';
import { recordingJournal } from '../../helpers/recording-journal.js';

const { api, pool } = mockApi();
const PRODUCT = '/api/v1/students/s1/products/p1';
const GRANTS = '/api/v1/students/s1/products';
const student = { input: 'maria@example.com', id: 's1' };
const sub = (fields: Partial<Subscription> = {}): Subscription => ({
  id: 9, active: 1, status: 'active', product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-31', ...fields,
});
const heldAs = (subscription: Subscription | undefined) => {
  const interceptor = pool().intercept({ path: PRODUCT, method: 'GET' });
  if (subscription) interceptor.reply(200, { data: subscription });
  else interceptor.reply(404, { message: 'Not found.' });
};

const recorder = () => recordingJournal('sync', 'c1');

describe('compare before destroy', () => {
  it('a revoke planned from an earlier read reads the subscription again: unchanged, it is sent, and the record holds the one read', async () => {
    const { journal, steps } = recorder();
    heldAs(sub({ status: 'active' }));
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(204, '');
    const sent = await sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub({ status: 'active' }), compare: true });
    expect(sent).toMatchObject({ outcome: 'applied', removed: sub(), gone: false, auditId: 'c1' });
    expect(steps).toEqual([
      ['begin', { action: 'revoke', result: 'revoked', student: 'maria@example.com', student_id: 's1', product_id: 'p1', before: expect.objectContaining({ id: 9, expiration_date: '2025-01-31' }) }],
      ['applied', { request_id: undefined }],
    ]);
  });

  it('changed since (renewed by the desk: another id, a later expiration): stale, nothing sent, nothing recorded', async () => {
    const { journal, steps } = recorder();
    const renewed = sub({ id: 10, expiration_date: '2027-01-31' });
    heldAs(renewed);
    await expect(sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub(), compare: true })).resolves.toEqual({ outcome: 'stale', now: renewed });
    heldAs(renewed);
    const request = { product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2026-01-31' };
    await expect(sendChange({ action: 'renew', api: api(), journal, student, productId: 'p1', held: sub(), request, compare: true, label: 'maria' }))
      .resolves.toEqual({ outcome: 'stale', now: renewed });
    heldAs(undefined);
    await expect(sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub(), compare: true })).resolves.toEqual({ outcome: 'stale', now: undefined });
    expect(steps).toEqual([]);
  });

  it('a renewal compared unchanged records the subscription read as its before, then revokes and grants', async () => {
    const { journal, steps } = recorder();
    heldAs(sub());
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(204, '');
    const granted = sub({ id: 11, expiration_date: '2026-01-31' });
    pool().intercept({ path: GRANTS, method: 'POST' }).reply(201, { data: granted });
    const request = { product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2026-01-31' };
    const sent = await sendChange({ action: 'renew', api: api(), journal, student, productId: 'p1', held: sub(), request, compare: true, result: 'expiration-changed', label: 'maria' });
    expect(sent).toMatchObject({ outcome: 'applied', data: granted, removed: sub() });
    expect(steps[0]).toEqual(['begin', expect.objectContaining({ action: 'renew', result: 'expiration-changed', before: expect.objectContaining({ id: 9 }), after: request })]);
    expect(steps[1]).toEqual(['applied', expect.objectContaining({ after: expect.objectContaining({ id: 11 }) })]);
  });

  it('without compare nothing is read first: the state was read right before', async () => {
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(204, '');
    await expect(sendChange({ action: 'revoke', api: api(), student, productId: 'p1', held: sub() })).resolves.toMatchObject({ outcome: 'applied', removed: sub() });
  });
});

describe('the other rules of the one path', () => {
  it('a DELETE answered 404 is done once a look says the product is gone; still held, the failure is recorded and thrown', async () => {
    const { journal, steps } = recorder();
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    heldAs(undefined);
    await expect(sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub() })).resolves.toMatchObject({ outcome: 'applied', gone: true });
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(404, { message: 'Not found.' });
    heldAs(sub());
    await expect(sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub() })).rejects.toThrow(/not found \(DELETE/);
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['begin', 'applied', 'begin', 'failed']);
  });

  it('a refused grant is looked at only when the caller says what would do: found as accepted, the intent is dropped', async () => {
    const { journal, steps } = recorder();
    const request = { product_id: 'p1', accession_date: '2024-01-01' };
    pool().intercept({ path: GRANTS, method: 'POST' }).reply(422, { message: 'The student already has this product.' });
    heldAs(sub());
    await expect(sendChange({ action: 'grant', api: api(), journal, student, request, accepts: () => true })).resolves.toEqual({ outcome: 'found', now: sub() });
    pool().intercept({ path: GRANTS, method: 'POST' }).reply(422, { message: 'The student already has this product.' });
    await expect(sendChange({ action: 'grant', api: api(), journal, student, request })).rejects.toThrow(/already has this product/);
    expect(steps.map((step) => (step as unknown[])[0])).toEqual(['begin', 'dropped', 'begin', 'failed']);
  });

  it('a student\'s delete answered 404 (a retried DELETE) is done; recorded with the student as it was', async () => {
    const { journal, steps } = recorder();
    pool().intercept({ path: '/api/v1/students/s1', method: 'DELETE' }).reply(404, { message: 'Not found.' });
    await expect(sendChange({ action: 'delete', api: api(), journal, student, before: { id: 's1', email: 'maria@example.com' } })).resolves.toMatchObject({ outcome: 'applied', gone: true });
    expect(steps).toEqual([
      ['begin', { action: 'delete', result: 'deleted', student: 'maria@example.com', student_id: 's1', before: { id: 's1', email: 'maria@example.com' } }],
      ['applied', { request_id: undefined }],
    ]);
  });

  it('a change that reverses a record (members undo) is recorded as `action: undo` with the id it undoes, whatever it sends', async () => {
    const { journal, steps } = recorder();
    const request = { product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2025-01-31' };
    pool().intercept({ path: GRANTS, method: 'POST' }).reply(201, { data: sub() });
    await sendChange({ action: 'grant', api: api(), journal, student, request, undoes: 'r1' });
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(204, '');
    await sendChange({ action: 'revoke', api: api(), journal, student, productId: 'p1', held: sub(), undoes: 'g1' });
    pool().intercept({ path: PRODUCT, method: 'DELETE' }).reply(204, '');
    pool().intercept({ path: GRANTS, method: 'POST' }).reply(201, { data: sub({ id: 10 }) });
    await sendChange({ action: 'renew', api: api(), journal, student, productId: 'p1', held: sub(), request, label: 'maria', undoes: 'n1' });
    const begun = steps.filter((step) => (step as unknown[])[0] === 'begin').map((step) => (step as [string, { action: string; undoes?: string; result: string }])[1]);
    expect(begun.map(({ action, undoes, result }) => [action, undoes, result])).toEqual([['undo', 'r1', 'granted'], ['undo', 'g1', 'revoked'], ['undo', 'n1', 'renewed']]);
  });
});

describe('sameSubscription and stateText', () => {
  it('compares access, status, dates and the subscription id when both have one', () => {
    expect(sameSubscription(undefined, undefined)).toBe(true);
    expect(sameSubscription(sub(), undefined)).toBe(false);
    expect(sameSubscription(undefined, sub())).toBe(false);
    expect(sameSubscription(sub({ accession_date: '2024-01-01 00:00:00' }), sub())).toBe(true);
    expect(sameSubscription(sub({ id: null }), sub())).toBe(true);
    expect(sameSubscription(sub({ id: '9' }), sub())).toBe(true);
    expect(sameSubscription(sub({ id: 10 }), sub())).toBe(false);
    expect(sameSubscription(sub({ active: 0 }), sub())).toBe(false);
    expect(sameSubscription(sub({ status: null }), sub())).toBe(false);
    expect(sameSubscription(sub({ status: '' }), sub({ status: null }))).toBe(true);
    expect(sameSubscription(sub({ accession_date: '2024-01-02' }), sub())).toBe(false);
    expect(sameSubscription(sub({ expiration_date: null }), sub())).toBe(false);
    expect(stateText(undefined)).toBe('no subscription');
    expect(stateText(sub({ active: 0, status: null, expiration_date: null }))).toBe('access off, expiration none');
    expect(stateText(sub())).toBe('access on, status active, expiration 2025-01-31');
  });
});
