/**
 * Every value placed in a URL path is one percent-encoded segment (contract
 * §5): `RG/12345` or `../products` can never change which endpoint is called.
 */
import { UsageError } from '../errors.js';

export function segment(value: string | number): string {
  const text = String(value);
  // WHATWG URLs treat `.`, `..` and their %2E forms as navigation: no encoding can make them safe.
  if (text === '' || /^(\.|%2e){1,2}$/i.test(text)) {
    throw new UsageError(`invalid identifier ${JSON.stringify(text)}: it cannot be used in a URL path`);
  }
  return encodeURIComponent(text);
}

/** Tagged template: `apiPath\`/api/v1/students/${id}\`` encodes each interpolation as one segment. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((out, literal, i) => out + literal + (i < values.length ? segment(values[i] as string | number) : ''), '');
}
