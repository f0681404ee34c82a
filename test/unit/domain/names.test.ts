/** PRODUCT and COURSE by name (contract §1.3): the rules of pick, and what "unknown" offers instead. */
import { describe, expect, it } from 'vitest';
import { StoppingApi } from '../../../src/api/client.js';
import { collectNames, fold, nearest, pick, resolveCourse, resolveName, resolveProduct, UnknownNameError, type NameRequest } from '../../../src/domain/names.js';
import { UsageError } from '../../../src/lib/errors.js';

const COURSES = [
  { id: 'c1', title: 'Programação em Python', slug: 'python' },
  { id: 'c2', title: 'Python para Dados', slug: 'python-dados' },
  { id: 'c3', title: 'Yoga e Meditação', slug: 'yoga' },
];
const what = { noun: 'course', argument: 'COURSE', listCommand: 'members courses list --all' };

describe('pick', () => {
  it('takes the id, then the exact title or slug (case and accents ignored), then a unique title prefix', () => {
    expect(pick(COURSES, 'c3', what).id).toBe('c3');
    expect(pick(COURSES, 'PROGRAMACAO EM  python', what).id).toBe('c1');
    expect(pick(COURSES, 'python', what).id).toBe('c1');
    expect(pick(COURSES, 'yoga e med', what).id).toBe('c3');
  });

  it('titles as people type them: any dash, with or without spaces, straight or curly quotes, a non-breaking space', () => {
    const products = [
      { id: 'p1', title: 'Excel Avançado — Acesso Vitalício' }, { id: 'p2', title: 'Curso “Do Zero” – Edição 2025' }, { id: 'p3', title: "Bem-Estar d'Água" },
    ];
    const product = (what: string) => pick(products, what, { noun: 'product', argument: 'PRODUCT', listCommand: 'x' }).id;
    expect(product('Excel Avançado - Acesso Vitalício')).toBe('p1');
    expect(product('excel avancado–acesso vitalicio')).toBe('p1');
    expect(product('Excel\u00a0Avançado  —  Acesso Vitalício')).toBe('p1');
    expect(product('Curso "Do Zero" - Edição 2025')).toBe('p2');
    expect(product('Bem – Estar d’Água')).toBe('p3');
    expect(fold('A — B')).toBe(fold('a-b'));
    expect(fold('‘x’ “y”')).toBe(`'x' "y"`);
  });

  it('a prefix of several titles is a usage error listing them', () => {
    expect(() => pick(COURSES, 'p', what)).toThrow(new UsageError(
      'COURSE "p" names 2 courses; give more of the title, or the id:\n  c1  Programação em Python\n  c2  Python para Dados',
    ));
  });

  it('nothing matching: UnknownNameError with the titles sharing a word, or where to look', () => {
    let error: unknown;
    try {
      pick(COURSES, 'curso de meditacao', what);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnknownNameError);
    expect((error as UnknownNameError).message).toBe('no course "curso de meditacao" (by id, title, slug or start of title). Did you mean:\n  c3  Yoga e Meditação');
    expect((error as UnknownNameError).hint).toBe(' Did you mean:\n  c3  Yoga e Meditação');
    expect(() => pick(COURSES, 'xyz', what)).toThrow('no course "xyz" (by id, title, slug or start of title). See `members courses list --all`.');
  });
});

describe('nearest (did you mean)', () => {
  const PRODUCTS = [
    { id: 'p1', title: 'Python Pro' },
    { id: 'p2', title: 'Clube de Finanças' },
    { id: 'p3', title: 'Pythagoras Club' },
    { id: 'p4', title: 'Inglês Sem Fronteiras' },
  ];
  it('a word a typo away from a title word: "pyton" is Python Pro', () => {
    expect(nearest(PRODUCTS, fold('pyton')).map((item) => item.id)).toEqual(['p1']);
    // "clube" is a swap away; "club" a swap and a letter (2 edits for 5 letters: too far).
    expect(nearest(PRODUCTS, fold('clbue')).map((item) => item.id)).toEqual(['p2']);
  });
  it('a word found in a title comes before a typo', () => {
    expect(nearest(PRODUCTS, fold('pythagoras pyton')).map((item) => item.id)).toEqual(['p3', 'p1']);
  });
  it('longer words allow two edits, short ones one; words under 3 letters count for nothing', () => {
    expect(nearest(PRODUCTS, fold('fronteras')).map((item) => item.id)).toEqual(['p4']);
    expect(nearest(PRODUCTS, fold('frnteras')).map((item) => item.id)).toEqual(['p4']);
    expect(nearest(PRODUCTS, fold('frntras'))).toEqual([]);
    expect(nearest(PRODUCTS, fold('pxton'))).toEqual([]);
    expect(nearest(PRODUCTS, fold('py'))).toEqual([]);
  });
  it('pick offers them: an unknown product with a typo is exit 2 with the nearest titles', () => {
    expect(() => pick(PRODUCTS, 'pyton', { noun: 'product', argument: 'PRODUCT', listCommand: 'x' }))
      .toThrow('no product "pyton" (by id, title or start of title). Did you mean:\n  p1  Python Pro');
  });
});

describe('collectNames (members each checks every row first)', () => {
  it('a collecting client: each name goes to the sink, as asked, and resolves to itself without a request', async () => {
    const api = new StoppingApi(() => new Error('no request may be sent'));
    const asked: NameRequest[] = [];
    collectNames(api, (request) => asked.push(request));
    expect(await resolveProduct(api, ' Pyton ', { argument: '--product', check: true })).toEqual({ id: 'Pyton', title: '' });
    expect(await resolveProduct(api, '42')).toEqual({ id: '42', title: '' });
    expect(await resolveCourse(api, 'yoga')).toEqual({ id: 'yoga', title: '' });
    expect(asked).toEqual([
      { noun: 'product', input: ' Pyton ', argument: '--product', check: true },
      { noun: 'product', input: '42', argument: 'PRODUCT', check: undefined },
      { noun: 'course', input: 'yoga', argument: 'COURSE' },
    ]);
  });

  it('a client that collects nothing resolves: its first request is the stop', async () => {
    const api = new StoppingApi(() => new Error('stopped'));
    await expect(resolveName(api, { noun: 'product', input: 'Pyton', argument: 'PRODUCT' })).rejects.toThrow('stopped');
    await expect(resolveName(api, { noun: 'course', input: 'yoga', argument: 'COURSE' })).rejects.toThrow('stopped');
    // An id is taken as it is (no list read) unless `check`.
    expect(await resolveName(api, { noun: 'product', input: '42', argument: 'PRODUCT' })).toEqual({ id: '42', title: '' });
    await expect(resolveName(api, { noun: 'product', input: '42', argument: 'PRODUCT', check: true })).rejects.toThrow('stopped');
  });
});

