/**
 * DATE and DURATION (contract §1.2) over their whole input space: every real
 * calendar date of 0001–9999 comes back unchanged, every impossible or
 * non-canonical one is a UsageError; every `n`, `ns`, `nm`, `nh`, `nd` gives
 * its seconds and anything else is a UsageError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/lib/errors.js';
import { parseDate, parseDuration } from '../../src/lib/values.js';

const RUNS = { numRuns: 2000 };

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) =>
  month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const iso = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** A real date, every year equally likely, the early centuries included. */
const realDate = fc.integer({ min: 1, max: 9999 }).chain((year) =>
  fc.integer({ min: 1, max: 12 }).chain((month) =>
    fc.integer({ min: 1, max: daysIn(year, month) }).map((day) => ({ year, month, day }))));

function rejects(parse: () => unknown): boolean {
  try {
    parse();
    return false;
  } catch (error) {
    if (error instanceof UsageError) return true;
    throw error;
  }
}

describe('parseDate', () => {
  it('accepts every real date from 0001-01-01 to 9999-12-31 and returns it unchanged', () => {
    fc.assert(fc.property(realDate, ({ year, month, day }) => {
      const text = iso(year, month, day);
      expect(parseDate(text)).toBe(text);
    }), RUNS);
  });

  it.each(['0001-01-01', '0004-02-29', '0099-12-31', '0100-03-01', '1600-02-29', '2000-02-29', '2024-02-29', '9999-12-31'])(
    'accepts the edge date %s', (text) => {
      expect(parseDate(text)).toBe(text);
    },
  );

  it('rejects February 29 of every non-leap year, 1900 and 2100 included', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9999 }).filter((year) => !isLeap(year) || year === 0), (year) => {
      expect(rejects(() => parseDate(iso(year, 2, 29)))).toBe(true);
    }), RUNS);
    for (const text of ['1900-02-29', '2100-02-29', '2023-02-29', '0100-02-29']) expect(rejects(() => parseDate(text))).toBe(true);
  });

  it('rejects a day past the end of its month, day 0, month 0 and month 13 or more', () => {
    const impossible = fc.oneof(
      fc.record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
        .chain(({ year, month }) => fc.integer({ min: daysIn(year, month) + 1, max: 99 }).map((day) => ({ year, month, day }))),
      fc.record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.constant(0) }),
      fc.record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.constantFrom(0, ...Array.from({ length: 87 }, (_, i) => i + 13)), day: fc.integer({ min: 1, max: 31 }) }),
    );
    fc.assert(fc.property(impossible, ({ year, month, day }) => {
      expect(rejects(() => parseDate(iso(year, month, day)))).toBe(true);
    }), RUNS);
    for (const text of ['2024-04-31', '2024-06-31', '2024-09-31', '2024-11-31', '2024-13-01', '2024-00-10', '2024-01-00', '0000-01-01']) {
      expect(rejects(() => parseDate(text))).toBe(true);
    }
  });

  it('rejects every form but YYYY-MM-DD: unpadded, extra digits, other separators, whitespace, times', () => {
    const variant = realDate.chain(({ year, month, day }) => fc.constantFrom(
      `${year}-${month}-${day}`,
      `${pad(year, 4)}-${month}-${pad(day, 2)}`,
      `${pad(year, 4)}-${pad(month, 2)}-${day}`,
      `${pad(year, 5)}-${pad(month, 2)}-${pad(day, 2)}`,
      `${pad(year, 4)}-${pad(month, 3)}-${pad(day, 2)}`,
      `${pad(year, 4)}/${pad(month, 2)}/${pad(day, 2)}`,
      `${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}`,
      ` ${iso(year, month, day)}`,
      `${iso(year, month, day)}\n`,
      `${iso(year, month, day)}T00:00:00Z`,
      `+${iso(year, month, day)}`,
      `${pad(day, 2)}-${pad(month, 2)}-${pad(year, 4)}`,
    ).filter((text) => text !== iso(year, month, day)));
    fc.assert(fc.property(variant, (text) => {
      expect(rejects(() => parseDate(text))).toBe(true);
    }), RUNS);
  });

  it('accepts an arbitrary string only when it is a real date, and then unchanged', () => {
    const real = (text: string) => {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      if (!match) return false;
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
    };
    const candidates = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 14 }),
      fc.stringMatching(/^[0-9١٢３]{1,5}[-/]?[0-9]{1,3}-[0-9]{1,3}$/),
    );
    fc.assert(fc.property(candidates, (text) => {
      if (real(text)) expect(parseDate(text)).toBe(text);
      else expect(rejects(() => parseDate(text))).toBe(true);
    }), { numRuns: 500 });
  });

  it('names the flag and the expected form in its message', () => {
    expect(() => parseDate('2023-02-29', '--birth')).toThrow('invalid --birth "2023-02-29": expected a real calendar date as YYYY-MM-DD');
  });
});

const UNITS = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 } as const;
type Unit = keyof typeof UNITS;
const unit = fc.constantFrom<Unit>('', 's', 'm', 'h', 'd');

describe('parseDuration', () => {
  it('gives n × the unit for every n, ns, nm, nh and nd that fits in a safe integer', () => {
    const valid = unit.chain((u) => fc.record({
      u: fc.constant(u),
      n: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: Math.floor(Number.MAX_SAFE_INTEGER / UNITS[u]) })),
      zeros: fc.integer({ min: 0, max: 3 }),
    }));
    fc.assert(fc.property(valid, ({ u, n, zeros }) => {
      expect(parseDuration(`${'0'.repeat(zeros)}${n}${u}`)).toBe(n * UNITS[u]);
    }), RUNS);
  });

  it('rejects zero and amounts beyond a safe integer of seconds', () => {
    fc.assert(fc.property(unit, fc.integer({ min: 1, max: 5 }), (u, zeros) => {
      expect(rejects(() => parseDuration(`${'0'.repeat(zeros)}${u}`))).toBe(true);
    }));
    fc.assert(fc.property(unit, fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 30n }), (u, n) => {
      expect(rejects(() => parseDuration(`${n}${u}`))).toBe(true);
    }));
    expect(rejects(() => parseDuration(`${Math.floor(Number.MAX_SAFE_INTEGER / 86_400) + 1}d`))).toBe(true);
  });

  it('rejects everything else with a UsageError, and accepts exactly the grammar', () => {
    const grammar = /^\d+[smhd]?$/;
    const candidates = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.stringMatching(/^[-+]?[0-9.,e ]{0,4}[smhdSMHDwy]{0,2}$/),
      fc.tuple(fc.integer({ min: 1, max: 99 }), fc.constantFrom('S', 'M', 'H', 'D', 'w', 'y', 'ms', 'min', 'sec', ' s', '.5', 'e3', 'mh', '1h')).map(([n, suffix]) => `${n}${suffix}`),
      fc.constantFrom('-5', '+5', '1.5h', '1,5h', '٣s', '３s', '5 m', 'h', 's', '', ' ', '0x10', '1e3', 'Infinity', 'NaN'),
    );
    fc.assert(fc.property(candidates, (text) => {
      const trimmed = text.trim();
      if (grammar.test(trimmed) && /[1-9]/.test(trimmed) && trimmed.replace(/\D/g, '').length < 16) {
        expect(parseDuration(text)).toBeGreaterThan(0);
      } else if (!grammar.test(trimmed)) {
        expect(rejects(() => parseDuration(text))).toBe(true);
      }
    }), RUNS);
  });

  it('names the flag and the accepted forms in its message', () => {
    expect(() => parseDuration('1.5h', '--timeout')).toThrow('invalid --timeout "1.5h": use seconds or a number with a unit, e.g. 90, 90s, 15m, 2h, 7d');
  });
});
