/**
 * Every value placed in a URL path is one percent-encoded segment (contract
 * §1.3): `RG/12345` or `../products` can never change which endpoint is called.
 */
import { UsageError } from '../../lib/errors.js';

export function segment(value: string | number): string {
  const text = String(value);
  // WHATWG URLs treat `.` and `..` as navigation: no encoding can make them safe. (A literal
  // `%2e` is safe: its `%` is encoded, so it reaches the server as `%252e`.)
  // A lone UTF-16 surrogate has no UTF-8 form; encodeURIComponent would throw a URIError.
  if (text === '' || text === '.' || text === '..' || /\p{Cs}/u.test(text)) {
    throw new UsageError(`invalid identifier ${JSON.stringify(text)}: it cannot be used in a URL path`);
  }
  return encodeURIComponent(text);
}

/** Tagged template: `apiPath\`/api/v1/students/${id}\`` encodes each interpolation as one segment. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((out, literal, i) => out + literal + (i < values.length ? segment(values[i] as string | number) : ''), '');
}
