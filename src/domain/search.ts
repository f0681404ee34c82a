/**
 * `members students search TEXT`: the API has no search, so the student list
 * is read page by page and matched here, by name, e-mail, phone, document or
 * reference fragment (case and accents ignored; each word of the query
 * anywhere in them; phones, documents and references by their digits).
 */
import type { Api } from '../api/client.js';
import type { PageInfo } from '../api/pagination/paginate.js';
import type { Student } from '../api/endpoints/schemas.js';
import { listStudents } from '../api/endpoints/students.js';
import { UsageError } from '../lib/errors.js';
import { personName } from '../lib/people.js';
import { fold } from './names.js';

const digits = (text: string) => text.replace(/\D/g, '');

/** Where a query was found in a student: a table keeps that column (a phone is not among its usual ones). */
export type MatchedField = 'name' | 'email' | 'phone' | 'document' | 'reference';

/**
 * Where the query is found in one student (empty: it is not); a query too
 * short to mean anything is a usage error.
 */
export function matchedFields(query: string): (student: Student) => MatchedField[] {
  const text = fold(query);
  if (text.length < 2) throw new UsageError('give at least 2 characters to search for (a name, an e-mail, a phone, a document or a reference fragment)');
  const number = digits(query);
  // Digits alone (a phone, a CPF, an order number) are compared with digits: "11 91234-5678" finds "+55 (11) 91234 5678".
  const byDigits = number.length >= 4 && number.length >= text.replace(/[\s().+-]/g, '').length;
  // Each word on its own: "joao silva" finds "João da Silva", "silva gmail" an e-mail at gmail.
  const words = text.split(' ');
  return (student) => {
    if (byDigits) {
      const numbers: Array<[MatchedField, string | null | undefined]> = [['phone', student.phone], ['document', student.document], ['reference', student.reference_id]];
      return numbers.filter(([, value]) => digits(value ?? '').includes(number)).map(([field]) => field);
    }
    const fields: Array<[MatchedField, string]> = [
      ['name', fold(personName(student))], ['email', fold(student.email ?? '')], ['document', fold(student.document ?? '')], ['reference', fold(student.reference_id ?? '')],
    ];
    if (!words.every((word) => fields.some(([, value]) => value.includes(word)))) return [];
    return fields.filter(([, value]) => words.some((word) => value.includes(word))).map(([field]) => field);
  };
}

/**
 * The fields a table of these results must show, however narrow the
 * terminal: those the query matched in any of them, and the phone when two
 * share a name (it tells them apart).
 */
export function fieldsToShow(students: readonly Student[], where: (student: Student) => readonly MatchedField[]): Set<MatchedField> {
  const shown = new Set(students.flatMap(where));
  const names = students.map((student) => fold(personName(student))).filter(Boolean);
  if (new Set(names).size < names.length) shown.add('phone');
  return shown;
}

/** A test for one student; a query too short to mean anything is a usage error. */
export function studentMatcher(query: string): (student: Student) => boolean {
  const where = matchedFields(query);
  return (student) => where(student).length > 0;
}

export interface SearchProgress {
  /** Students read so far, the total when the server says it, and the matches so far (a table shows them only at the end). */
  (read: number, total: number | undefined, matched: number): void;
}

/** The matching students, streamed as pages arrive; `progress` hears of every page. */
export async function* searchStudents(api: Api, query: string, progress: SearchProgress = () => undefined): AsyncGenerator<Student> {
  const matches = studentMatcher(query);
  let info: PageInfo | undefined;
  let read = 0;
  let matched = 0;
  const students = listStudents(api, { all: true, perPage: 100, concurrency: 4, onInfo: (first) => (info = first) });
  for await (const student of students) {
    read++;
    const match = matches(student);
    if (match) matched++;
    if (read % 100 === 0) progress(read, info?.total, matched);
    if (match) yield student;
  }
  progress(read, info?.total ?? read, matched);
}
