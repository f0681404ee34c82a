/** How `members sync` looks in `table` mode: its plan, and the results of applying it. */
import type { Column, View } from '../../../output/view.js';
import { productTitleColumn } from './products.js';

const STUDENT = { header: 'student', path: 'student' };
const PRODUCT: Column = { header: 'product', path: 'product_id' };

/**
 * The plan's table, its products by title when `titles` knows them (the id
 * beside it), or without them when the plan is for one product that the
 * summary names (`oneProduct`): 80 columns then keep the note's words whole.
 * What a plan is read for stays on a narrow terminal: the action
 * is never cut and the note (a status reset, a student not on the platform)
 * wraps whole in its cell; the expiration now, the access now (the action
 * says it) and the product id go first, then the line, then the new expiry. -o json/csv carry every field whatever the width.
 */
export function syncPlanView(titles: ReadonlyMap<string, string> = new Map(), oneProduct = false): View {
  const product: Column[] = oneProduct ? [] : titles.size === 0 ? [PRODUCT] : [
    { header: 'product', path: 'product_title', format: (_value, record) => titles.get(String(record.product_id)) || String(record.product_id) },
    { header: 'product id', path: 'product_id', kind: 'low' },
  ];
  return {
    noun: 'changes',
    quietWhenEmpty: true,
    columns: [
      { header: 'action', path: 'action', kind: 'identifier' },
      { header: 'line', path: 'line', dropLate: true },
      STUDENT,
      ...product,
      { header: 'access now', path: 'current_access', kind: 'low', format: (value) => (value === null || value === undefined ? 'none' : value ? 'on' : 'off') },
      { header: 'expires now', path: 'current_expiration_date', format: 'date', kind: 'low' },
      { header: 'new expiry', path: 'expiration_date', format: 'date', dropLate: 'last' },
      { header: 'note', path: 'note', wrap: true },
    ],
  };
}

export const SYNC_PLAN_VIEW = syncPlanView();

/**
 * The results of applying a plan, as a bulk run's: the action and the result
 * never cut, the message wrapping, the student and the product (by title
 * when `titles` knows it) shrinking first, the line going on a narrow
 * terminal; no product for a plan of one (`oneProduct`: its summary named it).
 */
export const syncResultView = (titles: ReadonlyMap<string, string> = new Map(), oneProduct = false): View => ({
  noun: 'changes',
  columns: [
    { header: 'line', path: 'line', dropLate: true }, { header: 'action', path: 'action', whole: true }, { ...STUDENT, kind: 'name' },
    ...(oneProduct ? [] : [productTitleColumn(titles)]),
    { header: 'result', path: 'result', whole: true }, { header: 'message', path: 'message', wrap: true },
  ],
});

export const SYNC_RESULT_VIEW = syncResultView();
