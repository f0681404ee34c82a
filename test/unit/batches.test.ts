import { describe, expect, it } from 'vitest';
import { batched, batchesOf, eachBatch } from '../../src/lib/batches.js';
import { walkCursor, walkPages } from '../../src/api/pagination/paginate.js';
import { csvFormat } from '../../src/output/csv.js';

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const pages = () => batched(async function* () {
  yield [1, 2];
  yield [3];
});

describe('batches', () => {
  it('a batched list is read a batch at a time by batchesOf, and a record at a time by for await', async () => {
    expect(await all(batchesOf(pages()))).toEqual([[1, 2], [3]]);
    expect(await all(pages())).toEqual([1, 2, 3]);
  });

  it('an array is one batch, an unbatched async list a batch per record', async () => {
    expect(await all(batchesOf([1, 2, 3]))).toEqual([[1, 2, 3]]);
    async function* one() {
      yield 1;
      yield 2;
    }
    expect(await all(batchesOf(one()))).toEqual([[1], [2]]);
  });

  it('eachBatch keeps the batches and runs nothing until read', async () => {
    let calls = 0;
    const doubled = eachBatch(pages(), (batch) => {
      calls++;
      return batch.map((n) => n * 2);
    });
    expect(calls).toBe(0);
    expect(await all(batchesOf(doubled))).toEqual([[2, 4], [6]]);
    expect(calls).toBe(2);
  });

  it('the walks hand over their pages whole: one batch per page', async () => {
    const byNumber = walkPages(
      async (page) => ({ records: [page * 10, page * 10 + 1], info: { currentPage: page, lastPage: 3, perPage: 2, total: 6 } }),
      () => Promise.reject(new Error('no links')),
      { all: true, concurrency: 2 },
    );
    expect(await all(batchesOf(byNumber))).toEqual([[10, 11], [20, 21], [30, 31]]);
    const byCursor = walkCursor(async (target) => (target === undefined
      ? { records: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c2' }
      : { records: [{ id: 'c' }], nextCursor: null }), {});
    expect(await all(batchesOf(byCursor))).toEqual([[{ id: 'a' }, { id: 'b' }], [{ id: 'c' }]]);
  });

  it('--limit cuts the last page it needs, still as one batch', async () => {
    const walk = walkPages(
      async (page) => ({ records: [page * 10, page * 10 + 1, page * 10 + 2], info: { currentPage: page, lastPage: 3, perPage: 3, total: 9 } }),
      () => Promise.reject(new Error('no links')),
      { all: false, limit: 5, concurrency: 2 },
    );
    expect(await all(batchesOf(walk))).toEqual([[10, 11, 12], [20, 21]]);
  });

  it('a format awaits a write only when the destination asks it to wait', async () => {
    const written: string[] = [];
    let waits = 0;
    const write = (text: string) => {
      written.push(text);
      if (written.length % 2 === 0) return undefined;
      waits++;
      return Promise.resolve();
    };
    const records = batched(async function* () {
      yield [{ a: '1' }, { a: '2' }];
      yield [{ a: '3' }];
    });
    const count = await csvFormat(write, { header: true, raw: false, dialect: 'rfc4180' }).list(records, { noun: 'rows', columns: [] });
    expect(count).toBe(3);
    expect(written.join('')).toBe('a\n1\n2\n3\n');
    expect(waits).toBe(2);
  });
});
