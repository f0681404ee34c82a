/**
 * Phone numbers as support staff type them (`+55 61 93986-2924`,
 * `(61) 93986-2924`, `61939862924`) and as the platform stores them: compared
 * by their national digits, the country code (55) and a trunk 0 optional.
 */

/** The digits of `input` when it is written as a phone (10 to 13 digits, with +, spaces, parentheses or dashes at most); else undefined. */
export function phoneDigits(input: string): string | undefined {
  const text = input.trim();
  if (!/^\+?[\d\s()-]+$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 10 && digits.length <= 13 ? digits : undefined;
}

/** Written with a phone's punctuation (+, a space, parentheses or a dash), not bare digits: never an id or a CPF. */
export const punctuatedPhone = (input: string) => phoneDigits(input) !== undefined && /[\s()+-]/.test(input.trim());

/** The national number of a phone written any way: its digits without a leading trunk 0 and the Brazilian country code. */
export const nationalPhone = (text: string) => text.replace(/\D/g, '').replace(/^0+/, '').replace(/^55(?=\d{10,11}$)/, '');

export function samePhone(a: string, b: string): boolean {
  const x = nationalPhone(a);
  return x.length >= 10 && x === nationalPhone(b);
}
