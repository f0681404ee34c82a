/**
 * `meta.links`, which every Laravel length-aware paginator sends (LengthAwarePaginator::linkCollection
 * with UrlWindow, onEachSide 3), in every flavor; simplePaginate() has none. Then the page size of
 * controllers that do not pass `per_page` through (`--per-page-ignored`, `--per-page-max`).
 */
import { describe, expect, it } from 'vitest';
import { startSandbox, type PageSize, type SandboxOptions } from '../../src/sandbox/server.js';
import { call, fetchAll, useSandbox, type Page, type PageLink, type StudentJson } from './helpers.js';

const labels = (links: PageLink[]) => links.map((link) => link.label);

describe('meta.links, default flavor', () => {
  const sandbox = useSandbox({ students: 40 });
  const base = () => `${sandbox().url}/api/v1/students`;
  const page = async (query: string) => (await call<Page<StudentJson>>(sandbox(), `/api/v1/students?${query}`)).body;

  it('is Previous, every page, Next on a short list; links keep the query as the other links do, the current page is active', async () => {
    const { links, meta } = await page('per_page=10&page=2');
    const url = (n: number) => `${base()}?per_page=10&page=${n}`;
    expect(meta.links).toEqual([
      { url: url(1), label: '&laquo; Previous', active: false },
      ...[1, 2, 3, 4].map((n) => ({ url: url(n), label: String(n), active: n === 2 })),
      { url: url(3), label: 'Next &raquo;', active: false },
    ]);
    expect(meta.links[0]?.url).toBe(links.prev);
    expect(meta.links.at(-1)?.url).toBe(links.next);
  });

  it('has no Previous on the first page and no Next on the last', async () => {
    expect((await page('per_page=10&page=1')).meta.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect((await page('per_page=10&page=4')).meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('shows every page up to 13 pages, then a window with ... gaps', async () => {
    expect(labels((await page('per_page=4&page=1')).meta.links)).toEqual(['&laquo; Previous', ...Array.from({ length: 10 }, (_, i) => String(i + 1)), 'Next &raquo;']);
    const ends = ['39', '40'];
    // Near the start: the first 10 pages, ..., the last two.
    expect(labels((await page('per_page=1&page=7')).meta.links))
      .toEqual(['&laquo; Previous', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '...', ...ends, 'Next &raquo;']);
    // In the middle: the first two, three either side of the current page, the last two.
    expect(labels((await page('per_page=1&page=8')).meta.links))
      .toEqual(['&laquo; Previous', '1', '2', '...', '5', '6', '7', '8', '9', '10', '11', '...', ...ends, 'Next &raquo;']);
    // Near the end: the first two, ..., the last 10 pages.
    expect(labels((await page('per_page=1&page=34')).meta.links))
      .toEqual(['&laquo; Previous', '1', '2', '...', '31', '32', '33', '34', '35', '36', '37', '38', '39', '40', 'Next &raquo;']);
    const gap = (await page('per_page=1&page=20')).meta.links.find((link) => link.label === '...');
    expect(gap).toEqual({ url: null, label: '...', active: false });
  });

  it('has one page past the end of the list, none of them active', async () => {
    const { meta } = await page('per_page=10&page=9');
    expect(meta.links.filter((link) => link.active)).toEqual([]);
    expect(labels(meta.links)).toEqual(['&laquo; Previous', '1', '2', '3', '4', 'Next &raquo;']);
  });
});

describe('meta.links on an empty list', () => {
  const sandbox = useSandbox({ students: 0 });

  it('is the one page Laravel counts, with neither Previous nor Next', async () => {
    const { body } = await call<Page<StudentJson>>(sandbox(), '/api/v1/students');
    expect(body.meta.links).toEqual([
      { url: null, label: '&laquo; Previous', active: false },
      { url: `${sandbox().url}/api/v1/students?page=1`, label: '1', active: true },
      { url: null, label: 'Next &raquo;', active: false },
    ]);
  });
});

describe('simplePaginate()', () => {
  const sandbox = useSandbox({ students: 25, dialect: { paginator: 'simple' } });

  it('sends no meta.links, as Laravel\'s Paginator::toArray has none', async () => {
    const { body } = await call<{ meta: Record<string, unknown> }>(sandbox(), '/api/v1/students');
    expect(Object.keys(body.meta)).toEqual(['current_page', 'from', 'path', 'per_page', 'to']);
  });
});

/**
 * Controllers that do not pass `per_page` through (the dialect's `pageSize`, `--per-page-ignored`
 * and `--per-page-max`), under each paginator and flavor: the page size the server really uses is
 * what the records, `meta.per_page` and the page count say, whatever was asked.
 */
const SHAPES = [
  ['default', {}],
  ['laravel', { flavor: 'laravel' }],
  ['simple', { dialect: { paginator: 'simple' } }],
  ['laravel simple', { flavor: 'laravel', dialect: { paginator: 'simple' } }],
] as const satisfies ReadonlyArray<readonly [string, SandboxOptions]>;

type AnyPage = Page<StudentJson> & { meta: { per_page: number | string } };

/** A sandbox of `students` with `pageSize` over the shape's dialect, and a page of its student list. */
function pagedSandbox(shape: SandboxOptions, students: number, pageSize: PageSize) {
  const sandbox = useSandbox({ ...shape, students, dialect: { ...('dialect' in shape ? shape.dialect : {}), pageSize } });
  const get = (query: string) => call<AnyPage>(sandbox(), `/api/v1/students?${query}`);
  const ids = () => sandbox().store.students.map((student) => student.id);
  const simple = 'dialect' in shape;
  return { sandbox, get, ids, simple };
}

describe.each(SHAPES)('--per-page-ignored 15: a controller calling ->paginate(15) (%s)', (_name, shape) => {
  const { sandbox, get, ids, simple } = pagedSandbox(shape, 40, { kind: 'ignored', size: 15 });

  it('serves 15 records a page whatever per_page asks, and meta.per_page says 15 (a number)', async () => {
    for (const query of ['', 'per_page=100', 'per_page=5', 'per_page=100000', 'per_page=abc', 'per_page=0']) {
      const { status, body } = await get(`${query}&page=1`);
      expect(status, query).toBe(200);
      expect(body.data.map((student) => student.id), query).toEqual(ids().slice(0, 15));
      expect(body.meta.per_page, query).toBe(15);
    }
  });

  it('counts its pages in 15s, the last one short, and a walk of links.next reads every student once', async () => {
    const last = await get('per_page=100&page=3');
    expect(last.body.data.map((student) => student.id)).toEqual(ids().slice(30, 40));
    expect(last.body.links.next).toBeNull();
    expect([last.body.meta.from, last.body.meta.to]).toEqual([31, 40]);
    if (!simple) expect([last.body.meta.last_page, last.body.meta.total]).toEqual([3, 40]);
    expect((await get('per_page=100&page=2')).body.links.next).not.toBeNull();
    expect((await fetchAll<StudentJson>(sandbox(), '/api/v1/students?per_page=100')).map((student) => student.id)).toEqual(ids());
  });

  it('applies to every paginated list', async () => {
    const { body } = await call<AnyPage>(sandbox(), '/api/v1/subscriptions?per_page=100');
    expect(body.data).toHaveLength(15);
    expect(body.meta.per_page).toBe(15);
  });
});

describe.each(SHAPES)('--per-page-max 50: a controller calling ->paginate(min($request->per_page, 50)) (%s)', (_name, shape) => {
  const { get, ids, simple } = pagedSandbox(shape, 120, { kind: 'capped', max: 50 });
  // Laravel keeps what the controller passed: the query's text when min() returned it, the cap (a number) when it clamped.
  const asked = (n: number) => ('flavor' in shape ? String(n) : n);

  it('clamps a per_page above 50 to 50 without a 422, meta.per_page says 50 (a number)', async () => {
    for (const perPage of [51, 100, 500, 100_000]) {
      const { status, body } = await get(`per_page=${perPage}`);
      expect(status, String(perPage)).toBe(200);
      expect(body.data.map((student) => student.id)).toEqual(ids().slice(0, 50));
      expect(body.meta.per_page).toBe(50);
      if (!simple) expect(body.meta.last_page).toBe(3);
    }
  });

  it('honours a per_page up to 50, defaults to 15, and still refuses one below 1', async () => {
    expect((await get('per_page=50')).body.meta.per_page).toBe(asked(50));
    const ten = await get('per_page=10&page=2');
    expect(ten.body.data.map((student) => student.id)).toEqual(ids().slice(10, 20));
    expect(ten.body.meta.per_page).toBe(asked(10));
    expect((await get('')).body.data).toHaveLength(15);
    expect((await get('per_page=0')).status).toBe(422);
  });

  it('counts its pages in 50s: pages 1 to 3 asked with per_page=100 hold every student once', async () => {
    const last = await get('per_page=100&page=3');
    expect(last.body.data.map((student) => student.id)).toEqual(ids().slice(100, 120));
    expect(last.body.links.next).toBeNull();
    if (!simple) expect([last.body.meta.last_page, last.body.meta.total]).toEqual([3, 120]);
    // By number: the laravel flavor's links carry `page` alone, so following them would fall back to 15 a page.
    const pages = await Promise.all([1, 2, 3].map(async (page) => (await get(`per_page=100&page=${page}`)).body.data));
    expect(pages.flat().map((student) => student.id)).toEqual(ids());
  });
});

describe('a cap above the sandbox\'s own 100', () => {
  const sandbox = useSandbox({ students: 300, dialect: { pageSize: { kind: 'capped', max: 200 } } });

  it('lets per_page go up to it', async () => {
    const { status, body } = await call<AnyPage>(sandbox(), '/api/v1/students?per_page=150');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(150);
    expect((await call<AnyPage>(sandbox(), '/api/v1/students?per_page=1000')).body.meta.per_page).toBe(200);
  });
});

describe('page sizes that cannot be', () => {
  it('are refused when the sandbox starts', async () => {
    await expect(startSandbox({ dialect: { pageSize: { kind: 'ignored', size: 0 } } })).rejects.toThrow(/pageSize's size must be an integer ≥ 1/);
    await expect(startSandbox({ dialect: { pageSize: { kind: 'capped', max: 2.5 } } })).rejects.toThrow(/pageSize's max must be an integer ≥ 1/);
  });
});
