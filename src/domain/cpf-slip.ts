/**
 * "Not found" for a CPF whose check digits are wrong: whether a student
 * holds the same nine digits with the right ones (1 or 2 lookups: both
 * spellings). Offered, never acted on: the support person checks the name,
 * since a slip among the nine digits gives right check digits for someone
 * else's number.
 */
import type { Api } from '../api/client.js';
import { findStudent } from '../api/endpoints/students.js';
import { parseStudentKey, rightCheckDigits } from '../api/endpoints/student-key.js';
import { personName } from '../lib/people.js';

export interface CpfSearch {
  /** The CPF typed, with the check digits its nine digits call for. */
  fixed: string;
  /** Whether a student holds it, and the name. */
  found: boolean;
  name?: string;
}

/** Undefined for a key that is no CPF with wrong check digits, or when the lookup failed (a 429, a timeout): best effort. */
export async function searchCpfSlip(api: Api, typed: string): Promise<CpfSearch | undefined> {
  const fixed = rightCheckDigits(typed);
  if (fixed === undefined) return undefined;
  try {
    const student = await findStudent(api, parseStudentKey(`doc:${fixed}`));
    return student ? { fixed, found: true, name: personName(student) } : { fixed, found: false };
  } catch {
    return undefined;
  }
}

/** `Did you mean: 346.719.699-39 (Thaís Leão Simões)?`, or that nobody holds that one either. */
export function describeCpfSearch(search: CpfSearch): string {
  if (!search.found) return `No student has ${search.fixed} either (its nine digits with the right check digits): ask the student for the number again`;
  return `Did you mean: ${search.fixed}${search.name ? ` (${search.name})` : ''}?`;
}
