import { describe, expect, it } from 'vitest';
import { call, fetchAll, useSandbox, type Data, type ErrorBody, type Page, type SubscriptionJson } from './helpers.js';

const sandbox = useSandbox({ students: 50, seed: 5 });

interface Lesson {
  id: string;
  title: string;
  subtitle: string;
  slug: string;
  blocked: string;
  published: string;
  url_upsell: string | null;
  text_upsell: string | null;
}
interface Module extends Omit<Lesson, 'subtitle'> {
  description: string;
  lessons: Lesson[];
}
interface Course {
  id: string;
  title: string;
  description: string;
  status: string;
  slug: string;
  blocked: number;
  published: number;
  modules: Module[];
}
interface Product {
  id: string;
  title: string;
  period: number;
  lifetime: boolean;
  status: string;
  type: string;
  subscribers: { active: number; inactive: number };
}
interface AccessEntry {
  id: string;
  name: string;
  email: string;
  course: { id: string; name: string; last_access_at: string | null; finished: number; finished_at: string | null };
}

describe('courses', () => {
  it('lists every course, paginated, with modules and lessons typed as the spec says', async () => {
    const { status, body } = await call<Page<Course>>(sandbox(), '/api/v1/courses');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(sandbox().store.courses.length);
    expect(body.data.map((course) => course.status)).toContain('inactive');
    for (const course of body.data) {
      expect(typeof course.blocked).toBe('number');
      expect(typeof course.published).toBe('number');
      expect(course.modules.length).toBeGreaterThan(0);
      for (const module of course.modules) {
        expect(typeof module.blocked).toBe('string');
        expect(typeof module.published).toBe('string');
        expect(module.lessons.length).toBeGreaterThan(0);
        for (const lesson of module.lessons) expect([typeof lesson.blocked, typeof lesson.published, typeof lesson.subtitle]).toEqual(['string', 'string', 'string']);
      }
    }
  });

  it('pages courses with per_page', async () => {
    const { body } = await call<Page<Course>>(sandbox(), '/api/v1/courses?per_page=5&page=3');
    expect(body.data).toHaveLength(sandbox().store.courses.length - 10);
    expect(body.meta).toMatchObject({ current_page: 3, last_page: 3, per_page: 5 });
  });

  it('gets one course, and 404 CourseNotFoundException for an unknown id', async () => {
    const course = sandbox().store.courses[2];
    const found = await call<Data<Course>>(sandbox(), `/api/v1/courses/${course?.id}`);
    expect(found.body.data).toEqual(JSON.parse(JSON.stringify(course)));
    const missing = await call<ErrorBody>(sandbox(), '/api/v1/courses/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Course not found.', exception: 'CourseNotFoundException' });
    expect((await call<ErrorBody>(sandbox(), '/api/v1/courses/nope/accesses')).body.exception).toBe('CourseNotFoundException');
  });

  it('lists a course’s accesses unpaginated: one entry per student with progress, finished iff 100 %', async () => {
    const course = sandbox().store.courses[0];
    if (!course) throw new Error('no course');
    const { body } = await call<Data<AccessEntry[]> & { meta?: unknown }>(sandbox(), `/api/v1/courses/${course.id}/accesses`);
    expect(body).not.toHaveProperty('meta');
    const progress = sandbox().store.progressOf(course.id);
    expect(body.data.map((entry) => entry.id)).toEqual([...progress.keys()]);
    for (const entry of body.data) {
      const row = progress.get(entry.id);
      expect(entry.course).toEqual({
        id: course.id,
        name: course.title,
        last_access_at: row?.last_access_at,
        finished: row?.completion === 10000 ? 1 : 0,
        finished_at: row?.finished_at,
      });
      expect(entry.email).toBe(sandbox().store.student(entry.id)?.email);
    }
    expect(body.data.some((entry) => entry.course.finished === 1)).toBe(true);
  });
});

describe('products', () => {
  it('counts subscribers with access released: active status vs any other status', async () => {
    const subscriptions = await fetchAll<SubscriptionJson>(sandbox(), '/api/v1/subscriptions?per_page=100');
    const products = await fetchAll<Product>(sandbox(), '/api/v1/products?per_page=3');
    expect(products).toHaveLength(sandbox().store.products.length);
    for (const product of products) {
      const withAccess = subscriptions.filter((subscription) => subscription.product_id === product.id && subscription.active === 1);
      const active = new Set(withAccess.filter((subscription) => subscription.status === 'active').map((subscription) => subscription.student?.id));
      const inactive = new Set(withAccess.filter((subscription) => subscription.status !== 'active').map((subscription) => subscription.student?.id));
      expect(product.subscribers).toEqual({ active: active.size, inactive: inactive.size });
    }
    expect(products.some((product) => product.subscribers.inactive > 0)).toBe(true);
  });

  it('gets one product (lifetime and recurring exist), and 404 ProductNotFoundException for an unknown id', async () => {
    const lifetime = sandbox().store.products.find((product) => product.lifetime);
    const found = await call<Data<Product>>(sandbox(), `/api/v1/products/${lifetime?.id}`);
    expect(found.body.data).toMatchObject({ id: lifetime?.id, lifetime: true, period: 0 });
    expect(found.body.data).not.toHaveProperty('course_ids');
    expect(sandbox().store.products.some((product) => product.type === 'recurring' && !product.lifetime)).toBe(true);
    const missing = await call<ErrorBody>(sandbox(), '/api/v1/products/nope');
    expect(missing.body).toEqual({ message: 'Product not found.', exception: 'ProductNotFoundException' });
  });

  it('updates the subscriber counts after a grant', async () => {
    const product = sandbox().store.products[2];
    const student = sandbox().store.students.find((candidate) => !sandbox().store.subscriptionFor(candidate.id, product?.id ?? ''));
    const before = await call<Data<Product>>(sandbox(), `/api/v1/products/${product?.id}`);
    await call(sandbox(), `/api/v1/students/${student?.id}/products`, { method: 'POST', body: { product_id: product?.id, accession_date: '2025-07-10' } });
    const after = await call<Data<Product>>(sandbox(), `/api/v1/products/${product?.id}`);
    expect(after.body.data.subscribers).toEqual({ ...before.body.data.subscribers, active: before.body.data.subscribers.active + 1 });
  });
});

describe('subscriptions', () => {
  it('lists every subscription, whatever its status, each with product and student', async () => {
    const subscriptions = await fetchAll<SubscriptionJson>(sandbox(), '/api/v1/subscriptions?per_page=100');
    expect(subscriptions.map((subscription) => subscription.id)).toEqual(sandbox().store.subscriptions.map((subscription) => subscription.id));
    expect(new Set(subscriptions.map((subscription) => subscription.status))).toEqual(new Set(['active', 'inactive', 'refunded', 'chargeback', 'canceled']));
    for (const subscription of subscriptions) {
      const student = sandbox().store.student(subscription.student?.id ?? '');
      expect(subscription.student).toEqual({
        id: student?.id,
        first_name: student?.first_name,
        last_name: student?.last_name,
        full_name: student?.last_name === null ? student.first_name : `${student?.first_name} ${student?.last_name}`,
        email: student?.email,
      });
      expect(subscription.product.id).toBe(subscription.product_id);
    }
  });

  it('has canceled and refunded subscriptions that keep access, and most active ones with access', async () => {
    const subscriptions = await fetchAll<SubscriptionJson>(sandbox(), '/api/v1/subscriptions?per_page=100');
    expect(subscriptions.some((subscription) => subscription.status === 'canceled' && subscription.active === 1)).toBe(true);
    expect(subscriptions.some((subscription) => subscription.status === 'refunded' && subscription.active === 1)).toBe(true);
    const active = subscriptions.filter((subscription) => subscription.status === 'active');
    expect(active.filter((subscription) => subscription.active === 1).length).toBeGreaterThan(active.length / 2);
    expect(subscriptions.filter((subscription) => subscription.status === 'chargeback').every((subscription) => subscription.active === 0)).toBe(true);
  });

  it('gets one subscription with product and student, and 404 SubscriptionNotFoundException for an unknown id', async () => {
    const subscription = sandbox().store.subscriptions[7];
    const found = await call<Data<SubscriptionJson>>(sandbox(), `/api/v1/subscriptions/${subscription?.id}`);
    expect(found.body.data).toMatchObject({ id: subscription?.id, status: subscription?.status, active: subscription?.active, student: { id: subscription?.student_id } });
    const missing = await call<ErrorBody>(sandbox(), '/api/v1/subscriptions/nope');
    expect(missing.body).toEqual({ message: 'Subscription not found.', exception: 'SubscriptionNotFoundException' });
  });
});
