/** Answers scripted by a test (src/sandbox/script.ts): refused before the change, replaced after it, held, used up. */
import { describe, expect, it } from 'vitest';
import { call, useSandbox } from './helpers.js';

const sandbox = useSandbox({ students: 5 });
const GRANTS = '/api/v1/students/{id}/products';
const script = (body: object) => call(sandbox(), '/__sandbox/script', { method: 'POST', body });
const grant = (id: string, product: string) =>
  call<{ message: string }>(sandbox(), `/api/v1/students/${id}/products`, { method: 'POST', body: { product_id: product, accession_date: '2025-01-01' } });

const studentWithout = () => {
  const box = sandbox();
  const product = box.store.products[0]!;
  const student = box.store.students.find((s) => !box.store.subscriptionsOf(s.id).some((sub) => sub.product_id === product.id))!;
  return { box, product, student };
};

describe('POST /__sandbox/script', () => {
  it('a refusal answers the next matching request before the handler: nothing changes; the one after is real', async () => {
    const { box, product, student } = studentWithout();
    expect((await script({ method: 'post', route: GRANTS, status: 422, body: { message: 'The product is closed.', errors: { product_id: ['The product is closed.'] } } })).status).toBe(204);
    const refused = await grant(student.id, product.id);
    expect(refused).toMatchObject({ status: 422, body: { message: 'The product is closed.' } });
    expect(box.store.subscriptionsOf(student.id).some((sub) => sub.product_id === product.id)).toBe(false);
    expect((await grant(student.id, product.id)).status).toBe(201);
  });

  it('after_change: the change is made, and its answer replaced', async () => {
    const { box, product, student } = studentWithout();
    await script({ method: 'POST', route: GRANTS, status: 503, body: { message: 'Service Unavailable' }, after_change: true });
    expect((await grant(student.id, product.id)).status).toBe(503);
    expect(box.store.subscriptionsOf(student.id).some((sub) => sub.product_id === product.id)).toBe(true);
  });

  it('delay_ms holds the answer; times counts the requests it answers; DELETE clears the script', async () => {
    const { product, student } = studentWithout();
    await script({ method: 'GET', route: '/api/v1/products', status: 500, times: 2 });
    expect((await call(sandbox(), '/api/v1/products')).status).toBe(500);
    expect((await call(sandbox(), '/api/v1/products')).status).toBe(500);
    expect((await call(sandbox(), '/api/v1/products')).status).toBe(200);
    await script({ method: 'GET', route: '/api/v1/products', status: 500 });
    await call(sandbox(), '/__sandbox/script', { method: 'DELETE' });
    expect((await call(sandbox(), '/api/v1/products')).status).toBe(200);
    await script({ method: 'POST', route: GRANTS, delay_ms: 100, after_change: true });
    let answered = false;
    const changed = new Promise<void>((resolve) => sandbox().store.onChange(() => resolve()));
    const pending = grant(student.id, product.id).then((reply) => {
      answered = true;
      return reply;
    });
    // The change is made, and its answer held: the client has none yet.
    await changed;
    expect(answered).toBe(false);
    expect((await pending).status).toBe(201);
  });

  it('until_released holds the answer until the test releases it, and GET /__sandbox/script counts what is held', async () => {
    const { product, student } = studentWithout();
    const held = async () => (await call<{ held: number }>(sandbox(), '/__sandbox/script')).body.held;
    await script({ method: 'POST', route: GRANTS, after_change: true, until_released: true });
    const changed = new Promise<void>((resolve) => sandbox().store.onChange(() => resolve()));
    let answered = false;
    const pending = grant(student.id, product.id).then((reply) => {
      answered = true;
      return reply;
    });
    await changed;
    expect(await held()).toBe(1);
    expect(answered).toBe(false);
    expect(await call(sandbox(), '/__sandbox/script/release', { method: 'POST' })).toMatchObject({ status: 200, body: { released: 1 } });
    expect((await pending).status).toBe(201);
    expect(await held()).toBe(0);
  });

  it.each([
    [{ route: GRANTS }, 'method must be a non-empty string.'],
    [{ method: 'POST', route: GRANTS, status: 'x' }, 'status must be an integer ≥ 100.'],
    [{ method: 'POST', route: GRANTS, times: 0 }, 'times must be an integer ≥ 1.'],
    [{ method: 'POST', route: GRANTS, delay_ms: -1 }, 'delay_ms must be an integer ≥ 0.'],
    [{ method: 'POST', route: GRANTS, body: 'x' }, 'body must be an object with a message.'],
  ])('%j is refused: %s', async (body, message) => {
    expect(await script(body)).toMatchObject({ status: 422, body: { message } });
  });
});
