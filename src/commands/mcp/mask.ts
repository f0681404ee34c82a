/**
 * Personal data in what the assistant reads (issue 39, LGPD): masked by
 * default, enough to tell two students apart and to match a ticket
 * (`m***@gmail.com`, `***.456.789-**`, `***2284`, `1990-**-**`), never enough
 * to contact or identify a person. `members mcp --show-personal-data` turns
 * it off. Keys are masked by name wherever they sit (a student, a
 * subscription's embedded student, an audit record's snapshot); a key as the
 * desk typed it (`student` in a record) is masked by its shape, and any
 * other text by the e-mails and CPFs in it.
 */

const MASK = '***';

/** `maria.silva@gmail.com` → `m***@gmail.com`: the first letter and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return MASK;
  return `${email.slice(0, 1)}${MASK}${email.slice(at)}`;
}

/**
 * A CPF keeps its middle six digits (`***.456.789-**`), as the Receita's own
 * public listings do; another document its last two characters.
 */
export function maskDocument(document: string): string {
  const digits = document.replace(/\D/g, '');
  if (digits.length === 11 && /^[\d.\s-]+$/.test(document)) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  const text = document.trim();
  return text.length <= 4 ? MASK : `${MASK}${text.slice(-2)}`;
}

/** The last four digits: what a person reads back on the phone. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length <= 4 ? MASK : `${MASK}${digits.slice(-4)}`;
}

/** The year alone: `1990-04-12` → `1990-**-**`. */
export function maskBirth(birth: string): string {
  const year = /^\d{4}/.exec(birth.trim())?.[0];
  return year === undefined ? MASK : `${year}-**-**`;
}

const BY_KEY: Record<string, (value: string) => string> = {
  email: maskEmail,
  document: maskDocument,
  cpf: maskDocument,
  phone: maskPhone,
  birth: maskBirth,
  birth_date: maskBirth,
  birthdate: maskBirth,
};

/** A student key as typed (`maria@gmail.com`, `070.692.055-46`, `doc:…`): masked by what it looks like. */
export function maskStudentKey(key: string): string {
  const text = key.trim();
  if (text.includes('@')) return maskEmail(text.replace(/^email:/i, ''));
  if (/^doc:/i.test(text)) return `doc:${maskDocument(text.slice(4))}`;
  if (/^[\d.\s-]{11,14}$/.test(text) && text.replace(/\D/g, '').length === 11) return maskDocument(text);
  return text;
}

/** `id`, `student_id`, `request_id`: identifiers, never masked (the assistant names records by them). */
const IDENTIFIER = /(?:^|_)id$/;

/** Keys whose value is a student key as typed. */
const TYPED_KEYS = new Set(['student', 'from', 'to']);

/** `value` with every personal field masked (a new value; the input is left as it was). */
export function maskPersonalData<T>(value: T): T {
  return mask(value, undefined) as T;
}

function mask(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') {
    const byKey = key === undefined ? undefined : BY_KEY[key];
    if (byKey) return value === '' ? value : byKey(value);
    if (key !== undefined && TYPED_KEYS.has(key)) return maskStudentKey(value);
    // Any other text (a reason, a description) keeps no e-mail or CPF either; identifiers stay as they are.
    return key !== undefined && IDENTIFIER.test(key) ? value : maskText(value);
  }
  if (Array.isArray(value)) return value.map((item) => mask(item, undefined));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mask(item, name)]));
  }
  return value;
}

// An e-mail address, and a CPF written with or without its punctuation, inside free text.
const EMAIL_IN_TEXT = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[^\s@<>"'(),;:]+/g;
const CPF_IN_TEXT = /\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g;

/** Free text (a summary, an error's message) with the e-mails and CPFs in it masked. */
export function maskText(text: string): string {
  return text.replace(EMAIL_IN_TEXT, maskEmail).replace(CPF_IN_TEXT, maskDocument);
}
