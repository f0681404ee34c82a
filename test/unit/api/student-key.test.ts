import { describe, expect, it } from 'vitest';
import { canonicalValue, cpfCheckDigits, cpfSpelling, describeKey, invalidCpf, isCpf, isCpfShaped, notAnId, notFoundHint, parseStudentKey, plainId, rightCheckDigits } from '../../../src/api/endpoints/student-key.js';
import { UsageError } from '../../../src/lib/errors.js';

describe('a CPF as a STUDENT', () => {
  it('punctuated or bare digits with right check digits is a document, carrying its other spelling', () => {
    expect(parseStudentKey('070.692.055-46')).toEqual({ kind: 'document', value: '070.692.055-46', also: '07069205546' });
    // Bare digits without doc: may still be an id; a valid CPF is never tried as a phone.
    expect(parseStudentKey(' 07069205546 ')).toEqual({ kind: 'document', value: '07069205546', also: '070.692.055-46', orId: true });
    expect(parseStudentKey('doc:07069205546')).toEqual({ kind: 'document', value: '07069205546', also: '070.692.055-46' });
  });

  it('with wrong check digits, or all one digit, still a document first (the platform may hold a mistyped one), then an id, then a phone', () => {
    expect(parseStudentKey('07069205547')).toEqual({ kind: 'document', value: '07069205547', also: '070.692.055-47', orId: true, orPhone: true });
    expect(parseStudentKey('346.719.699-07')).toEqual({ kind: 'document', value: '346.719.699-07', also: '34671969907' });
    expect(parseStudentKey('11111111111')).toEqual({ kind: 'document', value: '11111111111', also: '111.111.111-11', orId: true, orPhone: true });
  });

  it('other lengths and spellings stay an id (10 to 13 bare digits then tried as a phone); other documents have no other spelling', () => {
    expect(parseStudentKey('0706920554')).toEqual({ kind: 'id', value: '0706920554', orPhone: true });
    expect(parseStudentKey('070692055466')).toEqual({ kind: 'id', value: '070692055466', orPhone: true });
    expect(parseStudentKey('706920554')).toEqual({ kind: 'id', value: '706920554' });
    expect(parseStudentKey('55619398629241')).toEqual({ kind: 'id', value: '55619398629241' });
    expect(parseStudentKey('070.692.05546')).toEqual({ kind: 'id', value: '070.692.05546' });
    expect(parseStudentKey('doc:RG/1234567-8')).toEqual({ kind: 'document', value: 'RG/1234567-8' });
    expect(parseStudentKey('9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f')).toEqual({ kind: 'id', value: '9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f' });
  });

  it('checks both check digits', () => {
    expect(['52998224725', '11144477735', '00000000191'].map(isCpf)).toEqual([true, true, true]);
    expect(['52998224715', '52998224726', '5299822472', '529982247250'].map(isCpf)).toEqual([false, false, false, false]);
    expect(['529.982.247-25', '529.982.247-26'].map(isCpf)).toEqual([true, false]);
    expect(['52998224726', '529.982.247-26', '5299822472', '529.982.24726', 'a2998224725'].map(isCpfShaped)).toEqual([true, true, false, false, false]);
    expect(['x529.982.247-25', '529.982.247-25x'].map(isCpfShaped)).toEqual([false, false]);
  });

  it('writes a CPF with wrong check digits again with the right ones, in the spelling typed', () => {
    expect(rightCheckDigits('346.719.699-07')).toBe('346.719.699-39');
    expect(rightCheckDigits('34671969907')).toBe('34671969939');
    expect(rightCheckDigits('346.719.699-39')).toBeUndefined();
    expect(rightCheckDigits('111.111.111-11')).toBeUndefined();
    expect(rightCheckDigits('3467196990')).toBeUndefined();
  });
});

describe('an empty key', () => {
  it('is a usage error naming its kind and what to give', () => {
    expect(() => parseStudentKey('doc:')).toThrow('empty student document in "doc:"; give an id, an e-mail, a phone, doc:DOCUMENT or ref:REFERENCE');
    expect(() => parseStudentKey('phone: ')).toThrow('empty student phone in "phone: "');
  });
});

describe('a phone as a STUDENT (issue 37)', () => {
  it('written as a phone (+, parentheses, a space or a dash; 10 to 13 digits) is a phone, never a CPF or an id', () => {
    for (const typed of ['+55 61 93986-2924', '(61) 93986-2924', '61 93986-2924', '+5561939862924', '061 3986-2924']) {
      expect(parseStudentKey(` ${typed} `)).toEqual({ kind: 'phone', value: typed });
    }
    // A punctuated CPF has dots: still a document.
    expect(parseStudentKey('070.692.055-46').kind).toBe('document');
    // Too few digits for a whole number: an id as before.
    expect(parseStudentKey('93986-2924')).toEqual({ kind: 'id', value: '93986-2924' });
  });

  it('phone: forces a phone, and refuses what is none', () => {
    expect(parseStudentKey('phone:52998224725')).toEqual({ kind: 'phone', value: '52998224725' });
    expect(parseStudentKey('phone: (61) 93986-2924')).toEqual({ kind: 'phone', value: '(61) 93986-2924' });
    expect(() => parseStudentKey('phone:1234')).toThrow('"1234" is not a phone number: give 10 to 13 digits with the area code');
    expect(() => parseStudentKey('phone:61 9398x-2924')).toThrow(UsageError);
  });

  it('11 bare digits: a document, an id, then — unless they are a valid CPF — a phone', () => {
    expect(parseStudentKey('61939862924')).toEqual({ kind: 'document', value: '61939862924', also: '619.398.629-24', orId: true, orPhone: true });
    // A valid CPF nobody has must not read the whole student list: no phone.
    expect(parseStudentKey('52998224725')).toEqual({ kind: 'document', value: '52998224725', also: '529.982.247-25', orId: true });
    expect(notFoundHint(parseStudentKey('52998224725'))).toBe('. A phone? Write it as phone:52998224725, or with its punctuation');
    expect(notFoundHint(parseStudentKey('61939862924'))).toMatch(/^\. 61939862924 is not a valid CPF/);
    // With doc:, a document only.
    expect(parseStudentKey('doc:52998224725')).toEqual({ kind: 'document', value: '52998224725', also: '529.982.247-25' });
  });

  it('a phone key is compared by its national digits: the same cache entry whichever way it is written', () => {
    const national = ['+55 61 93986-2924', '(61) 93986-2924', 'phone:061939862924'].map((typed) => canonicalValue(parseStudentKey(typed)));
    expect(national).toEqual(['61939862924', '61939862924', '61939862924']);
  });

  it('only an id that cannot be a phone is taken without a lookup', () => {
    expect(['42', '9b2f0c1e', '6193986292', '+55 61 93986-2924'].map((typed) => plainId(parseStudentKey(typed)))).toEqual([true, true, false, false]);
  });

  it('"not found" names every try', () => {
    expect(describeKey(parseStudentKey('(61) 93986-2924'))).toBe('student with phone (61) 93986-2924');
    expect(describeKey(parseStudentKey('6193986292'))).toBe('student with id 6193986292 or phone 6193986292');
    expect(describeKey(parseStudentKey('61939862924'))).toBe('student with document 61939862924 (or 619.398.629-24) or id 61939862924 or phone 61939862924');
  });
});

describe('what "not found" says about a CPF', () => {
  it('names both spellings, and the id when the digits were typed bare', () => {
    expect(describeKey(parseStudentKey('07069205546'))).toBe('student with document 07069205546 (or 070.692.055-46) or id 07069205546');
    expect(describeKey(parseStudentKey('070.692.055-46'))).toBe('student with document 070.692.055-46 (or 07069205546)');
    expect(describeKey(parseStudentKey('doc:RG/1'))).toBe('student with document RG/1');
    expect(describeKey(parseStudentKey('maria@example.com'))).toBe('student with e-mail maria@example.com');
    expect(describeKey(parseStudentKey('ref:CRM-1'))).toBe('student with reference CRM-1');
  });

  it('11 digits with wrong check digits, looked up as a document and then an id, say it is not a valid CPF and what its check digits would be', () => {
    expect(describeKey(parseStudentKey('07069205547'))).toBe('student with document 07069205547 (or 070.692.055-47) or id 07069205547 or phone 07069205547');
    expect(notFoundHint(parseStudentKey('07069205547'))).toBe('. 07069205547 is not a valid CPF: its check digits would be 46 (a typo?)');
    expect(notFoundHint(parseStudentKey('1234'))).toBe('');
    expect(notFoundHint(parseStudentKey('07069205546'))).toBe('. A phone? Write it as phone:07069205546, or with its punctuation');
  });

  it('a document shaped like a CPF with wrong check digits is said to be invalid; a valid one or another document is not', () => {
    expect(notFoundHint(parseStudentKey('346.719.699-07'))).toBe('. 346.719.699-07 is not a valid CPF: its check digits would be -39 (a typo?)');
    expect(notFoundHint(parseStudentKey('doc:34671969907'))).toBe('. 34671969907 is not a valid CPF: its check digits would be 39 (a typo?)');
    expect(notFoundHint(parseStudentKey('doc:111.111.111-11'))).toBe('. 111.111.111-11 is not a valid CPF: no CPF is one digit repeated (a typo?)');
    expect(notFoundHint(parseStudentKey('070.692.055-46'))).toBe('');
    expect(notFoundHint(parseStudentKey('doc:RG/1234567-8'))).toBe('');
    expect(notFoundHint(parseStudentKey('maria@example.com'))).toBe('');
    expect(notFoundHint(parseStudentKey('ref:34671969907'))).toBe('');
  });

  it('computes both check digits from the first nine, whatever the punctuation', () => {
    expect(cpfCheckDigits('529.982.247-00')).toBe('25');
    expect(cpfCheckDigits('000000001')).toBe('91');
    // A remainder under 2 gives 0.
    expect(cpfCheckDigits('111444771')).toBe('40');
    expect(cpfCheckDigits('5299822')).toBeUndefined();
    expect(invalidCpf('529.982.247-25')).toBeUndefined();
    expect(invalidCpf('5299822472')).toBeUndefined();
  });

  it('a name given where an id goes says how to search for it; an id-like key does not', () => {
    expect(notFoundHint(parseStudentKey('Maria Souza'))).toBe('. It was taken for an id; to find a student by name: members students search "Maria Souza"');
    expect(notFoundHint(parseStudentKey('Mônica'))).toBe('. It was taken for an id; to find a student by name: members students search "Mônica"');
    expect(notFoundHint(parseStudentKey('a812b423-013e-4fa2-956d-fa1df12a0ebf'))).toBe('');
    expect(notFoundHint(parseStudentKey('ref:Maria Souza'))).toBe('');
  });
});

describe('a key that cannot be an id', () => {
  it('a name or a / is named as such; an id, and every other kind of key, is not', () => {
    expect(notAnId(parseStudentKey('Maria Silva'))).toMatch(/^"Maria Silva" cannot be an id \(it has spaces or accents\);.* members students search "Maria Silva"$/);
    expect(notAnId(parseStudentKey('Zoë'))).toMatch(/^"Zoë" cannot be an id/);
    expect(notAnId(parseStudentKey('RG/1'))).toBe('"RG/1" cannot be an id (it has a /); a document is written doc:RG/1, a reference ref:RG/1');
    expect(notAnId(parseStudentKey('..'))).toBe('".." cannot be an id; give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE');
    expect(notAnId(parseStudentKey('.'))).toMatch(/^"\." cannot be an id/);
    for (const fine of ['8e7be24b-0f1c-4d7e-9a51-2c3e4f5a6b7c', '42', '...', 'a.b', 'doc:RG/1', 'ref:Maria Silva', 'maria@example.com', '070.692.055-46']) {
      expect(notAnId(parseStudentKey(fine))).toBeUndefined();
    }
  });
});

describe('cpfSpelling', () => {
  it('punctuated, bare, or neither', () => {
    expect([cpfSpelling('070.692.055-46'), cpfSpelling('07069205546'), cpfSpelling('0706920554'), cpfSpelling('RG/1')]).toEqual(['punctuated', 'bare', undefined, undefined]);
  });
});
