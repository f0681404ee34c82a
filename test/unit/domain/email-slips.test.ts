/**
 * The student a mistyped e-mail was meant for: the slips of the domain tried
 * first (one lookup each), then the student list compared when it is short.
 */
import { describe, expect, it } from 'vitest';
import {
  closeEmails, describeSearch, domainSlips, MAX_SLIP_LOOKUPS, SCAN_LIMIT, searchEmailSlips, type Suggestion,
} from '../../../src/domain/email-slips.js';
import { mockApi } from '../../helpers/mock-api.js';

describe('domainSlips', () => {
  it.each([
    ['gmial.com', 'gmail.com'], ['gmai.com', 'gmail.com'], ['gamil.com', 'gmail.com'], ['gmail.con', 'gmail.com'], ['gmail.comm', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'], ['hotmal.com', 'hotmail.com'], ['outlok.com', 'outlook.com'], ['GMAIL.CON', 'gmail.com'],
    ['gmail', 'gmail.com'], ['gmial', 'gmail.com'], ['gmail.com.br', 'gmail.com'], ['yahoo.com', 'yahoo.com.br'], ['yahoo.com.br', 'yahoo.com'],
    ['uol.com', 'uol.com.br'], ['bol.con.br', 'bol.com.br'], ['terra.com.bt', 'terra.com.br'], ['hotmail.com', 'hotmail.com.br'],
  ])('%s may be a slip of %s', (typed, meant) => {
    expect(domainSlips(typed)).toContain(meant);
  });

  it('puts the nearest first, and never offers the domain typed', () => {
    expect(domainSlips('gmial.con')[0]).toBe('gmail.com');
    expect(domainSlips('yahoo.com')[0]).toBe('yahoo.com.br');
    for (const typed of ['gmail.com', 'yahoo.com', 'escola.con']) expect(domainSlips(typed)).not.toContain(typed);
  });

  it('fixes the TLD of a domain it does not know; offers nothing for one that looks right', () => {
    expect(domainSlips('escolaexemplo.con')).toEqual(['escolaexemplo.com']);
    expect(domainSlips('escolaexemplo.com.bt')).toEqual(['escolaexemplo.com.br']);
    expect(domainSlips('empresa-grande.com.br')).toEqual([]);
  });
});

const student = (email: string, name = 'Maria Souza'): Suggestion => ({ id: email, email, name });

describe('closeEmails', () => {
  it('offers the e-mails within 2 edits (1 for a short one), nearest first, at most 3, case aside', () => {
    const list = ['thais.leao21@gmail.com', 'thais.leao12@gmail.com', 'thais.leao@gmail.com', 'Thais.Lea21@gmail.com', 'other@gmail.com'].map((e) => student(e));
    expect(closeEmails('thais.leao21@gmial.com', list).map((s) => s.email)).toEqual(['thais.leao21@gmail.com', 'thais.leao12@gmail.com', 'Thais.Lea21@gmail.com']);
    expect(closeEmails('a@b.co', [student('a@b.com'), student('ab@c.com')]).map((s) => s.email)).toEqual(['a@b.com']);
    expect(closeEmails('maria@example.com', [student('maria@example.com'), student('joana@example.com')])).toEqual([]);
  });
});

describe('describeSearch', () => {
  it('one suggestion as a question with the name; several as a list', () => {
    expect(describeSearch({ suggestions: [student('thais.leao21@gmail.com', 'Thaís Leão Simões')] }, 'x'))
      .toBe('Did you mean: thais.leao21@gmail.com (Thaís Leão Simões)?');
    expect(describeSearch({ suggestions: [student('a@x.com', ''), student('b@x.com', 'Bia')] }, 'x'))
      .toBe('Did you mean one of these?\n  a@x.com\n  b@x.com (Bia)');
  });

  it('nothing found: how far it looked, and the search command for a list too long to compare', () => {
    expect(describeSearch({ suggestions: [], compared: 200, complete: true }, 'ana@x.com'))
      .toBe('No student has a close e-mail (usual slips of the domain tried, all 200 e-mails compared); to search by a part of the name or e-mail: members students search "ana"');
    expect(describeSearch({ suggestions: [], compared: 1000, complete: false }, 'ana@x.com')).toContain('the first 1,000 e-mails compared');
    expect(describeSearch({ suggestions: [], total: 4312 }, 'ana@x.com'))
      .toBe('No usual slip of the domain matches a student, and the student list has 4,312 students, too many to compare every e-mail; to look through it: members students search "ana"');
    expect(describeSearch({ suggestions: [] }, 'ana@x.com')).toBe('');
  });
});

describe('searchEmailSlips', () => {
  const { api, pool } = mockApi();
  const notFound = (email: string) => pool().intercept({ path: `/api/v1/students/email/${encodeURIComponent(email)}`, method: 'GET' }).reply(404, { message: 'Not found.' });
  const page = (number: number, emails: string[], meta: Record<string, unknown>, next: boolean) =>
    pool().intercept({ path: `/api/v1/students?per_page=100&page=${number}`, method: 'GET' })
      .reply(200, { data: emails.map((email, i) => ({ id: `${number}-${i}`, email, first_name: 'Ana' })), links: { next: next ? 'x' : null }, meta });

  it('finds a slip of the domain by one direct lookup, without reading the list', async () => {
    pool().intercept({ path: '/api/v1/students/email/thais.leao21%40gmail.com', method: 'GET' })
      .reply(200, { data: { id: 's1', email: 'thais.leao21@gmail.com', full_name: 'Thaís Leão Simões' } });
    expect(await searchEmailSlips(api(), 'thais.leao21@gmial.com')).toEqual({
      suggestions: [{ id: 's1', email: 'thais.leao21@gmail.com', name: 'Thaís Leão Simões' }],
    });
  });

  it(`tries at most ${MAX_SLIP_LOOKUPS} slips, then compares a short list (one page)`, async () => {
    const slips = domainSlips('ol');
    expect(slips.length).toBeGreaterThan(MAX_SLIP_LOOKUPS);
    for (const domain of slips.slice(0, MAX_SLIP_LOOKUPS)) notFound(`anaa@${domain}`);
    page(1, ['ana@gmail.com', 'bob@gmail.com'], { total: 2, last_page: 1 }, false);
    const found = await searchEmailSlips(api(), 'anaa@ol');
    expect(found).toEqual({ suggestions: [], compared: 2, complete: true });
  });

  it(`does not read a list of more than ${SCAN_LIMIT} students past its first page`, async () => {
    notFound('zoe@escola.com');
    page(1, ['ana@escola.com'], { total: SCAN_LIMIT + 1, last_page: 11 }, true);
    expect(await searchEmailSlips(api(), 'zoe@escola.con')).toEqual({ suggestions: [], total: SCAN_LIMIT + 1 });
  });

  it('reads a list without a total (simplePaginate) page by page, and finds a close e-mail', async () => {
    notFound('joao.silva@escola.com');
    page(1, ['ana@escola.com'], {}, true);
    page(2, ['joao.silvaa@escola.com'], {}, false);
    const found = await searchEmailSlips(api(), 'joao.silva@escola.con');
    expect(found).toMatchObject({ suggestions: [{ email: 'joao.silvaa@escola.com' }], compared: 2, complete: true });
  });

  it('a failure on the way ends the search quietly: the "not found" stays the answer', async () => {
    pool().intercept({ path: '/api/v1/students/email/ana%40gmail.com', method: 'GET' }).reply(401, { message: 'Unauthenticated.' });
    expect(await searchEmailSlips(api(), 'ana@gmial.com')).toEqual({ suggestions: [] });
    expect(await searchEmailSlips(api(), 'no-at-sign')).toEqual({ suggestions: [] });
  });
});
