/**
 * A phone number as a STUDENT (issue 37, item 3): `+55 61 93986-2924`,
 * `(61) 93986-2924`, `61939862924` name the one student whose phone has
 * those digits, the country code (55) and a trunk 0 optional. The API has
 * no lookup by phone, so the student list is read, as `students search`
 * reads it; several students with the number are exit 2 (listed), none 4.
 */
import type { Api } from '../api/client.js';
import type { Student } from '../api/endpoints/schemas.js';
import { listStudents } from '../api/endpoints/students.js';
import { CliError, ExitCode, UsageError } from '../lib/errors.js';
import { nameAndEmail } from '../lib/people.js';

const PAGE = 100;

/** The digits of `input` when it is written as a phone (10 to 13 digits, with +, spaces, parentheses or dashes at most); else undefined. */
export function phoneDigits(input: string): string | undefined {
  const text = input.trim();
  if (!/^\+?[\d\s()-]+$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 10 && digits.length <= 13 ? digits : undefined;
}

/** Written with a phone's punctuation (+, a space, parentheses or a dash), not bare digits: never an id or a CPF. */
export const punctuatedPhone = (input: string) => phoneDigits(input) !== undefined && /[\s()+-]/.test(input.trim());

/** The national number: without a leading trunk 0 and the Brazilian country code. */
const national = (digits: string) => digits.replace(/^0+/, '').replace(/^55(?=\d{10,11}$)/, '');

export function samePhone(a: string, b: string): boolean {
  const x = national(a.replace(/\D/g, ''));
  return x.length >= 10 && x === national(b.replace(/\D/g, ''));
}

export interface FoundByPhone {
  student: Student;
  /** Requests it took: the pages of the student list read. */
  requests: number;
}

/** The one student with the phone `input`; reads the whole student list. */
export async function findByPhone(api: Api, input: string): Promise<FoundByPhone> {
  const matches: Student[] = [];
  let read = 0;
  for await (const student of listStudents(api, { all: true, perPage: PAGE, concurrency: 4 })) {
    read++;
    if (student.phone && samePhone(input, student.phone)) matches.push(student);
  }
  const requests = Math.max(1, Math.ceil(read / PAGE));
  if (matches.length === 1) return { student: matches[0] as Student, requests };
  if (matches.length === 0) {
    throw new CliError(`no student has the phone ${input.trim()} (the whole student list was read: ${read} students); search by a part of the name or e-mail: members students search TEXT`, ExitCode.notFound, 404);
  }
  const listed = matches.slice(0, 10).map((student) => `  ${student.id}  ${nameAndEmail(student)}`).join('\n');
  throw new UsageError(`${matches.length} students have the phone ${input.trim()}; give one's e-mail or id:\n${listed}`);
}
