/** The formula guard's exceptions at their edges, and what a csv list reports. */
import { describe, expect, it } from 'vitest';
import { csvFormat, guardCell } from '../../../src/output/csv.js';
import { studentView } from './setup.js';

describe('guardCell exceptions', () => {
  it('a phone number must be the whole cell: one after a formula is still guarded', () => {
    expect(guardCell('=1+5511912345678')).toBe("'=1+5511912345678");
    expect(guardCell('@x +55 11 91234-5678')).toBe("'@x +55 11 91234-5678");
  });

  it('a phone number has at least 8 digits', () => {
    expect(guardCell('+12345678')).toBe('+12345678');
    expect(guardCell('+1234567 ')).toBe("'+1234567 ");
  });

  it('plain numbers with a fraction of several digits or a long exponent are left alone', () => {
    for (const number of ['-.55', '+1e10', '-2.5E-12', '+.125']) expect(guardCell(number)).toBe(number);
  });
});

describe('csvFormat', () => {
  it('reports how many records it wrote', async () => {
    const lines: string[] = [];
    const format = csvFormat(async (text) => void lines.push(text), { header: true, raw: false, dialect: 'rfc4180' });
    expect(await format.list([{ id: 'a' }, { id: 'b' }, { id: 'c' }], studentView)).toBe(3);
    expect(lines).toEqual(['id\n', 'a\n', 'b\n', 'c\n']);
  });
});
