/**
 * A CPF with wrong check digits: the student holding the same nine digits
 * with the right ones, looked up in both spellings, offered and never acted on.
 */
import { describe, expect, it } from 'vitest';
import { describeCpfSearch, searchCpfSlip } from '../../../src/domain/cpf-slip.js';
import type { Api } from '../../../src/api/client.js';
import { mockApi } from '../../helpers/mock-api.js';

describe('searchCpfSlip', () => {
  const { api, pool } = mockApi();
  const lookup = (document: string) => pool().intercept({ path: `/api/v1/students/document/${encodeURIComponent(document)}`, method: 'GET' });

  it('finds the student holding the right check digits, in the spelling typed first', async () => {
    lookup('346.719.699-39').reply(200, { data: { id: 's1', email: 'thais.leao21@gmail.com', first_name: 'Thaís', last_name: 'Leão Simões', full_name: 'Thaís Leão Simões' } });
    expect(await searchCpfSlip(api(), '346.719.699-07')).toEqual({ fixed: '346.719.699-39', found: true, name: 'Thaís Leão Simões' });
  });

  it('then in the other spelling; says so when nobody holds either', async () => {
    lookup('34671969939').reply(404, { message: 'Not found.' });
    lookup('346.719.699-39').reply(200, { data: { id: 's1', email: 'a@b.com', first_name: 'Ana', last_name: '', full_name: '' } });
    expect(await searchCpfSlip(api(), '34671969907')).toEqual({ fixed: '34671969939', found: true, name: 'Ana' });
    lookup('34671969939').reply(404, { message: 'Not found.' });
    lookup('346.719.699-39').reply(404, { message: 'Not found.' });
    expect(await searchCpfSlip(api(), '34671969907')).toEqual({ fixed: '34671969939', found: false });
  });

  it('asks nothing for a valid CPF, one repeated digit or another document; a failure on the way says nothing', async () => {
    const asked: unknown[] = [];
    const counting = { call: (...args: unknown[]) => asked.push(args) && Promise.reject(new Error('no request expected')) } as unknown as Api;
    for (const typed of ['346.719.699-39', '111.111.111-11', 'RG/1234567-8', '3467196990']) expect(await searchCpfSlip(counting, typed)).toBeUndefined();
    expect(asked).toEqual([]);
    lookup('346.719.699-39').reply(401, { message: 'Unauthenticated.' });
    expect(await searchCpfSlip(api(), '346.719.699-07')).toBeUndefined();
  });
});

describe('describeCpfSearch', () => {
  it('offers the student found, with the name when there is one, or says to ask for the number again', () => {
    expect(describeCpfSearch({ fixed: '346.719.699-39', found: true, name: 'Thaís Leão Simões' })).toBe('Did you mean: 346.719.699-39 (Thaís Leão Simões)?');
    expect(describeCpfSearch({ fixed: '346.719.699-39', found: true, name: '' })).toBe('Did you mean: 346.719.699-39?');
    expect(describeCpfSearch({ fixed: '346.719.699-39', found: false }))
      .toBe('No student has 346.719.699-39 either (its nine digits with the right check digits): ask the student for the number again');
  });
});
