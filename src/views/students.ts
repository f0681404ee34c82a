/** How students and their subscriptions look in `table` mode (a support desk's columns). */
import { personNameCell } from '../output/cell.js';
import type { Column, JsonRecord, View } from '../output/view.js';

/** The titles of a student's products (`--with-subscriptions`). */
const productTitles = (value: unknown): string => {
  if (!Array.isArray(value)) return '';
  return value.map((item: JsonRecord) => {
    const product = item.product as JsonRecord | null | undefined;
    return String(product?.title ?? item.product_id ?? '');
  }).join(', ');
};

const LIST_COLUMNS: Column[] = [
  { header: 'name', path: 'full_name', format: personNameCell },
  { header: 'e-mail', path: 'email' },
  { header: 'document', path: 'document' },
  { header: 'reference', path: 'reference_id' },
  { header: 'created', path: 'created_at', format: 'datetime' },
];

export const STUDENT_LIST_VIEW: View = { noun: 'students', columns: LIST_COLUMNS };

/** `students search` when a phone matched, or two students share a name: the phone beside the e-mail. */
export const STUDENT_LIST_WITH_PHONE_VIEW: View = {
  noun: 'students',
  columns: [...LIST_COLUMNS.slice(0, 2), { header: 'phone', path: 'phone' }, ...LIST_COLUMNS.slice(2)],
};

/** `--with-subscriptions` adds the titles of each student's products. */
export const STUDENT_LIST_WITH_PRODUCTS_VIEW: View = {
  noun: 'students',
  columns: [...LIST_COLUMNS, { header: 'products', path: 'subscriptions', format: productTitles }],
};

/** One student: every scalar a support desk asks for. */
export const STUDENT_VIEW: View = {
  noun: 'students',
  columns: [
    { header: 'id', path: 'id' },
    { header: 'name', path: 'full_name', format: personNameCell },
    { header: 'e-mail', path: 'email' },
    { header: 'phone', path: 'phone' },
    { header: 'document', path: 'document' },
    { header: 'reference', path: 'reference_id' },
    { header: 'birth', path: 'birth', format: 'date' },
    { header: 'created', path: 'created_at', format: 'datetime' },
    { header: 'updated', path: 'updated_at', format: 'datetime' },
  ],
};

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

export const SCORE_VIEW: View = {
  noun: 'scores',
  columns: [
    { header: 'score', path: 'score' },
    { header: 'posts', path: 'posts' },
    { header: 'comments', path: 'comments' },
    { header: 'replies', path: 'replies' },
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

/** `students show`: progress in each course the student has accessed. */
export const COURSE_PROGRESS_VIEW: View = {
  noun: 'courses',
  columns: [
    { header: 'course', path: 'course' },
    { header: 'last access', path: 'last_access_at', format: 'datetime' },
    { header: 'finished', path: 'finished_at', format: 'datetime' },
  ],
};
