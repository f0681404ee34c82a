/**
 * The rows of a `members sync` file (the desired state), checked one by one
 * without any request, with the bulk runs' reader and checks (csv.ts,
 * engine.ts RunPlanner): `student` (any STUDENT key), `product_id` (an id, a
 * title or the start of one; absent with --product), optional
 * `accession_date` and `expiration_date` (empty: not given). Whether the
 * expiration may precede the accession is decided by the plan, for the rows
 * that need a change only (plan.ts).
 */
import type { StudentKey } from '../../api/endpoints/student-key.js';
import { UsageError } from '../../lib/errors.js';
import { dateCell } from '../bulk/csv.js';
import { checkProductId } from '../changes.js';
import type { CsvColumns, RowReader } from '../bulk/operations.js';
import { keyText, studentKey } from '../bulk/operations.js';
import type { DesiredRow } from './plan.js';

/** A row as read: its product is the cell as given (resolved to an id before planning), '' with --product. */
export interface DesiredCells {
  student: string;
  key: StudentKey;
  product: string;
  accession?: string;
  expiration?: string;
}

const DATES = ['accession_date', 'expiration_date'] as const;

/** The columns: `product_id` is required unless --product names the products. */
export function syncColumns(productsGiven: boolean): CsvColumns {
  return productsGiven
    ? { required: ['student'], optional: ['product_id', ...DATES] }
    : { required: ['student', 'product_id'], optional: [...DATES] };
}

/** The reader of the rows. */
export function desiredRowReader(productsGiven: boolean): RowReader<DesiredCells> {
  return {
    identify: (values) => ({ student: values.student ?? '', product_id: values.product_id ?? '' }),
    plan(values) {
      const cells: DesiredCells = {
        student: values.student ?? '', key: studentKey(values), product: productsGiven ? '' : checkProductId(values.product_id ?? '', 'product_id'),
      };
      const accession = dateCell(values, 'accession_date');
      const expiration = dateCell(values, 'expiration_date');
      if (accession !== undefined) cells.accession = accession;
      if (expiration !== undefined) cells.expiration = expiration;
      return cells;
    },
    key: (cells) => `${keyText(cells.key)}\n${cells.product}`,
    sameWhat: productsGiven ? 'the same student' : 'the same student and product_id',
    products: productsGiven ? undefined : { of: (cells) => cells.product, with: (cells, product) => ({ ...cells, product: product.id }) },
  };
}

/** With --product, a `product_id` column is the file's problem, not a row's (which would win?): refused at its first row. */
export function refuseProductColumn(values: Record<string, string>, productsGiven: boolean, source: string): void {
  if (productsGiven && values.product_id !== undefined) {
    throw new UsageError(`${source} has a product_id column and --product was given: name the products one way, not both; nothing was sent`);
  }
}

/** The file's rows for the planner: each row once per product of --product, else for its own product (resolved). */
export function desiredRows(rows: ReadonlyArray<{ line: number; plan: DesiredCells }>, products?: readonly string[]): DesiredRow[] {
  return rows.flatMap(({ line, plan }) => (products ?? [plan.product]).map((productId) => {
    const row: DesiredRow = { line, student: plan.student, key: plan.key, productId };
    if (plan.accession !== undefined) row.accession = plan.accession;
    if (plan.expiration !== undefined) row.expiration = plan.expiration;
    return row;
  }));
}

/** The products in scope: those of --product, else the rows' own, in the order first named. */
export const productsInScope = (rows: readonly DesiredRow[], products?: readonly string[]) =>
  [...new Set(products ?? rows.map((row) => row.productId))];

/** An empty file must never revoke everyone: refused before any request. */
export function refuseEmpty(dataRows: number, source: string): void {
  if (dataRows === 0) {
    throw new UsageError(`${source} has no rows: a sync makes access match the file, so an empty file would revoke everyone in scope; nothing was sent`);
  }
}
