/** How students look in `table` mode (a support desk's columns). */
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
