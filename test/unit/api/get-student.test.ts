/**
 * getStudent's tries for a CPF (api/endpoints/students.ts): as typed, then
 * in its other spelling, then (bare digits) as an id; the server's spelling
 * first when it is known, so that a CPF typed the other way costs one lookup.
 * Every interceptor must be used, and no other request is allowed.
 */
import { describe, expect, it } from 'vitest';
import { getStudent } from '../../../src/api/endpoints/students.js';
import { parseStudentKey } from '../../../src/api/endpoints/student-key.js';
import { NotFoundError, UsageError } from '../../../src/lib/errors.js';
import { PhoneBook } from '../../../src/api/pagination/phone-scan.js';
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
    expect((await getStudent(api(), parseStudentKey('52998224725'), { spelling: 'punctuated' })).id).toBe('s1');
    lookup('document/52998224725').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('529.982.247-25'), { spelling: 'bare' })).id).toBe('s1');
  });

  it('a spelling the key has already is tried as typed', async () => {
    lookup('document/529.982.247-25').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('529.982.247-25'), { spelling: 'punctuated' })).id).toBe('s1');
  });

  it('not found in the server\'s spelling: the other one, then bare digits as an id, then not found naming each; a valid CPF is no phone', async () => {
    lookup('document/529.982.247-25').reply(404, NOT_FOUND);
    lookup('document/52998224725').reply(404, NOT_FOUND);
    lookup('52998224725').reply(404, NOT_FOUND);
    // No read of the student list: the afterEach would find no interceptor pending, and a list read would miss one.
    const error = await getStudent(api(), parseStudentKey('52998224725'), { spelling: 'punctuated' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/^student with document 52998224725 \(or 529\.982\.247-25\) or id 52998224725 not found/);
  });
});

describe('getStudent with a phone (issue 37)', () => {
  const JOAO = { id: 's2', email: 'joao@example.com', first_name: 'João', last_name: 'Lima', phone: '+55 (61) 93986-2924' };
  const ANA = { id: 's3', email: 'ana@example.com', first_name: 'Ana', last_name: 'Reis', phone: '+55 11 91234-5678' };
  const page = (students: object[]) => ({ data: students, meta: { current_page: 1, last_page: 1, per_page: 100, total: students.length }, links: { next: null } });
  const list = () => pool().intercept({ method: 'GET', path: (path: string) => path.startsWith('/api/v1/students?') });

  it('reads the student list and looks the one match up by id, however the phone is written; -v says what it took', async () => {
    const lines: string[] = [];
    const client = api((line) => lines.push(line));
    for (const typed of ['61 93986-2924', 'phone:061939862924']) {
      list().reply(200, page([MARIA, JOAO, ANA]));
      lookup('s2').reply(200, { data: JOAO });
      expect((await getStudent(client, parseStudentKey(typed))).id).toBe('s2');
    }
    expect(lines.filter((line) => line.includes('the phone of'))).toEqual([
      '61 93986-2924: the phone of João Lima <joao@example.com>, found in 2 requests (1 page of the student list, as students search reads it, then the student by id)',
      '061939862924: the phone of João Lima <joao@example.com>, found in 2 requests (1 page of the student list, as students search reads it, then the student by id)',
    ]);
  });

  it('one book reads the list once for every phone of a run', async () => {
    const lines: string[] = [];
    const client = api((line) => lines.push(line));
    const book = new PhoneBook(client);
    list().reply(200, page([MARIA, JOAO, ANA]));
    lookup('s2').reply(200, { data: JOAO });
    lookup('s3').reply(200, { data: ANA });
    expect((await getStudent(client, parseStudentKey('(61) 93986-2924'), { phones: book })).id).toBe('s2');
    expect((await getStudent(client, parseStudentKey('+55 11 91234-5678'), { phones: book })).id).toBe('s3');
    expect(lines.at(-1)).toBe('+55 11 91234-5678: the phone of Ana Reis <ana@example.com>, found in 1 request (the student list already read, then the student by id)');
  });

  it('a list read that failed is read again for the next phone, not failed again', async () => {
    const book = new PhoneBook(api());
    list().reply(403, { message: 'This action is unauthorized.' });
    await expect(getStudent(api(), parseStudentKey('(61) 93986-2924'), { phones: book })).rejects.toThrow();
    list().reply(200, page([JOAO]));
    lookup('s2').reply(200, { data: JOAO });
    expect((await getStudent(api(), parseStudentKey('(61) 93986-2924'), { phones: book })).id).toBe('s2');
  });

  it('reads the list 100 students a page; finds a landline\'s 10 digits; lists all of exactly 10 sharing a number', async () => {
    const landline = { ...ANA, phone: '(61) 3020-1234' };
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, email: `t${i}@example.com`, first_name: 'Twin', last_name: String(i), phone: '61 93986-2924' }));
    const hundred = () => pool().intercept({ method: 'GET', path: (path: string) => path.startsWith('/api/v1/students?') && new URL(path, 'http://x').searchParams.get('per_page') === '100' });
    const book = new PhoneBook(api());
    hundred().reply(200, page([...ten, landline]));
    lookup('s3').reply(200, { data: landline });
    expect((await getStudent(api(), parseStudentKey('+55 61 3020-1234'), { phones: book })).id).toBe('s3');
    // A number kept without its area code is no whole phone: zeros typed ahead of the same 8 digits find no one.
    const partial = { ...MARIA, phone: '3986-2924' };
    list().reply(200, page([partial]));
    await expect(getStudent(api(), parseStudentKey('(00) 3986-2924'))).rejects.toBeInstanceOf(NotFoundError);
    const several = await getStudent(api(), parseStudentKey('(61) 93986-2924'), { phones: book }).catch((caught: unknown) => caught);
    expect((several as Error).message.split('\n')).toEqual([
      "10 students have the phone (61) 93986-2924; give one's e-mail or id:", ...ten.map((twin) => `  ${twin.id}  Twin ${twin.last_name} <${twin.email}>`),
    ]);
  });

  it('none is not found (exit 4) after reading the whole list; several are a usage error (exit 2) listing them', async () => {
    list().reply(200, page([MARIA, ANA]));
    const none = await getStudent(api(), parseStudentKey('(61) 93986-2924')).catch((caught: unknown) => caught);
    expect(none).toBeInstanceOf(NotFoundError);
    expect((none as Error).message).toMatch(/^no student has the phone \(61\) 93986-2924 \(the whole student list was read: 2 students\)/);
    list().reply(200, page([JOAO, { ...ANA, phone: '61939862924' }]));
    const several = await getStudent(api(), parseStudentKey('(61) 93986-2924')).catch((caught: unknown) => caught);
    expect(several).toBeInstanceOf(UsageError);
    expect((several as Error).message).toBe("2 students have the phone (61) 93986-2924; give one's e-mail or id:\n  s2  João Lima <joao@example.com>\n  s3  Ana Reis <ana@example.com>");
  });

  it('counts the pages really read (a server that counts nothing: links.next), and lists 10 of many sharing a number', async () => {
    const twins = Array.from({ length: 12 }, (_, i) => ({ id: `t${i}`, email: `t${i}@example.com`, first_name: 'Twin', last_name: String(i), phone: '61 93986-2924' }));
    const first = { data: [...twins.slice(0, 7), ANA], links: { next: 'https://members.example.com/api/v1/students?page=2' } };
    const second = { data: [...twins.slice(7), JOAO], links: { next: null } };
    const pageOf = (n: number) => pool().intercept({ method: 'GET', path: (path: string) => path.startsWith('/api/v1/students?') && new URL(path, 'http://x').searchParams.get('page') === String(n) });
    const lines: string[] = [];
    const client = api((line) => lines.push(line));
    const book = new PhoneBook(client);
    pageOf(1).reply(200, first);
    pageOf(2).reply(200, second);
    lookup('s3').reply(200, { data: ANA });
    expect((await getStudent(client, parseStudentKey('+55 11 91234-5678'), { phones: book })).id).toBe('s3');
    expect(lines.at(-1)).toBe('+55 11 91234-5678: the phone of Ana Reis <ana@example.com>, found in 3 requests (2 pages of the student list, as students search reads it, then the student by id)');
    const several = await getStudent(client, parseStudentKey('(61) 93986-2924'), { phones: book }).catch((caught: unknown) => caught);
    expect((several as Error).message.split('\n')).toEqual([
      // João (page 2) has the number too.
      "13 students have the phone (61) 93986-2924; give one's e-mail or id:", ...twins.slice(0, 10).map((twin) => `  ${twin.id}  Twin ${twin.last_name} <${twin.email}>`), '  … and 3 more',
    ]);
  });

  it('11 bare digits: a document in both spellings, an id, then a phone; not found names every try and keeps the CPF hint', async () => {
    lookup('document/61939862924').reply(404, NOT_FOUND);
    lookup('document/619.398.629-24').reply(404, NOT_FOUND);
    lookup('61939862924').reply(404, NOT_FOUND);
    list().reply(200, page([MARIA, JOAO]));
    lookup('s2').reply(200, { data: JOAO });
    expect((await getStudent(api(), parseStudentKey('61939862924'))).id).toBe('s2');

    lookup('document/61939862925').reply(404, NOT_FOUND);
    lookup('document/619.398.629-25').reply(404, NOT_FOUND);
    lookup('61939862925').reply(404, NOT_FOUND);
    list().reply(200, page([MARIA, JOAO]));
    const error = await getStudent(api(), parseStudentKey('61939862925')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe('student with document 61939862925 (or 619.398.629-25) or id 61939862925 or phone 61939862925 not found '
      + '(the whole student list was read for the phone). 61939862925 is not a valid CPF: its check digits would be 49 (a typo?)');
  });

  it('a valid CPF typed bare is a student\'s document first, even when another student has it as a phone; with doc:, never a phone', async () => {
    lookup('document/52998224725').reply(200, { data: MARIA });
    expect((await getStudent(api(), parseStudentKey('52998224725'))).id).toBe('s1');
    lookup('document/52998224725').reply(404, NOT_FOUND);
    lookup('document/529.982.247-25').reply(404, NOT_FOUND);
    const error = await getStudent(api(), parseStudentKey('doc:52998224725')).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^student with document 52998224725 \(or 529\.982\.247-25\) not found/);
  });
});
