import { describe, expect, it } from 'vitest';
import { describeKey, isCpf, notFoundHint, parseStudentKey } from '../../../src/api/endpoints/student-key.js';

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

  it('an id of 11 digits says why it was not taken for a CPF, and how to ask for a document', () => {
    expect(notFoundHint(parseStudentKey('07069205547'))).toBe(
      '. It was taken for an id, not a CPF: its check digits are wrong (a typo?). To look it up as a document anyway: doc:07069205547',
    );
    expect(notFoundHint(parseStudentKey('1234'))).toBe('');
    expect(notFoundHint(parseStudentKey('07069205546'))).toBe('');
  });

  it('a name given where an id goes says how to search for it; an id-like key does not', () => {
    expect(notFoundHint(parseStudentKey('Maria Souza'))).toBe('. It was taken for an id; to find a student by name: members students search "Maria Souza"');
    expect(notFoundHint(parseStudentKey('Mônica'))).toBe('. It was taken for an id; to find a student by name: members students search "Mônica"');
    expect(notFoundHint(parseStudentKey('a812b423-013e-4fa2-956d-fa1df12a0ebf'))).toBe('');
  });
});
