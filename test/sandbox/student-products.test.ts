import { describe, expect, it } from 'vitest';
import type { StudentRecord } from '../../src/sandbox/types.js';
import { call, useSandbox, type Data, type ErrorBody, type SubscriptionJson } from './helpers.js';

const sandbox = useSandbox({ students: 30, seed: 11 });

/** A seeded student who does not hold `productId` yet. */
function studentWithout(productId: string, skip = 0): StudentRecord {
  const candidates = sandbox().store.students.filter((student) => !sandbox().store.subscriptionFor(student.id, productId));
  const student = candidates[skip];
  if (!student) throw new Error('every student holds the product');
  return student;
}

function product(index: number): string {
  const found = sandbox().store.products[index];
  if (!found) throw new Error(`no product ${index}`);
  return found.id;
}

describe('GET /api/v1/students/{id}/products', () => {
  it('lists the student’s subscriptions unpaginated, each with its product and no student', async () => {
    const student = sandbox().store.students.find((candidate) => sandbox().store.subscriptionsOf(candidate.id).length > 1);
    if (!student) throw new Error('no student with several subscriptions');
    const { status, body } = await call<Data<SubscriptionJson[]> & { links?: unknown }>(sandbox(), `/api/v1/students/${student.id}/products`);
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('links');
    expect(body.data.map((subscription) => subscription.id)).toEqual(sandbox().store.subscriptionsOf(student.id).map((subscription) => subscription.id));
    for (const subscription of body.data) {
      expect(subscription.product.id).toBe(subscription.product_id);
      expect(subscription).not.toHaveProperty('student');
    }
  });

  it('answers 404 for an unknown student', async () => {
    const { status, body } = await call<ErrorBody>(sandbox(), '/api/v1/students/nope/products');
    expect(status).toBe(404);
    expect(body.exception).toBe('StudentNotFoundException');
  });
});

describe('POST /api/v1/students/{id}/products', () => {
  it('grants the product: 201 with an active subscription that has access', async () => {
    const productId = product(1);
    const student = studentWithout(productId);
    const { status, body } = await call<Data<SubscriptionJson>>(sandbox(), `/api/v1/students/${student.id}/products`, {
      method: 'POST',
      body: { product_id: productId, accession_date: '2025-07-01', expiration_date: '2026-07-01' },
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      active: 1,
      status: 'active',
      product_id: productId,
      accession_date: '2025-07-01',
      expiration_date: '2026-07-01',
      cancel_date: null,
      product: { id: productId },
    });
    expect(sandbox().store.subscription(body.data.id)?.student_id).toBe(student.id);
    const single = await call<Data<SubscriptionJson>>(sandbox(), `/api/v1/students/${student.id}/products/${productId}`);
    expect(single.body.data).toEqual(body.data);
  });

  it('enrols the student in the product’s courses, visible in course accesses', async () => {
    const productId = product(4);
    const student = studentWithout(productId);
    await call(sandbox(), `/api/v1/students/${student.id}/products`, { method: 'POST', body: { product_id: productId, accession_date: '2025-07-02' } });
    for (const courseId of sandbox().store.product(productId)?.course_ids ?? []) {
      const { body } = await call<Data<{ id: string; course: { id: string } }[]>>(sandbox(), `/api/v1/courses/${courseId}/accesses`);
      expect(body.data.some((entry) => entry.id === student.id && entry.course.id === courseId)).toBe(true);
    }
  });

  it('refuses a product the student already has with 422 and the documented message', async () => {
    const held = sandbox().store.subscriptions[0];
    if (!held) throw new Error('no subscription');
    const { status, body } = await call<ErrorBody>(sandbox(), `/api/v1/students/${held.student_id}/products`, {
      method: 'POST',
      body: { product_id: held.product_id, accession_date: '2025-07-01' },
    });
    expect(status).toBe(422);
    expect(body).toEqual({ message: 'The student already has this product.', errors: { product_id: ['The student already has this product.'] } });
  });

  it.each([
    [{ accession_date: '2025-07-01' }, { product_id: ['The product id field is required.'] }],
    [{ product_id: 'no-such-product', accession_date: '2025-07-01' }, { product_id: ['The selected product id is invalid.'] }],
    [{ product_id: 0 }, { product_id: ['The product id field must be a string.'], accession_date: ['The accession date field is required.'] }],
    [{ product_id: 1, accession_date: '2025-02-30' }, { product_id: ['The product id field must be a string.'], accession_date: ['The accession date field must be a valid date.'] }],
    [{ product_id: 'p', accession_date: '01/07/2025' }, { product_id: ['The selected product id is invalid.'], accession_date: ['The accession date field must match the format Y-m-d.'] }],
  ])('rejects %j with 422 and field errors', async (body, errors) => {
    const student = sandbox().store.students[5];
    const reply = await call<ErrorBody>(sandbox(), `/api/v1/students/${student?.id}/products`, { method: 'POST', body });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(errors);
  });

  it('rejects an expiration date before the accession date', async () => {
    const productId = product(0);
    const student = studentWithout(productId);
    const reply = await call<ErrorBody>(sandbox(), `/api/v1/students/${student.id}/products`, {
      method: 'POST',
      body: { product_id: productId, accession_date: '2025-07-01', expiration_date: '2025-06-30' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ expiration_date: ['The expiration date field must be a date after or equal to accession date.'] });
    expect(sandbox().store.subscriptionFor(student.id, productId)).toBeUndefined();
  });

  it('answers 404 for an unknown student and 400 for a body that is not JSON', async () => {
    const unknown = await call<ErrorBody>(sandbox(), '/api/v1/students/nope/products', { method: 'POST', body: { product_id: product(0), accession_date: '2025-07-01' } });
    expect(unknown.status).toBe(404);
    const student = sandbox().store.students[2];
    const malformed = await call<ErrorBody>(sandbox(), `/api/v1/students/${student?.id}/products`, { method: 'POST', body: 'product_id=1' });
    expect(malformed.status).toBe(400);
  });
});

describe('GET and DELETE /api/v1/students/{id}/products/{product_id}', () => {
  it('revokes with 204 and an empty body; the subscription is then 404', async () => {
    const held = sandbox().store.subscriptions[3];
    if (!held) throw new Error('no subscription');
    const path = `/api/v1/students/${held.student_id}/products/${held.product_id}`;
    expect((await call(sandbox(), path)).status).toBe(200);
    const revoked = await call(sandbox(), path, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeUndefined();
    const after = await call<ErrorBody>(sandbox(), path);
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ message: 'The student does not have this product.', exception: 'SubscriptionNotFoundException' });
    expect((await call(sandbox(), path, { method: 'DELETE' })).status).toBe(404);
    expect((await call(sandbox(), `/api/v1/subscriptions/${held.id}`)).status).toBe(404);
  });

  it('answers 404 ProductNotFoundException for an unknown product and StudentNotFoundException for an unknown student', async () => {
    const student = sandbox().store.students[1];
    const product404 = await call<ErrorBody>(sandbox(), `/api/v1/students/${student?.id}/products/no-such-product`);
    expect(product404.status).toBe(404);
    expect(product404.body.exception).toBe('ProductNotFoundException');
    const student404 = await call<ErrorBody>(sandbox(), `/api/v1/students/nope/products/${product(0)}`, { method: 'DELETE' });
    expect(student404.status).toBe(404);
    expect(student404.body.exception).toBe('StudentNotFoundException');
  });
});
