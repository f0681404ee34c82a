/**
 * Contract §1.3: every value placed in a URL path is one percent-encoded
 * segment. For arbitrary Unicode — slashes, dots, `%`, `?`, `#`, `@`,
 * backslashes, whole URLs — the request stays on the base URL's host, has
 * exactly the expected segments, and the last one decodes back to the value.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/api/transport/http.js';
import { apiPath, segment } from '../../src/api/endpoints/path.js';
import { parseStudentKey, type StudentKey } from '../../src/api/endpoints/student-key.js';
import { UsageError } from '../../src/lib/errors.js';

const RUNS = { numRuns: 3000 };

/** Pieces that have tried to escape a path segment somewhere. */
const HOSTILE = [
  '/', '\\', '.', '..', '%', '%2e', '%2E', '%2f', '%5c', '%00', '?', '#', '@', ':', ';', ' ', '\t', '\n', '\r', '\0',
  '//evil.example', 'https://evil.example/', '\\\\evil.example', '@evil.example', '..%2f', '%252e%252e', '\u3002', '\uff0e',
  '\u2024', '\u202e', '\ufeff', '\u0130', 'ß', '😀', '\u{e0041}', 'é', 'e\u0301',
];

const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.array(fc.constantFrom(...HOSTILE), { maxLength: 6 }).map((parts) => parts.join('')),
  fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary-ascii', maxLength: 3 })), { maxLength: 6 }).map((parts) => parts.join('')),
);

/** A string with a UTF-16 surrogate that has no partner: encodeURIComponent cannot encode it. */
const withLoneSurrogate = fc.tuple(
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.string({ unit: 'binary-ascii', maxLength: 4 }),
).map(([a, lone, b]) => a + lone + b);

const unusable = (text: string) => text === '' || text === '.' || text === '..';

function usageErrorOrValue<T>(fn: () => T): T | UsageError {
  try {
    return fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

describe('segment and apiPath', () => {
  const client = new HttpClient({
    baseUrl: new URL('https://h.example/members'), timeoutMs: 1000, retries: 0, userAgent: 'test', secrets: [],
  });
  afterAll(() => client.close());

  it('keeps the host, the number of segments, and decodes back to the value', () => {
    fc.assert(fc.property(value, (s) => {
      const path = usageErrorOrValue(() => apiPath`/api/v1/students/document/${s}`);
      if (unusable(s)) {
        expect(path).toBeInstanceOf(UsageError);
        return;
      }
      expect(typeof path).toBe('string');
      const url = new URL(path as string, 'https://h.example');
      expect(url.origin).toBe('https://h.example');
      expect(url.search).toBe('');
      expect(url.hash).toBe('');
      const segments = url.pathname.split('/');
      expect(segments.slice(0, 5)).toEqual(['', 'api', 'v1', 'students', 'document']);
      expect(segments).toHaveLength(6);
      expect(decodeURIComponent(segments[5] as string)).toBe(s);
    }), RUNS);
  });

  it('keeps every segment in place when several values are interpolated, below a base path too', () => {
    fc.assert(fc.property(value, value, (a, b) => {
      const path = usageErrorOrValue(() => apiPath`/api/v1/students/${a}/products/${b}`);
      if (unusable(a) || unusable(b)) {
        expect(path).toBeInstanceOf(UsageError);
        return;
      }
      const url = client.url(path as string);
      expect(url.origin).toBe('https://h.example');
      const segments = url.pathname.split('/');
      expect(segments).toHaveLength(8);
      expect(segments.slice(0, 5)).toEqual(['', 'members', 'api', 'v1', 'students']);
      expect(segments[6]).toBe('products');
      expect(decodeURIComponent(segments[5] as string)).toBe(a);
      expect(decodeURIComponent(segments[7] as string)).toBe(b);
    }), RUNS);
  });

  it('refuses ".", ".." and the empty string with a UsageError, and accepts their encoded look-alikes', () => {
    for (const text of ['', '.', '..']) expect(() => segment(text)).toThrow(UsageError);
    for (const text of ['...', '%2e', '%2e%2e', '.%2e', ' .', '. ', '\uff0e\uff0e']) {
      expect(decodeURIComponent(segment(text))).toBe(text);
    }
  });

  it('refuses a string with a lone surrogate with a UsageError, never a URIError', () => {
    fc.assert(fc.property(withLoneSurrogate, (s) => {
      expect(() => segment(s)).toThrow(UsageError);
    }), { numRuns: 500 });
  });

  it('encodes numbers like their text', () => {
    fc.assert(fc.property(fc.integer(), (n) => {
      expect(segment(n)).toBe(encodeURIComponent(String(n)));
    }));
  });
});

describe('parseStudentKey', () => {
  /** The rules of contract §1.3, written out independently of the implementation. */
  /** Weights 10, 11 (the CPF's check digits), 2: sums to the check digit a CPF's first nine digits call for. */
  function cpfValid(digits: string): boolean {
    if (/^(\d)\1{10}$/.test(digits)) return false;
    const check = (length: number) => {
      const sum = [...digits.slice(0, length)].reduce((total, digit, i) => total + Number(digit) * (length + 1 - i), 0);
      return (sum * 10) % 11 % 10;
    };
    return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
  }

  function expected(input: string): { kind: string; value: string; orPhone?: boolean } | 'usage' {
    const raw = input.trim();
    const digits = raw.replace(/\D/g, '');
    const phoneLength = digits.length >= 10 && digits.length <= 13;
    let key: { kind: string; value: string; orPhone?: boolean };
    if (raw.startsWith('doc:')) key = { kind: 'document', value: raw.slice(4) };
    else if (raw.startsWith('ref:')) key = { kind: 'reference', value: raw.slice(4) };
    else if (raw.startsWith('phone:')) key = { kind: 'phone', value: raw.slice(6).trim() };
    else if (raw.includes('@')) key = { kind: 'email', value: raw };
    else if (/^\+?[\d\s()-]+$/.test(raw) && /[\s()+-]/.test(raw) && phoneLength) key = { kind: 'phone', value: raw };
    else if (/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(raw)) key = { kind: 'document', value: raw };
    else if (/^\d{11}$/.test(raw)) key = { kind: 'document', value: raw, ...(cpfValid(raw) ? {} : { orPhone: true }) };
    else key = { kind: 'id', value: raw, ...(/^\d{10,13}$/.test(raw) ? { orPhone: true } : {}) };
    if (key.value === '') return 'usage';
    if (key.kind === 'phone' && !(/^\+?[\d\s()-]+$/.test(key.value) && key.value.replace(/\D/g, '').length >= 10 && key.value.replace(/\D/g, '').length <= 13)) return 'usage';
    return key;
  }

  /** Digits with a phone's or a CPF's punctuation here and there, of the lengths where phones, CPFs and ids meet. */
  const digitsLike = fc.tuple(
    fc.constantFrom('', '', '+', '+55 ', '(', 'phone:', 'phone: ', ' '),
    fc.array(fc.oneof(fc.constantFrom('0', '1', '5', '6', '9'), fc.integer({ min: 0, max: 9 }).map(String), fc.constantFrom(' ', '-', ')', '.', 'x')), { minLength: 8, maxLength: 16 }),
  ).map(([prefix, parts]) => prefix + parts.join(''));

  /** 11 digits with right check digits: the CPFs among the digit strings above are too rare to count on. */
  const validCpf = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }).map((nine) => nine.join(''))
    .filter((nine) => !/^(\d)\1{8}$/.test(nine))
    .map((nine) => [0, 1].reduce((cpf) => cpf + String(([...cpf].reduce((total, digit, i) => total + Number(digit) * (cpf.length + 1 - i), 0) * 10) % 11 % 10), nine));

  const input = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.tuple(fc.constantFrom('doc:', 'ref:', ' doc:', 'DOC:', 'ref: ', '', '\t'), fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('', '@', '@x.example', ' ', '\n'))
      .map(([prefix, middle, suffix]) => prefix + middle + suffix),
    digitsLike,
    validCpf,
  );

  it('classifies every input as the contract says, or refuses an empty key or a phone: that is none with a UsageError', () => {
    fc.assert(fc.property(input, (text) => {
      const want = expected(text);
      const got = usageErrorOrValue(() => parseStudentKey(text));
      if (want === 'usage') {
        expect(got).toBeInstanceOf(UsageError);
        return;
      }
      // Kind, value and whether a phone is tried; the CPF's other spelling and the id are the unit tests' (student-key.test.ts).
      const { kind, value, orPhone } = got as StudentKey & { orPhone?: boolean };
      expect({ kind, value, ...(orPhone ? { orPhone } : {}) }).toEqual(want);
    }), RUNS);
  });

  it('a valid CPF typed bare is a document first, then an id, never a phone; a phone written as one is never a CPF or an id', () => {
    fc.assert(fc.property(validCpf, (cpf) => {
      expect(parseStudentKey(cpf)).toEqual({ kind: 'document', value: cpf, also: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`, orId: true });
      expect(cpfValid(cpf)).toBe(true);
      const spelled = `(${cpf.slice(0, 2)}) ${cpf.slice(2, 7)}-${cpf.slice(7)}`;
      expect(parseStudentKey(spelled)).toEqual({ kind: 'phone', value: spelled });
    }), RUNS);
  });

  it('gives back the value put after doc: and ref:, whatever it holds', () => {
    fc.assert(fc.property(fc.constantFrom('doc:', 'ref:'), fc.string({ unit: 'binary', minLength: 1 }).filter((v) => v.trim() === v), (prefix, v) => {
      expect(parseStudentKey(prefix + v)).toEqual({ kind: prefix === 'doc:' ? 'document' : 'reference', value: v });
    }), RUNS);
  });

  it('every key it returns can be placed in a path, or is refused there with a UsageError', () => {
    fc.assert(fc.property(input, (text) => {
      const key = usageErrorOrValue(() => parseStudentKey(text));
      if (key instanceof UsageError) return;
      const path = usageErrorOrValue(() => apiPath`/api/v1/students/email/${key.value}`);
      if (path instanceof UsageError) return;
      expect(decodeURIComponent(path.split('/')[5] as string)).toBe(key.value);
    }), RUNS);
  });
});
