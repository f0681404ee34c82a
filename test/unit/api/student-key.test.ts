import { describe, expect, it } from 'vitest';
import { cpfCheckDigits, describeKey, invalidCpf, isCpf, notFoundHint, parseStudentKey } from '../../../src/api/endpoints/student-key.js';

describe('a CPF as a STUDENT', () => {
  it('punctuated or bare digits with right check digits is a document, carrying its other spelling', () => {
    expect(parseStudentKey('070.692.055-46')).toEqual({ kind: 'document', value: '070.692.055-46', also: '07069205546' });
    // Bare digits without doc: may still be an id, tried last.
    expect(parseStudentKey(' 07069205546 ')).toEqual({ kind: 'document', value: '07069205546', also: '070.692.055-46', orId: true });
    expect(parseStudentKey('doc:07069205546')).toEqual({ kind: 'document', value: '07069205546', also: '070.692.055-46' });
  });

  it('11 digits with a wrong check digit, or all one digit, stay an id; other documents have no other spelling', () => {
    expect(parseStudentKey('07069205547')).toEqual({ kind: 'id', value: '07069205547' });
    expect(parseStudentKey('11111111111')).toEqual({ kind: 'id', value: '11111111111' });
    expect(parseStudentKey('doc:RG/1234567-8')).toEqual({ kind: 'document', value: 'RG/1234567-8' });
    expect(parseStudentKey('9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f')).toEqual({ kind: 'id', value: '9b2f0c1e-5d6a-4c3b-8e7f-1a2b3c4d5e6f' });
  });

  it('checks both check digits', () => {
    expect(['52998224725', '11144477735', '00000000191'].map(isCpf)).toEqual([true, true, true]);
    expect(['52998224715', '52998224726', '5299822472', '529982247250'].map(isCpf)).toEqual([false, false, false, false]);
  });
});

describe('what "not found" says about a CPF', () => {
  it('names both spellings, and the id when the digits were typed bare', () => {
    expect(describeKey(parseStudentKey('07069205546'))).toBe('student with document 07069205546 (or 070.692.055-46) or id 07069205546');
    expect(describeKey(parseStudentKey('070.692.055-46'))).toBe('student with document 070.692.055-46 (or 07069205546)');
    expect(describeKey(parseStudentKey('doc:RG/1'))).toBe('student with document RG/1');
  });

  it('an id of 11 digits says it is not a valid CPF, what its check digits would be, and how to ask for a document', () => {
    expect(notFoundHint(parseStudentKey('07069205547'))).toBe(
      '. 07069205547 is not a valid CPF: its check digits would be 46 (a typo?), so it was taken for an id. To look it up as a document anyway: doc:07069205547',
    );
    expect(notFoundHint(parseStudentKey('1234'))).toBe('');
    expect(notFoundHint(parseStudentKey('07069205546'))).toBe('');
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
    expect(cpfCheckDigits('5299822')).toBeUndefined();
    expect(invalidCpf('529.982.247-25')).toBeUndefined();
    expect(invalidCpf('5299822472')).toBeUndefined();
  });

  it('a name given where an id goes says how to search for it; an id-like key does not', () => {
    expect(notFoundHint(parseStudentKey('Maria Souza'))).toBe('. It was taken for an id; to find a student by name: members students search "Maria Souza"');
    expect(notFoundHint(parseStudentKey('Mônica'))).toBe('. It was taken for an id; to find a student by name: members students search "Mônica"');
    expect(notFoundHint(parseStudentKey('a812b423-013e-4fa2-956d-fa1df12a0ebf'))).toBe('');
  });
});
