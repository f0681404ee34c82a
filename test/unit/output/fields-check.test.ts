/** `--fields` checks (before a change, and against the first record) and pickFields' edges. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.js';
import { assertFieldsBeforeChange, assertKnownFields, pickFields } from '../../../src/output/fields.js';
import { maria, studentView } from './setup.js';

const KNOWN = ['id', 'email', 'product'];

describe('assertFieldsBeforeChange', () => {
  it('accepts no --fields, fields whose first key the record will have, and the view column paths', () => {
    expect(() => assertFieldsBeforeChange(undefined, KNOWN, studentView)).not.toThrow();
    expect(() => assertFieldsBeforeChange(['id', 'product.title', 'product.anything', 'name', 'created_at'], KNOWN, studentView)).not.toThrow();
  });

  it('refuses one unknown field, saying nothing was sent and listing the known ones', () => {
    expect(() => assertFieldsBeforeChange(['id', 'emial'], KNOWN, studentView)).toThrow(
      new UsageError('unknown field "emial" in --fields (nothing was sent); available fields: id, email, product'),
    );
  });

  it('names every unknown field, in the plural; a view path below another key is not a free pass', () => {
    expect(() => assertFieldsBeforeChange(['x', 'idx', 'email.y', 'names'], ['email'], studentView)).toThrow(
      new UsageError('unknown fields "x", "idx", "names" in --fields (nothing was sent); available fields: email'),
    );
  });
});

describe('assertKnownFields', () => {
  it('accepts what the record holds and the view column paths even when the record lacks them', () => {
    expect(() => assertKnownFields({ id: 's1' }, ['id', 'product.title', 'created_at'], studentView)).not.toThrow();
    expect(() => assertKnownFields(maria, ['tags', 'product.id'], studentView)).not.toThrow();
  });

  it('refuses what the record lacks, listing its flattened fields', () => {
    expect(() => assertKnownFields({ id: 's1', product: { id: 'p1' } }, ['nope'], studentView)).toThrow(
      new UsageError('unknown field "nope" in --fields; available fields: id, product.id'),
    );
    expect(() => assertKnownFields({ id: 's1' }, ['a', 'b.c'], studentView)).toThrow(
      new UsageError('unknown fields "a", "b.c" in --fields; available fields: id'),
    );
  });
});

describe('pickFields', () => {
  it('a field inside a requested object that is null or a scalar is covered by it, not looked into', () => {
    expect(pickFields({ product: null }, ['product', 'product.title'])).toEqual({ product: null });
    expect(pickFields({ product: 'p1' }, ['product.title', 'product'])).toEqual({ product: 'p1' });
  });

  it('gives plain, writable properties', () => {
    const picked = pickFields(maria, ['id', 'product.title']);
    expect(Object.getOwnPropertyDescriptor(picked, 'id')).toEqual({ value: 's1', enumerable: true, writable: true, configurable: true });
    picked.id = 'changed';
    delete picked.product;
    expect(picked).toEqual({ id: 'changed' });
  });
});
