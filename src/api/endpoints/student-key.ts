/**
 * STUDENT arguments (contract §1.3): `@` → e-mail, `doc:` → document,
 * `ref:` → reference, `phone:` or a phone written as one → phone, a CPF
 * typed with or without punctuation → document, else id. Bare digits that
 * may be a phone (10 to 13 of them; 11 only when they are no valid CPF) are
 * tried as a phone last.
 */
import { UsageError } from '../../lib/errors.js';
import { nationalPhone, phoneDigits, punctuatedPhone } from '../../lib/phone.js';

export type StudentKey =
  | { kind: 'email'; value: string }
  | {
    kind: 'document'; value: string;
    /** The same CPF written the other way (digits only ↔ punctuated): tried when the first is not found. */
    also?: string;
    /** Typed as 11 bare digits without `doc:`: if no student has that document, it may still be an id (tried last). */
    orId?: boolean;
    /** 11 bare digits that are no valid CPF: if neither a document nor an id, a phone (a mobile number with its area code has 11 digits too). */
    orPhone?: boolean;
  }
  | { kind: 'reference'; value: string }
  | {
    kind: 'id'; value: string;
    /** 10, 12 or 13 bare digits: if no student has that id, a phone. */
    orPhone?: boolean;
  }
  /** A phone as typed (`+55 61 93986-2924`); matched by its national digits (lib/phone.ts). */
  | { kind: 'phone'; value: string };

/**
 * 11 bare digits are a CPF, then an id; with wrong check digits a mobile
 * phone with its area code too, tried last: the platform may hold a CPF
 * mistyped, so wrong check digits do not make them a phone. Right ones rule
 * the phone out: trying it reads the whole student list, which a valid CPF
 * nobody has (a buyer not yet imported: the desk's daily case) must not cost;
 * the one phone in a hundred that has them is written `phone:…` or punctuated.
 */
export function parseStudentKey(input: string): StudentKey {
  const raw = input.trim();
  const key: StudentKey = raw.startsWith('doc:') ? documentKey(raw.slice(4))
    : raw.startsWith('ref:') ? { kind: 'reference', value: raw.slice(4) }
      : raw.startsWith('phone:') ? { kind: 'phone', value: raw.slice(6).trim() }
        : raw.includes('@') ? { kind: 'email', value: raw }
          : punctuatedPhone(raw) ? { kind: 'phone', value: raw }
            : isCpfShaped(raw) ? { ...documentKey(raw), ...(BARE_CPF.test(raw) ? { orId: true, ...(isCpf(raw) ? {} : { orPhone: true }) } : {}) }
              : { kind: 'id', value: raw, ...(phoneDigits(raw) === undefined ? {} : { orPhone: true }) };
  if (key.value === '') {
    throw new UsageError(`empty student ${key.kind} in ${JSON.stringify(input)}; give an id, an e-mail, a phone, doc:DOCUMENT or ref:REFERENCE`);
  }
  if (key.kind === 'phone' && phoneDigits(key.value) === undefined) {
    throw new UsageError(`${JSON.stringify(key.value)} is not a phone number: give 10 to 13 digits with the area code, as phone:61939862924 or "(61) 93986-2924"`);
  }
  return key;
}

const PUNCTUATED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const BARE_CPF = /^\d{11}$/;

/**
 * A CPF as support staff type it, `070.692.055-46` or 11 digits, whatever
 * its check digits: the platform does not check them, so it may hold a
 * mistyped one, and a lookup costs less than a wrong "not found" (an id of
 * 11 digits is still tried, last).
 */
export function isCpfShaped(text: string): boolean {
  return PUNCTUATED_CPF.test(text) || BARE_CPF.test(text);
}

/** A CPF whose two check digits are right. */
export function isCpf(text: string): boolean {
  return isCpfShaped(text) && cpfCheckDigits(text) === text.slice(-2);
}

/** The two check digits the first nine digits of a CPF call for; undefined for a number of one repeated digit (never issued). */
export function cpfCheckDigits(cpf: string): string | undefined {
  const digits = [...cpf.replace(/\D/g, '').slice(0, 9)].map(Number);
  if (digits.length !== 9 || digits.every((digit) => digit === digits[0])) return undefined;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += (digits[i] as number) * (length + 1 - i);
    const rest = sum % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.slice(9).join('');
}

/**
 * `346.719.699-07 is not a valid CPF: its check digits would be -39` for a
 * CPF-shaped text (punctuated, or 11 digits) whose check digits are wrong;
 * undefined otherwise. The support person can tell the student so.
 */
export function invalidCpf(text: string): string | undefined {
  if (!isCpfShaped(text) || isCpf(text)) return undefined;
  const wanted = cpfCheckDigits(text);
  if (wanted === undefined) return `${text} is not a valid CPF: no CPF is one digit repeated`;
  return `${text} is not a valid CPF: its check digits would be ${text.includes('-') ? '-' : ''}${wanted}`;
}

/** A CPF with wrong check digits, written the same way with the right ones (`346.719.699-07` → `346.719.699-39`); undefined otherwise. */
export function rightCheckDigits(text: string): string | undefined {
  const wanted = isCpfShaped(text) && !isCpf(text) ? cpfCheckDigits(text) : undefined;
  return wanted && `${text.slice(0, -2)}${wanted}`;
}

/** How a server writes the CPFs it stores: `070.692.055-46` or `07069205546`. */
export type CpfSpelling = 'punctuated' | 'bare';

export function cpfSpelling(text: string): CpfSpelling | undefined {
  return PUNCTUATED_CPF.test(text) ? 'punctuated' : BARE_CPF.test(text) ? 'bare' : undefined;
}

/** A document key; a CPF also carries its other spelling, since servers store either. */
function documentKey(value: string): StudentKey {
  if (!isCpfShaped(value)) return { kind: 'document', value };
  const digits = value.replace(/\D/g, '');
  const punctuated = `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
  return { kind: 'document', value, also: value === digits ? punctuated : digits };
}

/** An id to be used as it is, with no lookup (not digits that may also be a phone). */
export const plainId = (key: StudentKey): key is { kind: 'id'; value: string } => key.kind === 'id' && !key.orPhone;

/** A CPF key as 11 digits, a phone as its national digits, whichever way they were typed; any other key as typed. */
export const canonicalValue = (key: StudentKey) => (key.kind === 'document' && key.also !== undefined ? key.value.replace(/\D/g, '')
  : key.kind === 'phone' ? nationalPhone(key.value) : key.value);

/** `student 42`, `student with e-mail …`, `student with document 07069205546 (or 070.692.055-46) or id 07069205546`. */
export function describeKey(key: StudentKey): string {
  const orPhone = 'orPhone' in key && key.orPhone ? ` or phone ${key.value}` : '';
  if (key.kind === 'id') return orPhone ? `student with id ${key.value}${orPhone}` : `student ${key.value}`;
  if (key.kind !== 'document') return `student with ${key.kind === 'email' ? 'e-mail' : key.kind} ${key.value}`;
  return `student with document ${key.value}${key.also ? ` (or ${key.also})` : ''}${key.orId ? ` or id ${key.value}` : ''}${orPhone}`;
}

/**
 * What to add to "not found": for a CPF with wrong check digits, that it is
 * not a valid CPF, and what they would be; for a name (letters and a space,
 * or accents: never an id), how to search for it.
 */
export function notFoundHint(key: StudentKey): string {
  const invalid = key.kind === 'document' ? invalidCpf(key.value) : undefined;
  if (invalid) return `. ${invalid} (a typo?)`;
  if (key.kind === 'document' && key.orId && !key.orPhone) return `. A phone? Write it as phone:${key.value}, or with its punctuation`;
  if (key.kind !== 'id' || !looksLikeName(key.value)) return '';
  return `. It was taken for an id; ${searchHint(key.value)}`;
}

/** Spaces or accents: a name typed where a key goes, never an id. */
const looksLikeName = (text: string) => /\s/.test(text) || /[^\p{ASCII}]/u.test(text);
const searchHint = (text: string) => `to find a student by name: members students search ${JSON.stringify(text)}`;

/**
 * Why a key taken for an id cannot be one (a name; a `/`, which no id
 * route takes: a document typed without `doc:`; `.` or `..`), or undefined. A bulk row is
 * refused for it before anything is sent; a single command still asks, and
 * says so with the "not found" (notFoundHint).
 */
export function notAnId(key: StudentKey): string | undefined {
  if (key.kind !== 'id') return undefined;
  if (looksLikeName(key.value)) return `${JSON.stringify(key.value)} cannot be an id (it has spaces or accents); give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE, or ${searchHint(key.value)}`;
  if (key.value.includes('/')) return `${JSON.stringify(key.value)} cannot be an id (it has a /); a document is written doc:${key.value}, a reference ref:${key.value}`;
  if (/^\.{1,2}$/.test(key.value)) return `${JSON.stringify(key.value)} cannot be an id; give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE`;
  return undefined;
}
