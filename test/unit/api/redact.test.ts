import { describe, expect, it } from 'vitest';
import { redactor } from '../../../src/api/transport/redact.js';

describe('redactor', () => {
  it('replaces every occurrence of a secret, raw or percent-encoded, with ***', () => {
    const redact = redactor(['tok/en+1']);
    expect(redact('Bearer tok/en+1 then tok%2Fen%2B1 and tok/en+1')).toBe('Bearer *** then *** and ***');
  });

  it('replaces the longer of two overlapping secrets whole, whatever order they were given in', () => {
    expect(redactor(['abc', 'abcdef'])('x abcdef y abc')).toBe('x *** y ***');
    expect(redactor(['abcdef', 'abc'])('x abcdef y abc')).toBe('x *** y ***');
  });

  it('ignores missing and empty secrets: the text comes back as it was, the word undefined included', () => {
    expect(redactor([])('nothing to hide')).toBe('nothing to hide');
    expect(redactor([undefined, ''])('an undefined value, and every letter')).toBe('an undefined value, and every letter');
    expect(redactor([undefined, '', 'tok_1'])('undefined tok_1')).toBe('undefined ***');
  });
});

describe('redactor, the order and number of its replacements', () => {
  it('the raw form of a secret is replaced before a shorter secret inside its encoded form', () => {
    // encodeURIComponent('x y') is 'x%20y' (5 characters): it must win over the 3-character secret '%20'.
    expect(redactor(['%20', 'x y'])('x%20y')).toBe('***');
  });

  it('replaces a secret given twice once: *** is not re-redacted', () => {
    // Were '*' kept twice, the second pass would turn each star of *** into ***.
    expect(redactor(['*', '*'])('a*b')).toBe('a***b');
  });
});
