/**
 * The emulator and the client must agree: every sandbox response parses with
 * the very zod schemas the CLI validates real responses with. A field the
 * sandbox sends with another type, or a null where the client expects a
 * value, fails here rather than in an end-to-end test's error message.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Course, CourseAccess, MagicLink, Product, ReportItem, Score, Student, Subscription, cursorPage, one, page,
} from '../../src/api/endpoints/schemas.js';
import { call, useSandbox } from './helpers.js';

const sandbox = useSandbox({ students: 60, seed: 9 });

async function parsed<S extends z.ZodType>(schema: S, path: string, options: Parameters<typeof call>[2] = {}): Promise<z.infer<S>> {
  const reply = await call(sandbox(), path, options);
  expect(reply.status, `${options.method ?? 'GET'} ${path}`).toBeLessThan(300);
  const result = schema.safeParse(reply.body);
  expect(result.success ? [] : result.error.issues, `${path} matches the client's schema`).toEqual([]);
  return result.data as z.infer<S>;
}

describe('sandbox responses parse with the client schemas', () => {
  it('students: list (with and without subscriptions), every lookup, products, scores, magic link', async () => {
    const list = await parsed(page(Student), '/api/v1/students?per_page=100&with=subscriptions');
    await parsed(page(Student), '/api/v1/students?page=2');
    for (const student of list.data) {
      await parsed(one(Student), `/api/v1/students/${student.id}`);
      await parsed(z.looseObject({ data: z.array(Subscription) }), `/api/v1/students/${student.id}/products`);
    }
    const [first] = list.data as Array<z.infer<typeof Student>>;
    const withDocument = list.data.find((s) => s.document && s.reference_id) as z.infer<typeof Student>;
    await parsed(one(Student), `/api/v1/students/email/${encodeURIComponent(first!.email as string)}`);
    await parsed(one(Student), `/api/v1/students/document/${encodeURIComponent(withDocument.document as string)}`);
    await parsed(one(Student), `/api/v1/students/reference/${encodeURIComponent(withDocument.reference_id as string)}`);
    await parsed(one(Score), `/api/v1/students/${first!.id}/scores`);
    await parsed(one(Score), `/api/v1/students/${first!.id}/scores`, { method: 'PUT', body: { score: 7 } });
    await parsed(one(MagicLink), `/api/v1/students/${first!.id}/magic-link`, { method: 'POST', body: { expire_in: 3600 } });
  });

  it('a created student and a granted product', async () => {
    const created = await parsed(one(Student), '/api/v1/students', {
      method: 'POST', body: { first_name: 'Conceição', last_name: 'Araújo', email: 'conceicao+schema@example.com.br', document: 'RG/12345' },
    });
    const products = await parsed(page(Product), '/api/v1/products?per_page=100');
    await parsed(one(Subscription), `/api/v1/students/${created.data.id}/products`, {
      method: 'POST', body: { product_id: products.data[0]!.id, accession_date: '2026-01-31', expiration_date: '2026-12-31' },
    });
  });

  it('products, courses, accesses, subscriptions', async () => {
    const products = await parsed(page(Product), '/api/v1/products?per_page=100');
    for (const product of products.data) await parsed(one(Product), `/api/v1/products/${product.id}`);
    const courses = await parsed(page(Course), '/api/v1/courses?per_page=100');
    for (const course of courses.data) {
      await parsed(one(Course), `/api/v1/courses/${course.id}`);
      await parsed(z.looseObject({ data: z.array(CourseAccess) }), `/api/v1/courses/${course.id}/accesses`);
    }
    const subscriptions = await parsed(page(Subscription), '/api/v1/subscriptions?per_page=100');
    await parsed(one(Subscription), `/api/v1/subscriptions/${subscriptions.data[0]!.id}`);
  });

  it('every page of the engaged-courses report', async () => {
    const { developerToken, platformToken } = sandbox();
    const headers = { 'user-agent': 'members-test' };
    let path: string | null | undefined = `/api/partners/reports/engaged-courses/${developerToken}/${platformToken}?top_courses=50&limit=25`;
    let pages = 0;
    while (path) {
      const report: z.infer<ReturnType<typeof cursorPage<typeof ReportItem>>> = await parsed(cursorPage(ReportItem), path, { token: null, headers });
      path = report.next_page_url;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
  });
});
