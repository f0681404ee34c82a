/** values.ts apart from the date and duration grammars (test/property/values.test.ts): integers, today, e-mails, plurals. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/lib/errors.js';
import { EMAIL_PATTERN, parseDate, parseDuration, parseInteger, plural, pluralWord, today } from '../../src/lib/values.js';

describe('parseInteger', () => {
  it('reads an integer, signed, with blanks around it', () => {
    expect(parseInteger('42', '--limit')).toBe(42);
    expect(parseInteger(' 7 ', '--limit')).toBe(7);
    expect(parseInteger('-3', '--offset')).toBe(-3);
    expect(parseInteger('0', '--retries', { min: 0, max: 10 })).toBe(0);
  });

  it('accepts both bounds and refuses one past either, naming the range', () => {
    expect(parseInteger('1', '--concurrency', { min: 1, max: 16 })).toBe(1);
    expect(parseInteger('16', '--concurrency', { min: 1, max: 16 })).toBe(16);
    expect(() => parseInteger('0', '--concurrency', { min: 1, max: 16 }))
      .toThrow(new UsageError('invalid --concurrency "0": expected an integer between 1 and 16'));
    expect(() => parseInteger('17', '--concurrency', { min: 1, max: 16 }))
      .toThrow(new UsageError('invalid --concurrency "17": expected an integer between 1 and 16'));
  });

  it('names a lower bound alone, and no bound when there is none', () => {
    expect(() => parseInteger('0', '--per-page', { min: 1 })).toThrow(new UsageError('invalid --per-page "0": expected an integer of at least 1'));
    expect(() => parseInteger('x', '--page')).toThrow(new UsageError('invalid --page "x": expected an integer'));
    expect(() => parseInteger('99', '--page', { max: 10 })).toThrow(new UsageError('invalid --page "99": expected an integer'));
  });

  it.each(['', ' ', '1.5', '1e3', '0x10', '+-1', '12a', 'a12', '9007199254740993'])('refuses %j', (input) => {
    expect(() => parseInteger(input, '--limit')).toThrow(UsageError);
  });
});

describe('parseDuration', () => {
  it('reads seconds by default, with blanks around, and refuses a bare unit', () => {
    expect(parseDuration(' 90 ')).toBe(90);
    expect(parseDuration('2h')).toBe(7_200);
    expect(() => parseDuration('h')).toThrow(UsageError);
    expect(() => parseDuration('5w', '--since')).toThrow(/^invalid --since "5w": use seconds or a number with a unit/);
    expect(() => parseDuration('5w')).toThrow(/^invalid duration "5w"/);
  });
});

describe('parseDate', () => {
  it('calls the value a date unless told what it is', () => {
    expect(() => parseDate('2025-02-30')).toThrow(/^invalid date "2025-02-30": expected a real calendar date as YYYY-MM-DD$/);
  });
});

describe('today', () => {
  it('is the local calendar day, zero-padded', () => {
    expect(today(new Date(2025, 0, 5, 0, 0, 1))).toBe('2025-01-05');
    expect(today(new Date(2025, 11, 31, 23, 59, 59))).toBe('2025-12-31');
    expect(today(new Date(987, 8, 9))).toBe('987-09-09');
  });
});

describe('EMAIL_PATTERN', () => {
  it.each(['a@b.co', 'maria.souza+novo@example.com.br', 'x_y@sub.domain.org'])('accepts %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
  });

  it.each(['ab.co', 'a@b', 'a@@b.co', 'a b@c.co', '@b.co', 'a@.co', 'a@b.', 'a@b..co', 'a@b.co ', ' a@b.co', 'a@b.c o'])('refuses %j', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
  });
});

describe('plural', () => {
  it('uses the singular for exactly one, the plural otherwise, an irregular one when given', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(2, 'row')).toBe('2 rows');
    expect(plural(3, 'match', 'matches')).toBe('3 matches');
    expect(plural(1, 'match', 'matches')).toBe('1 match');
    expect(plural(1, 'record was', 'records were')).toBe('1 record was');
  });

  it('pluralWord gives the word alone, by the same rule', () => {
    expect([0, 1, 2].map((n) => pluralWord(n, 'column'))).toEqual(['columns', 'column', 'columns']);
    expect(pluralWord(2, 'retry', 'retries')).toBe('retries');
  });
});
