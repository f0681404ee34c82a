/**
 * getStudent's tries for a CPF (api/endpoints/students.ts): as typed, then
 * in its other spelling, then (bare digits) as an id; the server's spelling
 * first when it is known, so that a CPF typed the other way costs one lookup.
 * Every interceptor must be used, and no other request is allowed.
 */
import { describe, expect, it } from 'vitest';
import { getStudent } from '../../../src/api/endpoints/students.js';
import { parseStudentKey } from '../../../src/api/endpoints/student-key.js';
import { NotFoundError } from '../../../src/lib/errors.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const MARIA = { id: 's1', email: 'maria@example.com', first_name: 'Maria', last_name: 'Silva' };
const lookup = (path: string) => pool().intercept({ method: 'GET', path: `/api/v1/students/${path}` });
const NOT_FOUND = { message: 'Not found.' };

describe('getStudent with a CPF', () => {
  it('without a known spelling: as typed, then the other spelling', async () => {
    lookup('document/52998224725').reply(404, NOT_FOUND);
    lookup('document/529.982.247-25').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('52998224725'))).id).toBe('s1');
  });

  it('the server\'s spelling first: one lookup for a CPF typed the other way, either way round', async () => {
    lookup('document/529.982.247-25').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('52998224725'), 'punctuated')).id).toBe('s1');
    lookup('document/52998224725').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('529.982.247-25'), 'bare')).id).toBe('s1');
  });

  it('a spelling the key has already is tried as typed', async () => {
    lookup('document/529.982.247-25').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('529.982.247-25'), 'punctuated')).id).toBe('s1');
  });

  it('not found in the server\'s spelling: the other one, then bare digits as an id, then not found naming all', async () => {
    lookup('document/529.982.247-25').reply(404, NOT_FOUND);
    lookup('document/52998224725').reply(404, NOT_FOUND);
    lookup('52998224725').reply(404, NOT_FOUND);
    const error = await getStudent(api(), parseStudentKey('52998224725'), 'punctuated').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/^student with document 52998224725 \(or 529\.982\.247-25\) or id 52998224725 not found/);
  });
});
