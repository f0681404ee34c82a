/**
 * How a bulk run reads the platform's state before its changes (issue 28):
 * the cheaper of two strategies, counted in requests, since under a rate
 * limit a run's time is its requests ÷ the rate.
 *
 * - `rows`: one lookup per distinct student key that is not an id, and one
 *   subscription check per row (today's per-row reads).
 * - `snapshot`: one walk of the student list with subscriptions
 *   (domain/snapshot.ts), its page count told by the first page (`last_page`,
 *   or `total` ÷ the page size the server really uses), or — from a
 *   simplePaginate server that counts nothing — bounded by probing the page
 *   where the walk would stop being cheaper.
 *
 * The first page is read before the choice (it tells the count), so it is
 * spent either way: the snapshot wins when its pages are no more than the
 * lookups — and whenever the file names a student by a phone: the API has
 * no lookup by phone, so the rows would walk the list anyway (once, for
 * every phone: api/pagination/phone-scan.ts). The product list, when
 * product cells are titles, is read either way and counted in both. Pure
 * functions: the caller sends the requests.
 */
import type { FirstPage } from './snapshot.js';
import { pluralWord } from '../lib/values.js';

export type ReadStrategy = 'rows' | 'snapshot';
export const READ_STRATEGIES = ['auto', 'rows', 'snapshot'] as const;
export type StrategyChoice = (typeof READ_STRATEGIES)[number];

export interface ReadNeeds {
  /** Distinct students the rows name by a key that takes a lookup (e-mail, document, reference; an import's e-mails). */
  distinctStudentKeys: number;
  /** Rows whose subscription is checked before the change (grant, revoke; 0 for an import). */
  rows: number;
  /** Product cells name products by title: the product list is read, whatever the strategy. */
  needsProductList: boolean;
  /**
   * Rows that may destroy a subscription (a revoke file's): read from a
   * snapshot, each reads its subscription again right before its DELETE
   * (compare before destroy, send-change.ts), which the per-row reads do
   * anyway. At most that many requests on top of the walk.
   */
  destroys?: number;
  /** Distinct students named by a phone: the per-row reads walk the student list once for them, on top of the lookups. */
  phones?: number;
}

/** A page asked past the first of a server that tells no count: whether it held records. */
export interface Probe {
  page: number;
  records: number;
}

export interface ReadPlanInput extends ReadNeeds {
  /** Not read: too few lookups at stake (worthProbing). */
  firstPage?: FirstPage;
  probe?: Probe;
}

export interface ReadPlan {
  strategy: ReadStrategy;
  /** Requests of the per-row reads (and the product list). */
  rowsCost: number;
  /** Requests of the walk (and the product list): exact, or a bound when `pagesExact` is false; undefined when not estimated. */
  snapshotCost?: number;
  /** The snapshot's page count is known (counted by the server) rather than bounded by a probe. */
  pagesExact: boolean;
  reason: string;
}

/** The per-row reads of a run. */
export const rowLookups = (needs: Pick<ReadNeeds, 'distinctStudentKeys' | 'rows'>) => needs.distinctStudentKeys + needs.rows;

const PRODUCT_LIST_REQUESTS = 1;
const productList = (needs: Pick<ReadNeeds, 'needsProductList'>) => (needs.needsProductList ? PRODUCT_LIST_REQUESTS : 0);

/**
 * The first page is read to learn the count, and lost when the rows win. A
 * snapshot costs at least that page: with this many lookups or fewer at
 * stake it could save at most 3 requests, so the rows are taken unread.
 */
export const PROBE_ABOVE = 4;

export const worthProbing = (needs: ReadNeeds) => rowLookups(needs) > PROBE_ABOVE || (needs.phones ?? 0) > 0;

/** The pages of the walk as the first page counts them, or undefined when the server counts nothing. */
export function countedPages(first: FirstPage): number | undefined {
  if (!first.hasMore) return 1;
  if (first.lastPage !== undefined) return Math.max(1, first.lastPage);
  if (first.total === undefined) return undefined;
  // A full first page is the size the server really uses, whatever per_page asked for or meta says.
  const size = first.records > 0 ? first.records : first.perPage;
  return size === undefined || size <= 0 ? undefined : Math.max(1, Math.ceil(first.total / size));
}

/**
 * The page to probe on a server that counts nothing: the first one past the
 * point where the walk costs as much as the lookups. Records there mean the
 * rows are cheaper; an empty page means the walk ends before it.
 */
export function probePage(input: Omit<ReadPlanInput, 'probe'> & { firstPage: FirstPage }): number | undefined {
  if (countedPages(input.firstPage) !== undefined || (!input.firstPage.withSubscriptions && input.rows > 0)) return undefined;
  return Math.max(1, rowLookups(input) - (input.destroys ?? 0)) + 1;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The cheaper strategy and why, in the words of the summary line: `read 20 pages instead of 1,874 lookups`. */
export function planReads(input: ReadPlanInput): ReadPlan {
  const lookups = rowLookups(input);
  const extra = productList(input);
  const rowsCost = lookups + extra;
  if (input.firstPage === undefined) {
    return { strategy: 'rows', rowsCost, snapshotCost: 1 + extra, pagesExact: false, reason: `${count(lookups)} ${pluralWord(lookups, 'lookup')}, too few to read the student list instead` };
  }
  const exact = countedPages(input.firstPage);
  if (input.rows > 0 && !input.firstPage.withSubscriptions) {
    return { strategy: 'rows', rowsCost, snapshotCost: (exact ?? lookups + 1) + extra, pagesExact: exact !== undefined, reason: 'the server sends the student list without subscriptions' };
  }
  let pages: number;
  let pagesExact = true;
  if (exact !== undefined) pages = exact;
  else if (input.probe === undefined || input.probe.records > 0) {
    // Not probed (nothing to compare with) or records past the bound: at least that many pages.
    pages = input.probe?.page ?? Math.max(2, lookups + 1);
    pagesExact = false;
  } else {
    // The probed page is empty: the walk ends before it.
    pages = Math.max(1, input.probe.page - 1);
    pagesExact = false;
  }
  // A snapshot's destroys read their subscription again: counted at their most (every row held).
  const rereads = input.destroys ?? 0;
  const snapshotCost = pages + rereads + extra;
  if ((input.phones ?? 0) > 0) {
    // The rows would walk the list for the phones and look the rest up: the walk alone is cheaper.
    return { strategy: 'snapshot', rowsCost, snapshotCost, pagesExact, reason: explain('snapshot', lookups, pages, pagesExact) + phonesNote(input) };
  }
  const strategy: ReadStrategy = pages + rereads <= lookups ? 'snapshot' : 'rows';
  return { strategy, rowsCost, snapshotCost, pagesExact, reason: explain(strategy, lookups, pages, pagesExact) };
}

/** Why a file of phones reads the list whatever the count: ` (3 phones: the per-row reads would read the list too)`. */
export const phonesNote = (needs: Pick<ReadNeeds, 'phones'>) => ((needs.phones ?? 0) > 0
  ? ` (${count(needs.phones ?? 0)} ${pluralWord(needs.phones ?? 0, 'phone')}: the per-row reads would read the list too)` : '');

/** `read 20 pages instead of 1,874 lookups`, `10 lookups instead of reading 1,000 pages`, with the bounds said. */
export function explain(strategy: ReadStrategy, lookups: number, pages: number, pagesExact: boolean): string {
  const pageText = `${pagesExact ? '' : strategy === 'snapshot' ? 'at most ' : 'at least '}${count(pages)} ${pluralWord(pages, 'page')}`;
  const lookupText = `${count(lookups)} ${pluralWord(lookups, 'lookup')}`;
  return strategy === 'snapshot' ? `read ${pageText} instead of ${lookupText}` : `${lookupText} instead of reading ${pageText}`;
}

/** The plan a `--strategy` other than auto imposes, with the estimate when one was made. */
export function forcedPlan(strategy: ReadStrategy, needs: ReadNeeds): ReadPlan {
  const extra = productList(needs);
  const lookups = rowLookups(needs);
  const reason = `--strategy ${strategy}${strategy === 'rows' ? `: ${count(lookups)} ${pluralWord(lookups, 'lookup')}` : ''}`;
  return { strategy, rowsCost: lookups + extra, pagesExact: false, reason };
}
