/**
 * The read estimator (domain/read-plan.ts): which strategy a bulk run takes,
 * with totals, without (simplePaginate: a probe), with per_page ignored or
 * capped by the server, with product names to resolve or not.
 */
import { describe, expect, it } from 'vitest';
import { countedPages, explain, forcedPlan, planReads, probePage, rowLookups, worthProbing } from '../../../src/domain/read-plan.js';
import type { FirstPage } from '../../../src/domain/snapshot.js';

const lengthAware = (total: number, perPage = 100): FirstPage => ({
  records: Math.min(total, perPage), perPage, total, lastPage: Math.max(1, Math.ceil(total / perPage)), hasMore: total > perPage, withSubscriptions: true,
});
const simple = (records: number, hasMore: boolean, perPage: number | undefined = 100): FirstPage => ({
  records, ...(perPage === undefined ? {} : { perPage }), hasMore, withSubscriptions: true,
});
const needs = (distinctStudentKeys: number, rows: number, needsProductList = false) => ({ distinctStudentKeys, rows, needsProductList });

describe('countedPages', () => {
  it('takes last_page when the server counts its pages', () => {
    expect(countedPages(lengthAware(2_000))).toBe(20);
    expect(countedPages(lengthAware(2_001))).toBe(21);
  });

  it('is one page when the first page links to no next one', () => {
    expect(countedPages(simple(37, false))).toBe(1);
    expect(countedPages({ ...lengthAware(0), records: 0 })).toBe(1);
  });

  it('divides total by the size of the full first page when last_page is missing', () => {
    expect(countedPages({ records: 100, perPage: 100, total: 2_000, hasMore: true, withSubscriptions: true })).toBe(20);
    expect(countedPages({ records: 100, perPage: 100, total: 2_050, hasMore: true, withSubscriptions: true })).toBe(21);
  });

  it('uses the page size the server really used when it ignores per_page (15 a page)', () => {
    // meta.per_page says 15: the server's own default, not the 100 asked.
    expect(countedPages({ records: 15, perPage: 15, total: 2_000, hasMore: true, withSubscriptions: true })).toBe(134);
  });

  it('believes the records over a meta.per_page that caps silently (says 100, sends 50)', () => {
    expect(countedPages({ records: 50, perPage: 100, total: 2_000, hasMore: true, withSubscriptions: true })).toBe(40);
  });

  it('takes last_page even without a total', () => {
    expect(countedPages({ records: 100, lastPage: 7, hasMore: true, withSubscriptions: true })).toBe(7);
    expect(countedPages({ records: 100, lastPage: 0, hasMore: true, withSubscriptions: true })).toBe(1);
  });

  it('cannot divide by a page size of 0', () => {
    expect(countedPages({ records: 0, perPage: 0, total: 100, hasMore: true, withSubscriptions: true })).toBeUndefined();
  });

  it('falls back on meta.per_page when the first page is empty but links on', () => {
    expect(countedPages({ records: 0, perPage: 25, total: 100, hasMore: true, withSubscriptions: true })).toBe(4);
    expect(countedPages({ records: 0, total: 100, hasMore: true, withSubscriptions: true })).toBeUndefined();
  });

  it('cannot count a simplePaginate list that goes on', () => {
    expect(countedPages(simple(100, true))).toBeUndefined();
  });
});

describe('rowLookups and worthProbing', () => {
  it('counts one lookup per distinct student key and one check per row', () => {
    expect(rowLookups(needs(600, 1_000))).toBe(1_600);
    expect(rowLookups(needs(0, 10))).toBe(10);
  });

  it('reads no page when at most 4 lookups are at stake', () => {
    expect(worthProbing(needs(0, 4))).toBe(false);
    expect(worthProbing(needs(2, 2))).toBe(false);
    expect(worthProbing(needs(2, 3))).toBe(true);
    expect(worthProbing(needs(5, 0))).toBe(true);
  });

  it('takes the rows unread then, and says what they cost', () => {
    expect(planReads(needs(2, 2, true))).toEqual({
      strategy: 'rows', rowsCost: 5, snapshotCost: 2, pagesExact: false, reason: '4 lookups, too few to read the student list instead',
    });
  });
});

describe('planReads with totals', () => {
  it('takes the snapshot when its pages are fewer than the lookups (case 1: 1,000 rows, 2,000 students)', () => {
    const plan = planReads({ ...needs(1_000, 1_000), firstPage: lengthAware(2_000) });
    expect(plan).toEqual({ strategy: 'snapshot', rowsCost: 2_000, snapshotCost: 20, pagesExact: true, reason: 'read 20 pages instead of 2,000 lookups' });
  });

  it('takes the rows when they are fewer (case 2: 10 rows, 100,000 students)', () => {
    const plan = planReads({ ...needs(10, 10), firstPage: lengthAware(100_000) });
    expect(plan).toEqual({ strategy: 'rows', rowsCost: 20, snapshotCost: 1_000, pagesExact: true, reason: '20 lookups instead of reading 1,000 pages' });
  });

  it('on a tie takes the snapshot: its first page is already read', () => {
    expect(planReads({ ...needs(0, 20), firstPage: lengthAware(2_000) }).strategy).toBe('snapshot');
    expect(planReads({ ...needs(0, 19), firstPage: lengthAware(2_000) }).strategy).toBe('rows');
  });

  it('a revoke file\'s rows may each destroy: the snapshot counts their re-reads (compare before destroy) at their most', () => {
    const plan = planReads({ ...needs(44, 50), destroys: 50, firstPage: lengthAware(600) });
    expect(plan).toMatchObject({ strategy: 'snapshot', rowsCost: 94, snapshotCost: 56 });
    expect(planReads({ ...needs(0, 50), destroys: 50, firstPage: lengthAware(600) })).toMatchObject({ strategy: 'rows', rowsCost: 50, snapshotCost: 56 });
    expect(probePage({ ...needs(10, 10), destroys: 10, firstPage: simple(100, true) })).toBe(11);
    expect(probePage({ ...needs(0, 5), destroys: 5, firstPage: simple(100, true) })).toBe(2);
  });

  it('counts the pages of a server that ignores per_page (15 a page)', () => {
    const plan = planReads({ ...needs(0, 100), firstPage: lengthAware(2_000, 15) });
    expect(plan).toMatchObject({ strategy: 'rows', snapshotCost: 134, reason: '100 lookups instead of reading 134 pages' });
  });

  it('a one-page list is one request', () => {
    expect(planReads({ ...needs(2, 2), firstPage: lengthAware(50) })).toMatchObject({ strategy: 'snapshot', snapshotCost: 1, reason: 'read 1 page instead of 4 lookups' });
  });

  it('counts the product list in both when names are resolved', () => {
    const plan = planReads({ ...needs(1_000, 1_000, true), firstPage: lengthAware(2_000) });
    expect(plan).toMatchObject({ strategy: 'snapshot', rowsCost: 2_001, snapshotCost: 21, reason: 'read 20 pages instead of 2,000 lookups' });
  });

  it('does not take a snapshot from a server that sends no subscriptions with the list', () => {
    const plan = planReads({ ...needs(1_000, 1_000, true), firstPage: { ...lengthAware(2_000), withSubscriptions: false } });
    expect(plan).toEqual({ strategy: 'rows', rowsCost: 2_001, snapshotCost: 21, pagesExact: true, reason: 'the server sends the student list without subscriptions' });
    const uncounted = planReads({ ...needs(5, 5, true), firstPage: { ...simple(100, true), withSubscriptions: false } });
    expect(uncounted).toEqual({ strategy: 'rows', rowsCost: 11, snapshotCost: 12, pagesExact: false, reason: 'the server sends the student list without subscriptions' });
  });

  it('an import (no subscriptions needed) takes the snapshot of a list without them', () => {
    const plan = planReads({ ...needs(1_000, 0), firstPage: { ...lengthAware(2_000), withSubscriptions: false } });
    expect(plan.strategy).toBe('snapshot');
  });
});

describe('planReads without totals (simplePaginate)', () => {
  it('probes the page just past the lookups', () => {
    expect(probePage({ ...needs(10, 10), firstPage: simple(100, true) })).toBe(21);
    expect(probePage({ ...needs(10, 10), firstPage: lengthAware(2_000) })).toBeUndefined();
    expect(probePage({ ...needs(10, 10), firstPage: simple(30, false) })).toBeUndefined();
  });

  it('does not probe for subscriptions the server does not send, unless none are needed (an import)', () => {
    expect(probePage({ ...needs(10, 10), firstPage: { ...simple(100, true), withSubscriptions: false } })).toBeUndefined();
    expect(probePage({ ...needs(10, 0), firstPage: { ...simple(100, true), withSubscriptions: false } })).toBe(11);
  });

  it('records on the probed page: the rows are cheaper', () => {
    const plan = planReads({ ...needs(10, 10), firstPage: simple(100, true), probe: { page: 21, records: 100 } });
    expect(plan).toEqual({ strategy: 'rows', rowsCost: 20, snapshotCost: 21, pagesExact: false, reason: '20 lookups instead of reading at least 21 pages' });
  });

  it('an empty probed page: the walk ends before it, and is cheaper', () => {
    const plan = planReads({ ...needs(1_000, 1_000), firstPage: simple(100, true), probe: { page: 2_001, records: 0 } });
    expect(plan).toEqual({ strategy: 'snapshot', rowsCost: 2_000, snapshotCost: 2_000, pagesExact: false, reason: 'read at most 2,000 pages instead of 2,000 lookups' });
  });

  it('without a probe, assumes the walk is longer than the lookups', () => {
    expect(planReads({ ...needs(3, 3), firstPage: simple(100, true) })).toMatchObject({ strategy: 'rows', snapshotCost: 7 });
    expect(planReads({ ...needs(0, 0), firstPage: simple(100, true) })).toMatchObject({ strategy: 'rows', snapshotCost: 2 });
  });

  it('a short simple list needs no probe: one page', () => {
    expect(planReads({ ...needs(5, 5), firstPage: simple(40, false, undefined) })).toMatchObject({ strategy: 'snapshot', snapshotCost: 1, pagesExact: true });
  });
});

describe('explain and forcedPlan', () => {
  it('words one page, one lookup and large numbers', () => {
    expect(explain('snapshot', 1, 1, true)).toBe('read 1 page instead of 1 lookup');
    expect(explain('rows', 1_874, 12_345, true)).toBe('1,874 lookups instead of reading 12,345 pages');
  });

  it('a forced strategy says so and still counts the rows', () => {
    expect(forcedPlan('rows', needs(3, 5, true))).toEqual({ strategy: 'rows', rowsCost: 9, pagesExact: false, reason: '--strategy rows: 8 lookups' });
    expect(forcedPlan('snapshot', needs(3, 5))).toEqual({ strategy: 'snapshot', rowsCost: 8, pagesExact: false, reason: '--strategy snapshot' });
  });
});

describe('a file that names students by phone', () => {
  it('is worth the first page however few its lookups, and takes the walk: the rows would read the list for the phones anyway', () => {
    expect(worthProbing({ ...needs(1, 1), phones: 1 })).toBe(true);
    const plan = planReads({ ...needs(3, 3), phones: 2, firstPage: lengthAware(5_000) });
    expect(plan).toMatchObject({ strategy: 'snapshot', rowsCost: 6, snapshotCost: 50 });
    expect(plan.reason).toBe('read 50 pages instead of 6 lookups (2 phones: the per-row reads would read the list too)');
  });

  it('keeps the rows when the list comes without subscriptions: the phones then cost one walk of it', () => {
    expect(planReads({ ...needs(3, 3), phones: 2, firstPage: { ...lengthAware(5_000), withSubscriptions: false } }).strategy).toBe('rows');
  });
});
