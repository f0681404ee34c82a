/** The laravel flavor: each reading of a Laravel 8 application (src/sandbox/README.md, "The laravel flavor"). */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { subscriptionNumber, zoneOffsetMs } from '../../src/sandbox/laravel.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { call, useSandbox, type Data, type ErrorBody, type StudentJson } from './helpers.js';

interface LaravelPage {
  data: Array<Record<string, unknown>>;
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: Record<string, unknown>;
}

describe('laravel flavor, paginate()', () => {
  const sandbox = useSandbox({ students: 40, flavor: 'laravel' });

  it('links carry page alone, meta.per_page echoes the query string, meta.links is the page-link array', async () => {
    const { body } = await call<LaravelPage>(sandbox(), '/api/v1/students?per_page=10&with=subscriptions&page=2');
    const path = `${sandbox().url}/api/v1/students`;
    expect(body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=4`, prev: `${path}?page=1`, next: `${path}?page=3` });
    expect(body.meta).toEqual({
      current_page: 2, from: 11, last_page: 4,
      links: [
        { url: `${path}?page=1`, label: '&laquo; Previous', active: false },
        ...[1, 2, 3, 4].map((n) => ({ url: `${path}?page=${n}`, label: String(n), active: n === 2 })),
        { url: `${path}?page=3`, label: 'Next &raquo;', active: false },
      ],
      path, per_page: '10', to: 20, total: 40,
    });
  });

  it('keeps a window of pages with ... gaps on long lists', async () => {
    const { body } = await call<LaravelPage>(sandbox(), '/api/v1/students?per_page=1&page=20');
    const labels = (body.meta.links as Array<{ label: string }>).map((link) => link.label);
    expect(labels).toEqual(['&laquo; Previous', '1', '2', '...', '17', '18', '19', '20', '21', '22', '23', '...', '39', '40', 'Next &raquo;']);
  });

  it('serialises date casts as UTC instants of midnight in the server zone (Asia/Tokyo), ids of subscriptions as integers', async () => {
    const student = sandbox().store.students.find((record) => record.birth !== null)!;
    const { body } = await call<Data<StudentJson>>(sandbox(), `/api/v1/students/${student.id}`);
    const [year, month, day] = student.birth!.split('-').map(Number) as [number, number, number];
    expect(body.data.birth).toBe(`${new Date(Date.UTC(year, month - 1, day) - 9 * 3_600_000).toISOString().slice(0, 19)}.000000Z`);
    const subscription = body.data.subscriptions![0]!;
    expect(subscription.accession_date).toMatch(/T15:00:00\.000000Z$/);
    expect(typeof subscription.id).toBe('number');
    const byNumber = await call<Data<{ id: number }>>(sandbox(), `/api/v1/subscriptions/${subscription.id}`);
    expect(byNumber.body.data.id).toBe(subscription.id);
  });

  it('escapes / and non-ASCII characters as json_encode does', async () => {
    const response = await request(`${sandbox().url}/api/v1/products`, { headers: { authorization: `Bearer ${sandbox().apiToken}` } });
    const text = await response.body.text();
    expect(text).toContain('http:\\/\\/');
    expect([...text].every((char) => char.charCodeAt(0) < 0x80)).toBe(true);
    expect(text).toMatch(/\\u00[0-9a-f]{2}/);
  });

  it('is a route miss, 404 {"message": ""}, when a parameter holds an encoded slash', async () => {
    const reply = await call<ErrorBody>(sandbox(), '/api/v1/students/document/12.345.678%2F0001-90');
    expect(reply).toMatchObject({ status: 404, body: { message: '' } });
  });

  it('answers a missing model and a failed validation as the exception handler does with debug off', async () => {
    expect((await call<ErrorBody>(sandbox(), '/api/v1/students/nobody')).body).toEqual({ message: 'No query results for model [App\\Models\\Student].' });
    expect((await call<ErrorBody>(sandbox(), '/api/v1/courses/nothing')).body).toEqual({ message: 'Course not found.' });
    const invalid = await call<ErrorBody>(sandbox(), '/api/v1/students', { method: 'POST', body: { first_name: 'Ana' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('The given data was invalid.');
    expect(invalid.body.errors?.email).toEqual(['The email field is required.']);
  });

  it('answers PUT scores with 201', async () => {
    const student = sandbox().store.students[0]!;
    expect((await call(sandbox(), `/api/v1/students/${student.id}/scores`, { method: 'PUT', body: { score: 3 } })).status).toBe(201);
  });

  it('gives the Laravel 8 cursor page: no cursors, bare page URLs', async () => {
    const { developerToken, platformToken, url } = sandbox();
    const reply = await call<Record<string, unknown>>(sandbox(), `/api/partners/reports/engaged-courses/${developerToken}/${platformToken}?limit=2&top_courses=3`, {
      token: null, headers: { 'user-agent': 'test' },
    });
    expect(Object.keys(reply.body)).toEqual(['data', 'path', 'per_page', 'next_page_url', 'prev_page_url']);
    expect(reply.body.per_page).toBe('2');
    expect(reply.body.next_page_url).toMatch(new RegExp(`^${url}/api/partners/reports/engaged-courses/[^?]+\\?cursor=[A-Za-z0-9_-]+$`));
  });
});

describe('laravel flavor, simplePaginate()', () => {
  const sandbox = useSandbox({ students: 25, flavor: 'laravel', dialect: { paginator: 'simple', serverTz: 'America/Sao_Paulo' } });

  it('has no last_page, total or last link; next is null on the last page', async () => {
    const path = `${sandbox().url}/api/v1/students`;
    const first = await call<LaravelPage>(sandbox(), '/api/v1/students?per_page=10');
    expect(first.body.links).toEqual({ first: `${path}?page=1`, last: null, prev: null, next: `${path}?page=2` });
    expect(first.body.meta).toEqual({ current_page: 1, from: 1, path, per_page: '10', to: 10 });
    const last = await call<LaravelPage>(sandbox(), '/api/v1/students?per_page=10&page=3');
    expect(last.body.links.next).toBeNull();
    expect(last.body.data).toHaveLength(5);
  });

  it('puts midnight of a server west of UTC on the same day', async () => {
    const { body } = await call<LaravelPage>(sandbox(), '/api/v1/subscriptions?per_page=1');
    expect(body.data[0]!.accession_date).toMatch(/T03:00:00\.000000Z$/);
  });
});

describe('zones', () => {
  it('knows the offset of a zone at an instant, DST included', () => {
    expect(zoneOffsetMs('Asia/Tokyo', Date.UTC(2025, 0, 1))).toBe(9 * 3_600_000);
    expect(zoneOffsetMs('Pacific/Auckland', Date.UTC(2025, 0, 15))).toBe(13 * 3_600_000);
    expect(zoneOffsetMs('Pacific/Auckland', Date.UTC(2025, 6, 15))).toBe(12 * 3_600_000);
  });

  it('numbers a subscription by the first 48 bits of its uuid', () => {
    expect(subscriptionNumber('00000000-0001-4000-8000-000000000000')).toBe(1);
  });

  it('refuses an unknown server time zone', async () => {
    await expect(startSandbox({ flavor: 'laravel', dialect: { serverTz: 'Mars/Olympus' } })).rejects.toThrow(RangeError);
  });
});

describe('maintenance mode', () => {
  const sandbox = useSandbox({ students: 3, maintenance: true });

  it('answers 503 to every API request until it is turned off', async () => {
    expect(await call(sandbox(), '/api/v1/products')).toMatchObject({ status: 503, body: { message: 'Service Unavailable' } });
    expect((await call(sandbox(), '/__sandbox/maintenance', { method: 'PUT', body: { down: false } })).status).toBe(204);
    expect((await call(sandbox(), '/api/v1/products')).status).toBe(200);
  });
});
