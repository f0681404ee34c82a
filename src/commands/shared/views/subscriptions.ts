/** How subscriptions look in `table` mode: a student's, every student's, one in full, and why access is on. */
import { personName, type Named } from '../../../lib/people.js';
import type { JsonRecord, View } from '../../../output/view.js';
import { productTitleColumn } from './products.js';

/** A student's subscriptions: the product, its state and dates. */
export const SUBSCRIPTION_VIEW: View = {
  noun: 'subscriptions',
  columns: [
    { header: 'product', path: 'product.title' },
    { header: 'product id', path: 'product_id' },
    { header: 'status', path: 'status' },
    { header: 'access', path: 'active', format: 'bool01' },
    { header: 'accession', path: 'accession_date', format: 'date' },
    { header: 'expiration', path: 'expiration_date', format: 'date' },
  ],
};

/** `students show`: each subscription with whether access is on, and why. */
export const SUBSCRIPTION_STATE_VIEW: View = {
  noun: 'subscriptions',
  columns: [
    { header: 'product', path: 'product.title' },
    { header: 'access', path: 'access' },
    { header: 'why', path: 'access_why' },
    { header: 'accession', path: 'accession_date', format: 'date' },
    // Last, and dropped on a narrow terminal before "why" is cut short: PRODUCT takes the title too.
    { header: 'product id', path: 'product_id', dropLate: true },
  ],
};

/** The student's name, or their e-mail when the API sent no name. */
const studentName = (_value: unknown, record: JsonRecord): string => {
  const student = (record.student ?? {}) as Named;
  return personName(student) || String(student.email ?? '');
};

/** `subscriptions list`: whose, to what, and in which state. */
export const SUBSCRIPTION_LIST_VIEW: View = {
  noun: 'subscriptions',
  columns: [
    { header: 'Student', path: 'student.full_name', format: studentName },
    { header: 'Product', path: 'product.title' },
    { header: 'Status', path: 'status' },
    { header: 'Access', path: 'active', format: 'bool01' },
    { header: 'Accession', path: 'accession_date', format: 'date' },
    { header: 'Expiration', path: 'expiration_date', format: 'date' },
  ],
};

/** `subscriptions get`: one subscription with its student and product. */
export const SUBSCRIPTION_DETAIL_VIEW: View = {
  noun: 'subscriptions',
  columns: [
    { header: 'ID', path: 'id' },
    SUBSCRIPTION_LIST_VIEW.columns[0] as View['columns'][number],
    { header: 'E-mail', path: 'student.email' },
    { header: 'Student ID', path: 'student.id' },
    { header: 'Product', path: 'product.title' },
    { header: 'Product ID', path: 'product_id' },
    ...SUBSCRIPTION_LIST_VIEW.columns.slice(2),
    { header: 'Cancelled', path: 'cancel_date', format: 'date' },
    { header: 'Last payment', path: 'payment_last_date', format: 'date' },
    { header: 'Created', path: 'created_at', format: 'datetime' },
  ],
};

/** `students grant|revoke STUDENT P1 P2 …`: each product's outcome. */
export const SEVERAL_VIEW: View = {
  noun: 'products',
  columns: [
    { header: 'product', path: 'product' },
    { header: 'product id', path: 'product_id', dropLate: true },
    { header: 'result', path: 'result' },
    { header: 'message', path: 'message' },
  ],
};

/**
 * The plan as printed: one row per subscription, extended or left out, `old → new`.
 * On a narrow terminal the action and the dates stay whole and the note wraps; the student shrinks
 * first, and the status goes (a left-out row's note names it).
 */
export const EXTEND_PLAN_VIEW: View = {
  noun: 'subscriptions',
  columns: [
    { header: 'action', path: 'action', whole: true },
    { header: 'student', path: 'student', kind: 'name' },
    { header: 'status', path: 'status', dropLate: true },
    { header: 'expiration', path: 'expiration_date', whole: true, format: (_value, record) => `${String(record.expiration_date ?? 'none')} → ${String(record.new_expiration_date ?? '')}` },
    { header: 'note', path: 'note', wrap: true },
  ],
};

/** `subscriptions extend`: each subscription's outcome. */
export const EXTEND_RESULT_VIEW: View = {
  noun: 'subscriptions',
  columns: [{ header: 'student', path: 'student', kind: 'name' }, { header: 'result', path: 'result', whole: true }, { header: 'message', path: 'message', wrap: true }],
};

/** The plan as printed: each product of FROM, whether it moves, and why not. */
export const TRANSFER_PLAN_VIEW: View = {
  noun: 'products',
  columns: [
    { header: 'action', path: 'action', whole: true },
    { header: 'product', path: 'product_title' },
    { header: 'product id', path: 'product_id', dropLate: true },
    { header: 'accession', path: 'accession_date', format: 'date' },
    { header: 'expiration', path: 'expiration_date', format: 'date' },
    { header: 'note', path: 'note', wrap: true },
  ],
};

/** Each step of the run: a grant to TO, a revoke from FROM, the delete of FROM; products by title (`titles`, by id). */
export const transferResultView = (titles: ReadonlyMap<string, string>): View => ({
  noun: 'steps',
  columns: [
    { header: 'step', path: 'step', whole: true },
    { header: 'student', path: 'student', kind: 'name' },
    productTitleColumn(titles),
    { header: 'result', path: 'result', whole: true },
    { header: 'message', path: 'message', wrap: true },
  ],
});
