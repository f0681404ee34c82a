/** The compact duplicate check of bulk files (src/domain/bulk/seen-keys.ts). */
import { describe, expect, it } from 'vitest';
import { hashes, SeenKeys } from '../../../src/domain/bulk/seen-keys.js';

describe('SeenKeys', () => {
  it('a new key is kept with its line; the same key again gives that first line, every time', () => {
    const seen = new SeenKeys();
    expect(seen.firstLine('id:s1\np1', 2)).toBeUndefined();
    expect(seen.firstLine('id:s1\np2', 3)).toBeUndefined();
    expect(seen.firstLine('id:s1\np1', 4)).toBe(2);
    expect(seen.firstLine('id:s1\np1', 5)).toBe(2);
    expect(seen.size).toBe(2);
  });

  it('line 0 and line 1 are lines like any other', () => {
    const seen = new SeenKeys();
    expect(seen.firstLine('a', 0)).toBeUndefined();
    expect(seen.firstLine('b', 1)).toBeUndefined();
    expect([seen.firstLine('a', 9), seen.firstLine('b', 9)]).toEqual([0, 1]);
  });

  it('grows far past its first capacity and still finds every key, and no key it never saw', () => {
    const seen = new SeenKeys(16);
    const count = 50_000;
    for (let i = 0; i < count; i++) expect(seen.firstLine(`email:student${i}@example.com\np${i % 7}`, i + 2)).toBeUndefined();
    expect(seen.size).toBe(count);
    for (let i = 0; i < count; i += 997) expect(seen.firstLine(`email:student${i}@example.com\np${i % 7}`, 1)).toBe(i + 2);
    expect(seen.firstLine('email:student0@example.com\np1', 1)).toBeUndefined();
  });
});

describe('SeenKeys, its table', () => {
  it('starts at the capacity asked (a power of two, 16 at least) and doubles once more than half full', () => {
    expect(new SeenKeys(16).capacity).toBe(16);
    expect(new SeenKeys(17).capacity).toBe(32);
    expect(new SeenKeys(3).capacity).toBe(16);
    const seen = new SeenKeys(16);
    for (let i = 0; i < 8; i++) seen.firstLine(`k${i}`, i);
    expect([seen.capacity, seen.size]).toEqual([16, 8]);
    seen.firstLine('k8', 8);
    expect([seen.capacity, seen.size]).toEqual([32, 9]);
    expect(Array.from({ length: 9 }, (_, i) => seen.firstLine(`k${i}`, 99))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('two keys that share one hash lane (and their first slot) are still two keys', () => {
    // Found by search: k52057 and k55858 share the first lane; k8816 and k242849 the second, and their first slot in 16.
    expect(hashes('k52057')[0]).toBe(hashes('k55858')[0]);
    expect(hashes('k8816')[1]).toBe(hashes('k242849')[1]);
    for (const [one, other] of [['k52057', 'k55858'], ['k8816', 'k242849']]) {
      const seen = new SeenKeys(16);
      expect(seen.firstLine(one as string, 2)).toBeUndefined();
      expect(seen.firstLine(other as string, 3)).toBeUndefined();
      expect([seen.firstLine(one as string, 4), seen.firstLine(other as string, 5)]).toEqual([2, 3]);
    }
  });
});

describe('hashes', () => {
  it('are these values: a change of the function changes no result, but is seen here', () => {
    expect(hashes('id:s1\np1')).toEqual([2961535245, 3484476308]);
    expect(hashes('')).toEqual([451841411, 1217125560]);
  });

  it('two 32-bit lanes, stable, and apart for keys one unit apart', () => {
    const [a, b] = hashes('id:s1\np1');
    expect(hashes('id:s1\np1')).toEqual([a, b]);
    for (const value of [a, b]) expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
    expect(a).not.toBe(b);
    const others = ['id:s1\np2', 'id:s2\np1', 'id:s1\np1 ', '', 'Id:s1\np1'].map((text) => hashes(text).join(','));
    expect(new Set([...others, `${a},${b}`]).size).toBe(6);
  });
});
