/**
 * StudentCache (domain/resolve.ts): the lookups of one run, handed to every
 * resolveStudent of the run. Every interceptor must be used, and no other
 * request is allowed (mock-api's afterEach): a second lookup of the same
 * student would find no interceptor and fail the test.
 */
import { describe, expect, it } from 'vitest';
import { resolveStudent, StudentCache } from '../../../src/domain/resolve.js';
import { NotFoundError } from '../../../src/lib/errors.js';
import { mockApi } from '../../helpers/mock-api.js';

const { api, pool } = mockApi();
const MARIA = { id: 's1', email: 'maria@example.com', first_name: 'Maria', last_name: 'Silva', document: '529.982.247-25', phone: '+55 11 91234-5678' };
const JOAO = { id: 's2', email: 'joao@example.com', first_name: 'João', last_name: 'Lima', phone: '+55 (61) 93986-2924' };
const lookup = (path: string) => pool().intercept({ method: 'GET', path: `/api/v1/students/${path}` });
const list = () => pool().intercept({ method: 'GET', path: (path: string) => path.startsWith('/api/v1/students?') });
const page = (students: object[]) => ({ data: students, meta: { current_page: 1, last_page: 1, per_page: 100, total: students.length }, links: { next: null } });

describe('StudentCache', () => {
  it('one lookup per student for the run: the same key again, at once or later, and the student by id', async () => {
    lookup('email/maria%40example.com').reply(200, { data: MARIA });
    const client = api();
    const cache = new StudentCache();
    const [a, b] = await Promise.all([resolveStudent(client, 'maria@example.com', { cache }), resolveStudent(client, 'maria@example.com', { cache })]);
    expect([a.id, b.id]).toEqual(['s1', 's1']);
    const byId = await resolveStudent(client, 's1', { cache, fetch: true });
    expect(byId).toMatchObject({ input: 's1', key: { kind: 'id', value: 's1' }, record: { email: 'maria@example.com' } });
  });

  it('a CPF found in one spelling is the same lookup in the other', async () => {
    lookup('document/529.982.247-25').reply(200, { data: MARIA });
    const client = api();
    const cache = new StudentCache();
    expect((await resolveStudent(client, 'doc:529.982.247-25', { cache })).id).toBe('s1');
    const other = await resolveStudent(client, 'doc:52998224725', { cache });
    expect(other).toMatchObject({ id: 's1', input: 'doc:52998224725' });
  });

  it('keeps a "not found" (asked once), forgets any other failure (the next row asks again)', async () => {
    lookup('email/nobody%40example.com').reply(404, { message: 'Not found.' });
    // The guess of a mistyped e-mail reads the list once; what it finds does not matter here.
    list().reply(200, page([]));
    lookup('email/maria%40example.com').reply(500, { message: 'Server Error' });
    lookup('email/maria%40example.com').reply(200, { data: MARIA });
    const client = api();
    const cache = new StudentCache();
    for (let i = 0; i < 2; i++) await expect(resolveStudent(client, 'nobody@example.com', { cache })).rejects.toBeInstanceOf(NotFoundError);
    await expect(resolveStudent(client, 'maria@example.com', { cache })).rejects.not.toBeInstanceOf(NotFoundError);
    expect((await resolveStudent(client, 'maria@example.com', { cache })).id).toBe('s1');
    expect((await resolveStudent(client, 'maria@example.com', { cache })).id).toBe('s1');
  });

  it('every phone of the run is found in one read of the student list', async () => {
    list().reply(200, page([MARIA, JOAO]));
    lookup('s2').reply(200, { data: JOAO });
    lookup('s1').reply(200, { data: MARIA });
    const client = api();
    const cache = new StudentCache();
    expect((await resolveStudent(client, '(61) 93986-2924', { cache })).id).toBe('s2');
    expect((await resolveStudent(client, '+55 11 91234-5678', { cache })).id).toBe('s1');
    // The same phone written another way: the lookup already made.
    expect((await resolveStudent(client, '+55 61 93986-2924', { cache })).id).toBe('s2');
  });

  it('two runs share nothing', async () => {
    lookup('email/maria%40example.com').reply(200, { data: MARIA }).times(2);
    const client = api();
    expect((await resolveStudent(client, 'maria@example.com', { cache: new StudentCache() })).id).toBe('s1');
    expect((await resolveStudent(client, 'maria@example.com', { cache: new StudentCache() })).id).toBe('s1');
  });
});
