import { describe, expect, it } from 'vitest';
import { flatten, getPath, pickFields } from '../../../src/output/fields.js';
import { maria } from './setup.js';

describe('getPath', () => {
  it('reads dot paths into nested objects', () => {
    expect(getPath(maria, 'id')).toBe('s1');
    expect(getPath(maria, 'product.title')).toBe('Yoga');
    expect(getPath(maria, 'product')).toEqual({ id: 'p1', title: 'Yoga' });
    expect(getPath({ a: null }, 'a')).toBeNull();
  });

  it('is undefined for what the record does not hold, inherited properties included', () => {
    expect(getPath(maria, 'nope')).toBeUndefined();
    expect(getPath(maria, 'product.nope')).toBeUndefined();
    expect(getPath(maria, 'id.length')).toBeUndefined();
    expect(getPath(maria, 'tags.0')).toBeUndefined();
    expect(getPath({ a: null }, 'a.b')).toBeUndefined();
    expect(getPath(maria, 'constructor')).toBeUndefined();
    expect(getPath(maria, '__proto__')).toBeUndefined();
  });
});

describe('flatten', () => {
  it('turns nested objects into dot paths in key order, arrays and null being leaves', () => {
    expect(flatten({ id: 1, a: { b: { c: 2 }, d: null }, e: [{ f: 1 }], g: {} })).toEqual({ id: 1, 'a.b.c': 2, 'a.d': null, e: [{ f: 1 }] });
    expect(Object.keys(flatten(maria))).toEqual(['id', 'name', 'active', 'created_at', 'product.id', 'product.title', 'tags']);
  });
});

describe('pickFields', () => {
  it('keeps only the fields, nested as the paths say, in the order given', () => {
    const picked = pickFields(maria, ['product.title', 'id', 'product.id']);
    expect(picked).toEqual({ product: { title: 'Yoga', id: 'p1' }, id: 's1' });
    expect(JSON.stringify(picked)).toBe('{"product":{"title":"Yoga","id":"p1"},"id":"s1"}');
  });

  it('gives null for a field the record lacks', () => {
    expect(pickFields({ id: 's1' }, ['id', 'product.title'])).toEqual({ id: 's1', product: { title: null } });
  });

  it('lets a whole object cover a path inside it, without touching the record', () => {
    const record = { product: { id: 'p1' } };
    expect(pickFields(record, ['product.nope', 'product'])).toEqual({ product: { id: 'p1' } });
    expect(record).toEqual({ product: { id: 'p1' } });
  });

  it('keeps a key named __proto__ as data', () => {
    const record = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
    const picked = pickFields(record, ['__proto__.x']);
    expect(JSON.stringify(picked)).toBe('{"__proto__":{"x":1}}');
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
  });
});
