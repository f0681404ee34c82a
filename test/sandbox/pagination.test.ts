/**
 * `meta.links`, which every Laravel length-aware paginator sends (LengthAwarePaginator::linkCollection
 * with UrlWindow, onEachSide 3), in every flavor; simplePaginate() has none.
 */
import { describe, expect, it } from 'vitest';
import { call, useSandbox, type Page, type PageLink, type StudentJson } from './helpers.js';

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
