/**
 * zod compiles a parser per object schema (`new Function`) on the first check
 * that lets it: Api.call lets it for a body holding a list of records, where
 * the compiled parser pays for itself within the page, and not for a single
 * record, where it never does (src/api/client.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { one, page } from '../../../src/api/endpoints/schemas.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const RealFunction = Function;
let compiled = 0;
beforeEach(() => {
  compiled = 0;
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args) {
      compiled++;
      return Reflect.construct(target, args) as object;
    },
  });
});
afterEach(() => {
  globalThis.Function = RealFunction;
});

// A schema of its own for each test: zod compiles a schema's parser once.
const record = () => z.looseObject({ id: z.string(), name: z.string() });

describe('Api.call checks a response', () => {
  it('holding one record with the generic parser: nothing compiled', async () => {
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: { id: 's1', name: 'Ana' } });
    const { data } = await api().call(one(record()), { method: 'GET', path: '/api/v1/students/s1' });
    expect(data).toEqual({ data: { id: 's1', name: 'Ana' } });
    expect(compiled).toBe(0);
  });

  it('holding a page of records with compiled parsers, the same result', async () => {
    const rows = [{ id: 's1', name: 'Ana' }, { id: 's2', name: 'Bia' }];
    pool().intercept({ path: '/api/v1/students', method: 'GET' }).reply(200, { data: rows });
    const { data } = await api().call(page(record()), { method: 'GET', path: '/api/v1/students' });
    expect(data.data).toEqual(rows);
    expect(compiled).toBeGreaterThan(0);
  });

  it('holding one invalid record: refused all the same', async () => {
    pool().intercept({ path: '/api/v1/students/s1', method: 'GET' }).reply(200, { data: { id: 1 } });
    await expect(api().call(one(record()), { method: 'GET', path: '/api/v1/students/s1' })).rejects.toThrow(/unexpected response from the server: data\.id/);
  });
});
