/**
 * `csvRecord` (src/output/csv.ts) writes exactly what csv-stringify writes
 * with its default options, for any cells: the CSV output did not change when
 * the per-line call to csv-stringify was replaced for speed.
 */
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../src/output/csv.js';

const TRICKY = ['"', ',', '\n', '\r', '\r\n', '""', ' ', '\t', ';', '\ufeff', '\u2028', '\0', '=', '+', '-', '@', "'", ''];
const cell = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join('')),
);

describe('csvRecord', () => {
  it('matches csv-stringify for any cells', () => {
    fc.assert(fc.property(fc.array(cell, { minLength: 1, maxLength: 12 }), (cells) => {
      expect(csvRecord(cells)).toBe(stringify([cells]));
    }), { numRuns: 2000 });
  });

  // Line ends apart: csv-stringify told to end lines with CRLF stops quoting a lone LF, which would split the row in a spreadsheet.
  it('matches csv-stringify with `;` (the excel-br dialect) for any cells, and ends the line as asked', () => {
    fc.assert(fc.property(fc.array(cell, { minLength: 1, maxLength: 12 }), (cells) => {
      expect(csvRecord(cells, ';', '\r\n')).toBe(`${stringify([cells], { delimiter: ';' }).slice(0, -1)}\r\n`);
    }), { numRuns: 1000 });
  });

  it('matches it on the edge cases by name', () => {
    for (const cells of [[''], ['', ''], ['"'], [','], ['\n'], ['\r'], ['\r\n'], ['a"b'], [' x '], ['=1+2'], ['a', '', 'b']]) {
      expect(csvRecord(cells)).toBe(stringify([cells]));
    }
  });
});
