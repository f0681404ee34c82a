/**
 * STUDENT arguments (contract §5 and §7): `@` → e-mail, `doc:` → document,
 * `ref:` → reference, a CPF typed with or without punctuation → document,
 * else id.
 */
import { UsageError } from '../../lib/errors.js';

export type StudentKey =
  | { kind: 'email'; value: string }
  | {
    kind: 'document'; value: string;
    /** The same CPF written the other way (digits only ↔ punctuated): tried when the first is not found. */
    also?: string;
    /** Typed as bare digits without `doc:`: if no student has that document, it may still be an id (tried last). */
    orId?: boolean;
  }
  | { kind: 'reference'; value: string }
  | { kind: 'id'; value: string };

export function parseStudentKey(input: string): StudentKey {
  const raw = input.trim();
  const key: StudentKey = raw.startsWith('doc:') ? documentKey(raw.slice(4))
    : raw.startsWith('ref:') ? { kind: 'reference', value: raw.slice(4) }
      : raw.includes('@') ? { kind: 'email', value: raw }
        : isCpf(raw) ? { ...documentKey(raw), ...(/^\d+$/.test(raw) ? { orId: true } : {}) }
          : { kind: 'id', value: raw };
  if (key.value === '') {
    throw new UsageError(`empty student ${key.kind} in ${JSON.stringify(input)}; give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE`);
  }
  return key;
}

const PUNCTUATED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;

/**
 * A CPF as support staff type it: `070.692.055-46`, or 11 digits whose two
 * check digits are right (an id that happens to be 11 digits almost never is).
 */
export function isCpf(text: string): boolean {
  if (PUNCTUATED_CPF.test(text)) return true;
  if (!/^\d{11}$/.test(text) || /^(\d)\1{10}$/.test(text)) return false;
  const digits = [...text].map(Number);
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += (digits[i] as number) * (length + 1 - i);
    const rest = sum % 11;
    if ((rest < 2 ? 0 : 11 - rest) !== digits[length]) return false;
  }
  return true;
}

/** A document key; a CPF also carries its other spelling, since servers store either. */
function documentKey(value: string): StudentKey {
  if (!isCpf(value)) return { kind: 'document', value };
  const digits = value.replace(/\D/g, '');
  const punctuated = `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
  return { kind: 'document', value, also: value === digits ? punctuated : digits };
}

/** `student 42`, `student with e-mail …`, `student with document 07069205546 (or 070.692.055-46) or id 07069205546`. */
export function describeKey(key: StudentKey): string {
  if (key.kind === 'id') return `student ${key.value}`;
  if (key.kind !== 'document') return `student with ${key.kind === 'email' ? 'e-mail' : key.kind} ${key.value}`;
  return `student with document ${key.value}${key.also ? ` (or ${key.also})` : ''}${key.orId ? ` or id ${key.value}` : ''}`;
}

/**
 * What to add to "not found" for an id: for 11 digits, why it was not taken
 * for a CPF; for a name (letters and a space, or accents: never an id), how to
 * search for it.
 */
export function notFoundHint(key: StudentKey): string {
  if (key.kind !== 'id') return '';
  if (/^\d{11}$/.test(key.value)) {
    return `. It was taken for an id, not a CPF: its check digits are wrong (a typo?). To look it up as a document anyway: doc:${key.value}`;
  }
  if (/\s/.test(key.value) || /[^\p{ASCII}]/u.test(key.value)) {
    return `. It was taken for an id; to find a student by name: members students search ${JSON.stringify(key.value)}`;
  }
  return '';
}
