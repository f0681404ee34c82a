import { describe, expect, it } from 'vitest';
import { fieldsToShow, matchedFields, searchStudents, studentMatcher } from '../../../src/domain/search.js';
import type { Student } from '../../../src/api/endpoints/schemas.js';
import { UsageError } from '../../../src/lib/errors.js';
import { MOCK_BASE, mockApi } from '../../helpers/mock-api.js';

const student = (overrides: Partial<Student>): Student => ({
  id: 's', first_name: 'João', last_name: 'da Silva', full_name: 'João da Silva', email: 'joao.silva@example.com.br',
  phone: '+55 (11) 91234 5678', document: '070.692.055-46', reference_id: 'CRM-0004411', ...overrides,
} as Student);

const joao = () => student({});

describe('studentMatcher', () => {
  const joao = student({});

  it.each([
    ['joao sil', true], ['JOÃO DA', true], ['joão silva', true], ['silva joao', true], ['silva@example', true], ['070.692', true],
    ['91234-5678', true], ['11 91234 5678', true], ['07069205546', true], ['maria', false], ['maria silva', false], ['5555', false],
  ])('%s → %s', (query, expected) => {
    expect(studentMatcher(query)(joao)).toBe(expected);
  });

  it('digits alone match phones and documents only, not an e-mail that holds them', () => {
    expect(studentMatcher('1983')(student({ email: 'jgomes1983@example.com', phone: null, document: null }))).toBe(false);
    expect(studentMatcher('gomes1983')(student({ email: 'jgomes1983@example.com' }))).toBe(true);
  });

  it('says where the query was found: the phone or the document by digits, the name, e-mail or document by words', () => {
    expect(matchedFields('(11) 91234-5678')(joao)).toEqual(['phone']);
    expect(matchedFields('070.692')(joao)).toEqual(['document']);
    expect(matchedFields('5678')(student({ document: '123.456.785-678' }))).toEqual(['phone', 'document']);
    expect(matchedFields('joao example')(joao)).toEqual(['name', 'email']);
    expect(matchedFields('silva')(joao)).toEqual(['name', 'email']);
    expect(matchedFields('maria')(joao)).toEqual([]);
  });

  it('finds a reference by its text or by its digits (an order number from another system)', () => {
    expect(matchedFields('crm-0004411')(joao)).toEqual(['reference']);
    expect(matchedFields('CRM 4411')(joao)).toEqual(['reference']);
    expect(matchedFields('0004411')(joao)).toEqual(['reference']);
    expect(matchedFields('4411')(student({ phone: '+55 11 94411-0000' }))).toEqual(['phone', 'reference']);
    expect(matchedFields('0004411')(student({ reference_id: null }))).toEqual([]);
    expect(matchedFields('crm')(student({ reference_id: null }))).toEqual([]);
  });

  it('a query of fewer than 2 characters is a usage error', () => {
    expect(() => studentMatcher(' a ')).toThrow(UsageError);
  });
});

describe('fieldsToShow', () => {
  it('is every field the query matched in any result', () => {
    const maria = student({ id: 'm', first_name: 'Maria', last_name: 'Lima', full_name: 'Maria Lima', email: 'maria@example.com', phone: '+55 21 95555-0000', document: '123.456.789-09', reference_id: 'CRM-1' });
    expect(fieldsToShow([joao(), maria], matchedFields('1234'))).toEqual(new Set(['phone', 'document']));
    expect(fieldsToShow([maria], matchedFields('crm-1'))).toEqual(new Set(['reference']));
    expect(fieldsToShow([joao(), maria], matchedFields('example'))).toEqual(new Set(['email']));
  });

  it('adds the phone when two results share a name (case and accents ignored), whatever matched', () => {
    const twin = student({ id: 't', full_name: 'JOAO DA SILVA', email: 'outro@example.com', phone: '+55 21 90000-0001' });
    expect(fieldsToShow([joao(), twin], matchedFields('silva'))).toEqual(new Set(['name', 'email', 'phone']));
    expect(fieldsToShow([joao()], matchedFields('silva'))).toEqual(new Set(['name', 'email']));
    // Students without a name are not namesakes.
    const nameless = (id: string) => student({ id, first_name: '', last_name: '', full_name: '', email: `${id}@example.com` });
    expect(fieldsToShow([nameless('a'), nameless('b')], matchedFields('example'))).toEqual(new Set(['email']));
    expect(fieldsToShow([], matchedFields('example'))).toEqual(new Set());
  });
});

describe('searchStudents', () => {
  const mock = mockApi();
  const page = (n: number, last: number, data: Student[]) => ({
    data, links: { next: n < last ? `${MOCK_BASE}/api/v1/students?page=${n + 1}` : null },
    meta: { current_page: n, last_page: last, per_page: 100, total: 150 },
  });

  it('streams the matches, and tells progress how many students were read, of how many, and how many matched', async () => {
    const many = (from: number, count: number) => Array.from({ length: count }, (_, i) => student({
      id: `s${from + i}`, email: `s${from + i}@example.com`, full_name: `Aluno ${from + i}`, first_name: 'Aluno', last_name: String(from + i), phone: null, document: null,
    }));
    const first = many(0, 100);
    first[10] = student({ id: 'hit1' });
    const second = many(100, 50);
    second[3] = student({ id: 'hit2', full_name: 'Joana Silva', first_name: 'Joana', last_name: 'Silva', email: 'joana@example.com' });
    const pool = mock.pool();
    pool.intercept({ path: '/api/v1/students', query: { page: '1', per_page: '100' }, method: 'GET' }).reply(200, page(1, 2, first));
    pool.intercept({ path: '/api/v1/students', query: { page: '2', per_page: '100' }, method: 'GET' }).reply(200, page(2, 2, second));

    const heard: Array<[number, number | undefined, number]> = [];
    const found: string[] = [];
    for await (const match of searchStudents(mock.api(), 'silva', (...args) => heard.push(args))) found.push(match.id);
    expect(found).toEqual(['hit1', 'hit2']);
    expect(heard).toEqual([[100, 150, 1], [150, 150, 2]]);
  });
});
