import { describe, expect, it } from 'vitest';
import { phoneDigits, punctuatedPhone, samePhone } from '../../../src/lib/phone.js';

describe('a phone number as a student key', () => {
  it('reads a phone as people write it: 10 to 13 digits, with +, spaces, parentheses or dashes', () => {
    expect(phoneDigits('+55 61 93986-2924')).toBe('5561939862924');
    expect(phoneDigits('(61) 93986-2924')).toBe('61939862924');
    expect(phoneDigits(' 61939862924 ')).toBe('61939862924');
    expect(phoneDigits('6193986292')).toBe('6193986292');
    expect(phoneDigits('93986-2924')).toBeUndefined();
    expect(phoneDigits('070.692.055-46')).toBeUndefined();
    expect(phoneDigits('+55 61 93986-2924 ext 2')).toBeUndefined();
    expect(phoneDigits('55619398629241')).toBeUndefined();
    // Only a phone, start to end: no words before or after it.
    expect(phoneDigits('tel 61 93986-2924')).toBeUndefined();
    expect(phoneDigits('61 93986-2924 ramal')).toBeUndefined();
  });

  it('takes only punctuated phones for phones at once; bare digits are a CPF or an id first', () => {
    expect(punctuatedPhone('+5561939862924')).toBe(true);
    expect(punctuatedPhone('(61) 93986-2924')).toBe(true);
    expect(punctuatedPhone('61939862924')).toBe(false);
    expect(punctuatedPhone('070.692.055-46')).toBe(false);
    // Spaces pasted around bare digits are no punctuation.
    expect(punctuatedPhone(' 61939862924 ')).toBe(false);
  });

  it('compares digits, the country code 55 and a trunk 0 optional', () => {
    expect(samePhone('+55 61 93986-2924', '(61) 93986-2924')).toBe(true);
    expect(samePhone('61939862924', '+55 (61) 93986 2924')).toBe(true);
    expect(samePhone('061 93986-2924', '+55 61 93986-2924')).toBe(true);
    expect(samePhone('+55 61 93986-2924', '+55 61 93986-2925')).toBe(false);
    expect(samePhone('+55 61 3986-2924', '+55 61 93986-2924')).toBe(false);
    // A landline's 10 digits; zeros inside the number are its own.
    expect(samePhone('(61) 3020-1234', '+55 61 3020-1234')).toBe(true);
    expect(samePhone('00 55 61 3020-1234', '6130201234')).toBe(true);
    // Area code 55 (Rio Grande do Sul): a country code only ahead of a whole national number.
    expect(samePhone('(55) 99123-4567', '+55 55 99123-4567')).toBe(true);
    expect(samePhone('(55) 3221-1234', '+55 55 3221-1234')).toBe(true);
    expect(samePhone('(55) 99123-4567', '(55) 99123-4568')).toBe(false);
    // Digits a Brazilian number cannot have (another country's, or one too long) keep their 55.
    expect(samePhone('+1 55 61 9398-2924', '+1 6193982924')).toBe(false);
    expect(samePhone('+55 61 93986-2924 01', '61 93986-2924 01')).toBe(false);
    // Too short to be a whole number: never a match.
    expect(samePhone('93986-2924', '93986-2924')).toBe(false);
  });
});
