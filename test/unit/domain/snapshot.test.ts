/**
 * The snapshot reader (domain/snapshot.ts) against exact MockAgent pages:
 * one request per page (the first one not asked twice), every student key
 * resolved as the per-row lookups resolve it, subscriptions and holders, the
 * changes a run records, and the servers that page differently.
 */
import { describe, expect, it } from 'vitest';
import type { Student, Subscription } from '../../../src/api/endpoints/schemas.js';
import { parseStudentKey } from '../../../src/api/endpoints/student-key.js';
import { asStudent, openSnapshot, readSnapshot, Snapshot, StudentKeyFilter, SubscriptionsMissingError } from '../../../src/domain/snapshot.js';
import { MOCK_BASE, mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();

const sub = (productId: string, fields: Partial<Subscription> = {}): Subscription => ({
  id: `${productId}-x`, active: 1, status: 'active', product_id: productId, accession_date: '2024-01-01', expiration_date: null,
  product: { id: productId, title: `Title of ${productId}` }, payment_last_date: '2024-01-01', ...fields,
});
const student = (n: number, subscriptions: Subscription[] = []): Student => ({
  id: `s${n}`, first_name: `First${n}`, last_name: `Last${n}`, full_name: `First${n} Last${n}`, email: `Person${n}@Example.com`,
  document: null, reference_id: null, phone: '555', subscriptions,
});

/** Serves `students` as Laravel pages of `size`, for any query that asks page N (length-aware unless `simple`). */
function serve(students: Student[], options: { size?: number; simple?: boolean; expectQuery?: Record<string, string> } = {}) {
  const size = options.size ?? 100;
  const last = Math.max(1, Math.ceil(students.length / size));
  const asked: number[] = [];
  pool().intercept({
    method: 'GET',
    path: (path) => {
      const url = new URL(path, MOCK_BASE);
      if (url.pathname !== '/api/v1/students') return false;
      for (const [name, value] of Object.entries(options.expectQuery ?? { with: 'subscriptions', per_page: '100' })) {
        if (url.searchParams.get(name) !== value) return false;
      }
      return true;
    },
  }).reply((request) => {
    const url = new URL(request.path, MOCK_BASE);
    const page = Number(url.searchParams.get('page') ?? '1');
    asked.push(page);
    const data = students.slice((page - 1) * size, page * size);
    const link = (n: number) => `${MOCK_BASE}/api/v1/students?page=${n}`;
    const more = page * size < students.length;
    const meta = options.simple
      ? { current_page: page, per_page: size }
      : { current_page: page, last_page: last, per_page: size, total: students.length };
    return { statusCode: 200, data: { data, links: { next: more ? link(page + 1) : null }, meta } };
  }).persist();
  return asked;
}

describe('readSnapshot', () => {
  it('reads every page once, the first one not twice, and counts them', async () => {
    const asked = serve(Array.from({ length: 250 }, (_, i) => student(i)));
    const pages: number[] = [];
    const snapshot = await readSnapshot(api(), { onPage: (n) => pages.push(n) });
    expect(asked.sort()).toEqual([1, 2, 3]);
    expect(snapshot.pages).toBe(3);
    expect(snapshot.total).toBe(250);
    expect(snapshot.size).toBe(250);
    expect(pages).toEqual([1, 2, 3]);
  });

  it('tells the estimator what the first page says before reading on', async () => {
    const asked = serve(Array.from({ length: 250 }, (_, i) => student(i)));
    const opened = await openSnapshot(api());
    expect(opened.first).toStrictEqual({ records: 100, perPage: 100, lastPage: 3, total: 250, hasMore: true, withSubscriptions: true });
    expect(asked).toEqual([1]);
    await opened.read();
    await expect(opened.read()).rejects.toThrow('a snapshot is read once');
  });

  it('tells how the server writes CPFs: the spelling most documents of the first page have, punctuated on a tie', async () => {
    const holding = (documents: Array<string | null>) => documents.map((document, i) => ({ ...student(i), document }));
    const first = async (documents: Array<string | null>) => {
      pool().intercept({ method: 'GET', path: (path) => path.startsWith('/api/v1/students?') }).reply(200, {
        data: holding(documents), meta: { current_page: 1, last_page: 1, per_page: 100, total: documents.length },
      });
      return (await openSnapshot(api())).first.cpfSpelling;
    };
    expect(await first(['52998224725', '070.692.055-46', '34671969939', 'RG/1', null])).toBe('bare');
    expect(await first(['529.982.247-25', '070.692.055-46', '34671969939', ''])).toBe('punctuated');
    expect(await first(['52998224725', '070.692.055-46'])).toBe('punctuated');
    expect(await first(['RG/1234567-8', null])).toBeUndefined();
  });

  it('walks the pages of a server that ignores per_page (15 a page)', async () => {
    const asked = serve(Array.from({ length: 40 }, (_, i) => student(i)), { size: 15 });
    const opened = await openSnapshot(api());
    expect(opened.first).toMatchObject({ records: 15, perPage: 15, lastPage: 3 });
    const snapshot = await opened.read();
    expect(snapshot.total).toBe(40);
    expect(asked.sort()).toEqual([1, 2, 3]);
  });

  it('follows links.next on a simplePaginate server', async () => {
    const asked = serve(Array.from({ length: 230 }, (_, i) => student(i)), { simple: true });
    const opened = await openSnapshot(api());
    expect(opened.first).toStrictEqual({ records: 100, perPage: 100, hasMore: true, withSubscriptions: true });
    expect(await opened.probe(3)).toBe(30);
    expect(await opened.probe(4)).toBe(0);
    const snapshot = await opened.read();
    expect(asked).toEqual([1, 3, 4, 2, 3]);
    expect(snapshot).toMatchObject({ pages: 3, total: 230 });
  });

  it('refuses a list whose students come without subscriptions although asked', async () => {
    const bare = (n: number): Student => {
      const { subscriptions: _none, ...rest } = student(n);
      return rest;
    };
    serve([student(1), bare(2)]);
    const opened = await openSnapshot(api());
    expect(opened.first.withSubscriptions).toBe(false);
    await expect(opened.read()).rejects.toBeInstanceOf(SubscriptionsMissingError);
    expect(new SubscriptionsMissingError().message).toBe(
      'the server sent the student list without the students\' subscriptions (it ignores with=subscriptions); run with --strategy rows',
    );
  });

  it('asks for the students alone when subscriptions are not needed', async () => {
    const { subscriptions: _none, ...bare } = student(1);
    const asked = serve([bare], { expectQuery: { per_page: '100' } });
    const snapshot = await readSnapshot(api(), { subscriptions: false });
    expect(snapshot.findStudent('person1@example.com')?.id).toBe('s1');
    expect(asked).toEqual([1]);
  });

  it('counts pages a server tells by meta alone (no links), and ignores a page size of 0', async () => {
    const students = Array.from({ length: 3 }, (_, i) => student(i));
    pool().intercept({ method: 'GET', path: (path) => path.startsWith('/api/v1/students?') }).reply(200, {
      data: students, meta: { current_page: 1, last_page: 2, per_page: 0, total: 6 },
    });
    const opened = await openSnapshot(api());
    expect(opened.first).toStrictEqual({ records: 3, lastPage: 2, total: 6, hasMore: true, withSubscriptions: true });
  });

  it('a last page told by meta alone has no more', async () => {
    pool().intercept({ method: 'GET', path: (path) => path.startsWith('/api/v1/students?') }).reply(200, {
      data: [student(1)], meta: { current_page: 2, last_page: 2 },
    });
    expect((await openSnapshot(api())).first).toStrictEqual({ records: 1, lastPage: 2, hasMore: false, withSubscriptions: true });
  });

  it('stops between pages when its signal is aborted', async () => {
    serve(Array.from({ length: 250 }, (_, i) => student(i)), { simple: true });
    const abort = new AbortController();
    await expect(readSnapshot(api(), { signal: abort.signal, onPage: () => abort.abort(new Error('stop')) })).rejects.toThrow('stop');
  });
});

describe('Snapshot lookups', () => {
  const build = () => {
    const snapshot = new Snapshot();
    snapshot.add({ ...student(1, [sub('p1'), sub('p2', { active: 0, status: 'canceled', expiration_date: '2024-06-30' })]), document: '070.692.055-46', reference_id: 'R-1' });
    snapshot.add({ ...student(2, [sub('p1')]), document: '52998224725' });
    snapshot.add({ ...student(3), email: null, full_name: null, first_name: 'Ana', last_name: null, document: 'RG/123' });
    snapshot.add({ ...student(4), id: '39053344705' });
    return snapshot;
  };

  it('finds a student by id, e-mail in any case, reference', () => {
    const snapshot = build();
    expect(snapshot.findStudent('s1')?.id).toBe('s1');
    expect(snapshot.findStudent('PERSON2@example.COM')?.id).toBe('s2');
    expect(snapshot.findStudent('ref:R-1')?.id).toBe('s1');
    expect(snapshot.findStudent('ref:R-2')).toBeUndefined();
    expect(snapshot.findStudent('nobody@example.com')).toBeUndefined();
    expect(snapshot.findStudent('s99')).toBeUndefined();
  });

  it('finds a CPF in either spelling, and a document with a slash', () => {
    const snapshot = build();
    expect(snapshot.findStudent('07069205546')?.id).toBe('s1');
    expect(snapshot.findStudent('070.692.055-46')?.id).toBe('s1');
    expect(snapshot.findStudent('doc:529.982.247-25')?.id).toBe('s2');
    expect(snapshot.findStudent(parseStudentKey('52998224725'))?.id).toBe('s2');
    expect(snapshot.findStudent('doc:RG/123')?.id).toBe('s3');
  });

  it('takes bare CPF digits for an id when no student has that document, as the lookups do', () => {
    const snapshot = build();
    expect(snapshot.findStudent('39053344705')?.id).toBe('39053344705');
    // Written with doc:, it is a document only.
    expect(snapshot.findStudent('doc:39053344705')).toBeUndefined();
  });

  it('finds a phone by its national digits however it is written; a phone two students share finds nobody (the lookup then lists them)', () => {
    const snapshot = build();
    snapshot.add({ ...student(5), phone: '+55 (61) 93986-2924' });
    snapshot.add({ ...student(6), phone: '+55 11 91234-5678' });
    snapshot.add({ ...student(7), phone: '11 91234-5678' });
    for (const typed of ['(61) 93986-2924', 'phone:5561939862924', '61939862924']) expect(snapshot.findStudent(typed)?.id, typed).toBe('s5');
    expect(snapshot.findStudent('(11) 91234-5678')).toBeUndefined();
    // 10 bare digits: an id first, then a phone.
    snapshot.add({ ...student(8), phone: '61 3986-2924' });
    expect(snapshot.findStudent('6139862924')?.id).toBe('s8');
    // 11 bare digits: a student's document before another's phone; a phone when nobody has the document.
    snapshot.add({ ...student(9), phone: '52998224725' });
    expect(snapshot.findStudent('52998224725')?.id).toBe('s2');
    // A phone whose 11 digits are a valid CPF is named as a phone only with phone: or its punctuation.
    snapshot.add({ ...student(10), phone: '+55 11 94885-2411' });
    expect(snapshot.findStudent('11948852411')).toBeUndefined();
    expect(snapshot.findStudent('(11) 94885-2411')?.id).toBe('s10');
  });

  it('keeps the name, e-mail, document and reference, and nothing else', () => {
    const snapshot = build();
    expect(snapshot.findStudent('s1')).toEqual({ id: 's1', name: 'First1 Last1', email: 'Person1@Example.com', document: '070.692.055-46', reference: 'R-1' });
    expect(snapshot.findStudent('s3')).toEqual({ id: 's3', name: 'Ana', document: 'RG/123' });
    expect(asStudent({ id: 's3', name: 'Ana' })).toEqual({ id: 's3', full_name: 'Ana', email: null, document: null, reference_id: null });
  });

  it('knows each subscription with its access, status and dates', () => {
    const snapshot = build();
    expect(snapshot.subscription('s1', 'p2')).toEqual({
      id: 'p2-x', studentId: 's1', productId: 'p2', hasAccess: false, status: 'canceled', accessionDate: '2024-01-01', expirationDate: '2024-06-30',
    });
    expect(snapshot.subscription('s1', 'p1')).toMatchObject({ hasAccess: true, status: 'active' });
    expect(snapshot.subscription('s2', 'p2')).toBeUndefined();
    expect(snapshot.subscription('s3', 'p1')).toBeUndefined();
  });

  it('gives a held subscription back in the API shape, with the title the list carried', () => {
    const snapshot = build();
    expect(snapshot.asSubscription(snapshot.subscription('s1', 'p2')!)).toEqual({
      id: 'p2-x', product_id: 'p2', active: 0, status: 'canceled', accession_date: '2024-01-01', expiration_date: '2024-06-30', product: { id: 'p2', title: 'Title of p2' },
    });
    expect(snapshot.productTitle('p1')).toBe('Title of p1');
    expect(snapshot.productTitle('p9')).toBeUndefined();
    const untitled = new Snapshot();
    untitled.add(student(1, [sub('p5', { id: null, product: null, status: null, accession_date: null })]));
    expect(untitled.asSubscription(untitled.subscription('s1', 'p5')!)).toStrictEqual({
      product_id: 'p5', active: 1, status: null, accession_date: null, expiration_date: null,
    });
  });

  it('keeps the first title a product came with, whichever subscription carried it', () => {
    const snapshot = new Snapshot();
    snapshot.add(student(1, [sub('p1', { product: null })]));
    snapshot.add(student(2, [sub('p1')]));
    snapshot.add(student(3, [sub('p1', { product: { id: 'p1', title: 'Renamed' } })]));
    snapshot.add(student(4, [sub('p1', { product: null })]));
    expect(snapshot.productTitle('p1')).toBe('Title of p1');
  });

  it('folds e-mails as the server does (lower case), so ß and ss stay apart', () => {
    const snapshot = new Snapshot();
    snapshot.add({ ...student(1), email: 'Straße@example.com' });
    snapshot.add({ ...student(2), email: 'strasse@example.com' });
    expect(snapshot.findStudent('STRAßE@example.com')?.id).toBe('s1');
    expect(snapshot.findStudent('Strasse@example.com')?.id).toBe('s2');
  });

  it('lists the holders of a product, with or without access', () => {
    const snapshot = build();
    expect(snapshot.holders('p1').map((held) => held.studentId).sort()).toEqual(['s1', 's2']);
    expect(snapshot.holders('p2').map((held) => held.studentId)).toEqual(['s1']);
    expect(snapshot.holders('p9')).toEqual([]);
  });

  it('sees the changes the run records, in subscriptions and holders alike', () => {
    const snapshot = build();
    expect(snapshot.holders('p1')).toHaveLength(2);
    snapshot.record('s3', 'p1', sub('p1', { expiration_date: '2030-01-01' }));
    snapshot.record('s1', 'p1', undefined);
    expect(snapshot.subscription('s3', 'p1')).toMatchObject({ expirationDate: '2030-01-01', hasAccess: true });
    expect(snapshot.subscription('s1', 'p1')).toBeUndefined();
    expect(snapshot.subscription('s1', 'p2')).toBeDefined();
    expect(snapshot.holders('p1').map((held) => held.studentId).sort()).toEqual(['s2', 's3']);
    // A product nobody held yet, once the holders are known.
    snapshot.record('s2', 'p7', sub('p7'));
    expect(snapshot.holders('p7').map((held) => held.studentId)).toEqual(['s2']);
    // Recorded before the holders were first asked for: counted then.
    const fresh = build();
    fresh.record('s3', 'p2', sub('p2'));
    expect(fresh.holders('p2').map((held) => held.studentId).sort()).toEqual(['s1', 's3']);
  });

  it('shares one copy of each product id and status across students', () => {
    const snapshot = new Snapshot();
    snapshot.add(student(1, [sub('p1')]));
    snapshot.add(student(2, [sub('p1')]));
    const [a, b] = snapshot.holders('p1');
    expect(a?.productId).toBe(b?.productId);
    expect(a?.status).toBe('active');
  });
});

describe('StudentKeyFilter and keep', () => {
  const keys = ['s1', 'PERSON2@example.com', 'ref:R-3', '070.692.055-46', '52998224725', 'doc:RG/9'].map((key) => parseStudentKey(key));
  const filter = new StudentKeyFilter(keys);
  const someone = { id: 'x', email: 'x@example.com', document: null, reference_id: null };

  it('wants the students the keys name, by any of their keys, as findStudent finds them', () => {
    expect(filter.wants({ ...someone, id: 's1' })).toBe(true);
    expect(filter.wants({ ...someone, email: 'person2@EXAMPLE.com' })).toBe(true);
    expect(filter.wants({ ...someone, reference_id: 'R-3' })).toBe(true);
    expect(filter.wants({ ...someone, document: '07069205546' })).toBe(true);
    expect(filter.wants({ ...someone, document: '070.692.055-46' })).toBe(true);
    expect(filter.wants({ ...someone, document: '529.982.247-25' })).toBe(true);
    // Bare CPF digits may be an id.
    expect(filter.wants({ ...someone, id: '52998224725' })).toBe(true);
    expect(filter.wants({ ...someone, document: 'RG/9' })).toBe(true);
  });

  it('takes only bare CPF digits for a possible id', () => {
    expect(filter.wants({ ...someone, id: 'RG/9' })).toBe(false);
    expect(filter.wants({ ...someone, id: '070.692.055-46' })).toBe(false);
  });

  it('wants nobody else', () => {
    expect(filter.wants(someone)).toBe(false);
    expect(filter.wants({ ...someone, email: null, document: 'R-3', reference_id: 's1' })).toBe(false);
    expect(filter.wants({ ...someone, id: '07069205546' })).toBe(false);
    expect(new StudentKeyFilter([]).wants({ ...someone, id: '' })).toBe(false);
  });

  it('a snapshot keeps those students and those products only, and counts every student read', () => {
    const snapshot = new Snapshot({ students: filter, products: new Set(['p1']) });
    snapshot.add(student(1, [sub('p1'), sub('p2')]));
    snapshot.add(student(2, [sub('p2')]));
    snapshot.add(student(3, [sub('p1')]));
    expect(snapshot).toMatchObject({ total: 3, size: 2 });
    expect(snapshot.findStudent('s1')?.id).toBe('s1');
    expect(snapshot.findStudent('person2@example.com')?.id).toBe('s2');
    expect(snapshot.findStudent('s3')).toBeUndefined();
    expect(snapshot.subscription('s1', 'p1')).toBeDefined();
    expect(snapshot.subscription('s1', 'p2')).toBeUndefined();
    expect(snapshot.holders('p1').map((held) => held.studentId)).toEqual(['s1']);
  });

  it('readSnapshot passes keep on', async () => {
    serve(Array.from({ length: 120 }, (_, i) => student(i)));
    const snapshot = await readSnapshot(api(), { keep: { students: new StudentKeyFilter([parseStudentKey('s7')]) } });
    expect(snapshot).toMatchObject({ total: 120, size: 1, pages: 2 });
  });
});
