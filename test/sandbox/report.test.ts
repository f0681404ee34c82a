import { describe, expect, it } from 'vitest';
import { computeEngagedReport, type ReportRow, type Sandbox } from '../../src/sandbox/server.js';
import { call, useSandbox, type ErrorBody } from './helpers.js';

const sandbox = useSandbox({ students: 120, seed: 42 });

interface ReportPage {
  data: ReportRow[];
  path: string;
  per_page: number;
  next_cursor: string | null;
  next_page_url: string | null;
  prev_cursor: string | null;
  prev_page_url: string | null;
}

const UA = { 'user-agent': 'members-cli/test', accept: 'application/json' };

function reportPath(box: Sandbox, query = '', tokens = [box.developerToken, box.platformToken]): string {
  return `/api/partners/reports/engaged-courses/${tokens.join('/')}${query}`;
}

async function page(box: Sandbox, pathOrUrl: string): Promise<ReportPage> {
  const reply = await call<ReportPage>(box, pathOrUrl, { token: null, headers: UA });
  if (reply.status !== 200) throw new Error(`${pathOrUrl} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Follows next_page_url from the first page; returns every page. */
async function allPages(box: Sandbox, topCourses: number, limit: number): Promise<ReportPage[]> {
  const pages = [await page(box, reportPath(box, `?top_courses=${topCourses}&limit=${limit}`))];
  for (let next = pages[0]?.next_page_url; next; next = pages[pages.length - 1]?.next_page_url) pages.push(await page(box, next));
  return pages;
}

/** The report computed here from the store, independently of src/sandbox/report.ts. */
function expectedCourses(box: Sandbox): { id: string; average: string; rows: { userId: string; completion: number; productId: string }[] }[] {
  const store = box.store;
  const courses = store.courses.map((course) => {
    const rows: { userId: string; completion: number; productId: string }[] = [];
    for (const progress of store.progressOf(course.id).values()) {
      const via = store
        .subscriptionsOf(progress.student_id)
        .find((subscription) => subscription.active === 1 && store.product(subscription.product_id)?.course_ids.includes(course.id));
      if (via) rows.push({ userId: progress.student_id, completion: progress.completion, productId: via.product_id });
    }
    const mean = rows.reduce((sum, row) => sum + row.completion, 0) / rows.length;
    rows.sort((a, b) => b.completion - a.completion || (a.userId < b.userId ? -1 : 1));
    return { id: course.id, mean, average: (Math.round(mean) / 100).toFixed(2), rows };
  });
  return courses
    .filter((course) => course.rows.length > 0)
    .sort((a, b) => b.mean - a.mean || (a.id < b.id ? -1 : 1));
}

describe('engaged-courses report', () => {
  it('serves the whole report on one page by default: top 10, limit 500, no cursors', async () => {
    const box = sandbox();
    const body = await page(box, reportPath(box));
    expect(body.per_page).toBe(500);
    expect(body.path).toBe(`${box.url}${reportPath(box)}`);
    expect(body).toMatchObject({ next_cursor: null, next_page_url: null, prev_cursor: null, prev_page_url: null });
    expect(body.data).toEqual(computeEngagedReport(box.store, 10));
    expect(new Set(body.data.map((row) => row.course_id)).size).toBe(10);
  });

  it('ranks courses by average completion of active enrolments, ties by course id, rows by completion then user', () => {
    const box = sandbox();
    const expected = expectedCourses(box).slice(0, 10);
    const rows = computeEngagedReport(box.store, 10);
    const flattened = expected.flatMap((course) => course.rows.map((row) => ({ ...row, courseId: course.id, average: course.average })));
    expect(rows.map((row) => [row.course_id, row.user_id, row.course_completion_percent, row.course_avg_engagement_score])).toEqual(
      flattened.map((row) => [row.courseId, row.userId, (row.completion / 100).toFixed(2), row.average]),
    );
    expect(rows.map((row) => row.product_name)).toEqual(flattened.map((row) => box.store.product(row.productId)?.title));
  });

  it('includes enrolments kept through canceled or refunded subscriptions, and leaves out those without access', () => {
    const box = sandbox();
    const rows = computeEngagedReport(box.store, 50);
    const via = (row: ReportRow) => box.store.subscriptionsOf(row.user_id).find((subscription) => box.store.product(subscription.product_id)?.title === row.product_name);
    expect(rows.some((row) => ['canceled', 'refunded'].includes(via(row)?.status ?? ''))).toBe(true);
    const reported = new Set(rows.map((row) => row.id));
    const progressRows = box.store.courses.flatMap((course) => [...box.store.progressOf(course.id).keys()].map((userId) => `${userId}|${course.id}`));
    expect(progressRows.length).toBeGreaterThan(reported.size);
  });

  it('fills every row from the student and the subscription that grants access', () => {
    const box = sandbox();
    for (const row of computeEngagedReport(box.store, 3)) {
      const student = box.store.student(row.user_id);
      const subscription = box.store.subscriptionsOf(row.user_id).find((candidate) => box.store.product(candidate.product_id)?.title === row.product_name);
      expect(row).toEqual({
        id: `${row.user_id}|${row.course_id}`,
        user_id: student?.id,
        course_id: row.course_id,
        course_name: box.store.course(row.course_id)?.title,
        product_name: row.product_name,
        first_name: student?.first_name,
        last_name: student?.last_name,
        phone: student?.phone,
        document: student?.document,
        email: student?.email,
        registration_date: `${subscription?.accession_date} 00:00:00`,
        course_completion_percent: expect.stringMatching(/^\d{1,3}\.\d{2}$/),
        course_avg_engagement_score: expect.stringMatching(/^\d{1,3}\.\d{2}$/),
      });
      expect(subscription?.active).toBe(1);
    }
  });

  it.each([
    [2, 3],
    [7, 10],
    [500, 50],
  ])('with limit %i and top_courses %i, the cursor chain covers every row exactly once, in order', async (limit, topCourses) => {
    const box = sandbox();
    const pages = await allPages(box, topCourses, limit);
    const expected = computeEngagedReport(box.store, topCourses);
    expect(pages.flatMap((body) => body.data)).toEqual(expected);
    expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
    for (const body of pages) {
      expect(body.per_page).toBe(limit);
      expect(body.data.length).toBeLessThanOrEqual(limit);
      if (body.next_page_url) {
        const next = new URL(body.next_page_url);
        expect(next.origin + next.pathname).toBe(body.path);
        expect(Object.fromEntries(next.searchParams)).toEqual({ top_courses: String(topCourses), limit: String(limit), cursor: body.next_cursor });
      }
    }
    expect(pages[pages.length - 1]?.next_cursor).toBeNull();
  });

  it('goes back with prev_cursor and accepts the cursor as a query parameter', async () => {
    const box = sandbox();
    const first = await page(box, reportPath(box, '?top_courses=5&limit=7'));
    const second = await page(box, reportPath(box, `?top_courses=5&limit=7&cursor=${first.next_cursor}`));
    expect(second.data).toEqual(computeEngagedReport(box.store, 5).slice(7, 14));
    expect(second.prev_cursor).not.toBeNull();
    const back = await page(box, second.prev_page_url ?? '');
    expect(back.data).toEqual(first.data);
    expect(back.prev_cursor).toBeNull();
  });

  it('counts only enrolments whose subscription keeps access, and follows changes to the data', async () => {
    const box = sandbox();
    const product = box.store.products.find((candidate) => candidate.course_ids.length === 1);
    const courseId = product?.course_ids[0] ?? '';
    const student = box.store.students.find((candidate) =>
      box.store
        .subscriptionsOf(candidate.id)
        .every((subscription) => subscription.product_id !== product?.id && !(subscription.active === 1 && box.store.product(subscription.product_id)?.course_ids.includes(courseId))),
    );
    if (!product || !student) throw new Error('no student without access to a single-course product');
    const rowId = `${student.id}|${courseId}`;
    expect(computeEngagedReport(box.store, 50).some((row) => row.id === rowId)).toBe(false);

    await call(box, `/api/v1/students/${student.id}/products`, { method: 'POST', body: { product_id: product.id, accession_date: '2025-07-15' } });
    const granted = (await page(box, reportPath(box, '?top_courses=50'))).data.find((row) => row.id === rowId);
    expect(granted).toMatchObject({ product_name: product.title, registration_date: '2025-07-15 00:00:00' });

    await call(box, `/api/v1/students/${student.id}/products/${product.id}`, { method: 'DELETE' });
    expect((await page(box, reportPath(box, '?top_courses=50'))).data.some((row) => row.id === rowId)).toBe(false);
  });

  it('answers 401 to a wrong or empty token', async () => {
    const box = sandbox();
    for (const tokens of [[box.developerToken, 'wrong'], ['wrong', box.platformToken], ['', box.platformToken], [box.platformToken, box.developerToken]]) {
      const reply = await call<ErrorBody>(box, reportPath(box, '', tokens), { token: null, headers: UA });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('answers 403 without a User-Agent header', async () => {
    const box = sandbox();
    const reply = await call<ErrorBody>(box, reportPath(box), { token: null });
    expect(reply.status).toBe(403);
  });

  it('does not need the API bearer token', async () => {
    const box = sandbox();
    expect((await call(box, reportPath(box, '?limit=2'), { headers: UA })).status).toBe(200);
  });

  it.each([
    ['top_courses=0', 'top_courses', 'The top courses field must be between 1 and 50.'],
    ['top_courses=51', 'top_courses', 'The top courses field must be between 1 and 50.'],
    ['top_courses=ten', 'top_courses', 'The top courses field must be an integer.'],
    ['limit=1', 'limit', 'The limit field must be between 2 and 500.'],
    ['limit=501', 'limit', 'The limit field must be between 2 and 500.'],
    ['limit=2.5', 'limit', 'The limit field must be an integer.'],
    ['cursor=not*base64', 'cursor', 'The cursor is invalid.'],
    [`cursor=${Buffer.from('{"offset":"x"}').toString('base64url')}`, 'cursor', 'The cursor is invalid.'],
  ])('answers 422 to %s', async (query, field, message) => {
    const box = sandbox();
    const reply = await call<ErrorBody>(box, reportPath(box, `?${query}`), { token: null, headers: UA });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ message, errors: { [field]: [message] } });
  });

  it('answers 422 to a cursor sent with other top_courses or limit values than it was issued for', async () => {
    const box = sandbox();
    const first = await page(box, reportPath(box, '?top_courses=4&limit=5'));
    const reply = await call<ErrorBody>(box, reportPath(box, `?top_courses=4&limit=6&cursor=${first.next_cursor}`), { token: null, headers: UA });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors ?? {})).toEqual(['cursor']);
  });
});
