/** How students look in `table` mode (a support desk's columns). */
import { personNameCell } from '../../../output/cell.js';
import type { Column, JsonRecord, View } from '../../../output/view.js';
import type { MatchedField } from '../../../domain/search.js';

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

/**
 * `students search` in a table: the columns of the fields in `shown` (what
 * the query matched, the phone that tells two namesakes apart) stay on a
 * narrow terminal; an unmatched document or reference goes first. The phone,
 * not a list column, appears only when shown.
 */
export function studentSearchView(shown: ReadonlySet<MatchedField>): View {
  const [name, email, document, reference, created] = LIST_COLUMNS as [Column, Column, Column, Column, Column];
  const keptIf = (field: MatchedField, column: Column): Column => (shown.has(field) ? column : { ...column, dropLate: true });
  const phone: Column[] = shown.has('phone') ? [{ header: 'phone', path: 'phone', kind: 'identifier' }] : [];
  return { noun: 'students', columns: [name, email, ...phone, keptIf('document', document), keptIf('reference', reference), created] };
}

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
