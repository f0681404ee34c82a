/**
 * `members students search TEXT`: the API has no search, so the student list
 * is read page by page and matched here, by name, e-mail, phone or document
 * fragment (case and accents ignored; phones and documents by their digits).
 */
import type { Api } from '../api/client.js';
import type { PageInfo } from '../api/paginate.js';
import type { Student } from '../api/schemas.js';
import { listStudents } from '../api/students.js';
import { UsageError } from '../errors.js';
import { personName } from '../people.js';
import { fold } from './names.js';

const digits = (text: string) => text.replace(/\D/g, '');

/** A test for one student; a query too short to mean anything is a usage error. */
export function studentMatcher(query: string): (student: Student) => boolean {
  const text = fold(query);
  if (text.length < 2) throw new UsageError('give at least 2 characters to search for (a name, an e-mail, a phone or a document fragment)');
  const number = digits(query);
  // Digits alone (a phone, a CPF) are compared with digits: "11 91234-5678" finds "+55 (11) 91234 5678".
  const byDigits = number.length >= 4 && number.length >= text.replace(/[\s().+-]/g, '').length;
  return (student) => {
    if (byDigits) return digits(student.phone ?? '').includes(number) || digits(student.document ?? '').includes(number);
    return [personName(student), student.email ?? '', student.document ?? ''].some((field) => fold(field).includes(text));
  };
}

export interface SearchProgress {
  /** Students read so far, and the total when the server says it. */
  (read: number, total: number | undefined): void;
}

/** The matching students, streamed as pages arrive; `progress` hears of every page. */
export async function* searchStudents(api: Api, query: string, progress: SearchProgress = () => undefined): AsyncGenerator<Student> {
  const matches = studentMatcher(query);
  let info: PageInfo | undefined;
  let read = 0;
  const students = listStudents(api, { all: true, perPage: 100, concurrency: 4, onInfo: (first) => (info = first) });
  for await (const student of students) {
    read++;
    if (read % 100 === 0) progress(read, info?.total);
    if (matches(student)) yield student;
  }
  progress(read, info?.total ?? read);
}
