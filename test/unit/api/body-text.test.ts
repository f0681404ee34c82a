/**
 * bodyText decodes a body as whole-answer.ts hands it up: in the chunks it came
 * in, one by one, without concatenating them first. A character or the
 * byte-order mark cut between two chunks must come out whole.
 */
import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../src/api/transport/whole-answer.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** `bytes` cut at each of `at`. */
const cut = (bytes: Buffer, ...at: number[]) => [0, ...at].map((start, i) => bytes.subarray(start, [...at, bytes.length][i]));

describe('bodyText', () => {
  const json = Buffer.from('{"first_name":"João","last_name":"da Conceição","note":"🎓"}');

  it('reads one chunk, and several cut inside multi-byte characters, to the same text', () => {
    const expected = json.toString('utf8');
    expect(bodyText([json])).toBe(expected);
    const inAccent = json.indexOf(Buffer.from('ã')) + 1;
    const inEmoji = json.indexOf(Buffer.from('🎓')) + 2;
    expect(bodyText(cut(json, inAccent, inEmoji))).toBe(expected);
    expect(bodyText(cut(json, ...Array.from({ length: json.length - 1 }, (_, i) => i + 1)))).toBe(expected);
  });

  it('drops a leading byte-order mark, in one chunk or cut across two', () => {
    const body = Buffer.concat([BOM, json]);
    expect(bodyText([body])).toBe(json.toString('utf8'));
    expect(bodyText(cut(body, 1))).toBe(json.toString('utf8'));
    expect(bodyText(cut(body, 2, 10))).toBe(json.toString('utf8'));
  });

  it('keeps a byte-order mark that is not at the start, and reads no chunks as empty', () => {
    const inside = Buffer.concat([Buffer.from('"a'), BOM, Buffer.from('b"')]);
    expect(bodyText(cut(inside, 3))).toBe('"a\ufeffb"');
    expect(bodyText([])).toBe('');
  });

  it('reads a body cut before its last character ends as undici\'s body.text() does (a replacement character)', () => {
    const truncated = json.subarray(0, json.indexOf(Buffer.from('🎓')) + 2);
    expect(bodyText(cut(truncated, 5))).toBe(truncated.toString('utf8'));
  });
});
