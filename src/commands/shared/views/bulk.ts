/** How the rows of a bulk run look in `table` mode. */
import type { BulkOperation } from '../../../domain/bulk/operations.js';
import type { View } from '../../../output/view.js';
import { productTitleColumn } from './products.js';

const LINE = { header: 'line', path: 'line' };
/** What happened to the row, and why: never cut on a narrow terminal (the message wraps), the student named shrinks first. */
const RESULT = { header: 'result', path: 'result', whole: true };
const MESSAGE = { header: 'message', path: 'message', wrap: true };

const changeView = (titles: ReadonlyMap<string, string>): View => ({
  noun: 'rows',
  columns: [LINE, { header: 'student', path: 'student', kind: 'name' }, productTitleColumn(titles), RESULT, MESSAGE],
});

/** Import rows have no product: their student is the e-mail of the new student. */
const IMPORT_VIEW: View = { noun: 'rows', columns: [LINE, { header: 'e-mail', path: 'student', kind: 'name' }, RESULT, MESSAGE] };

/** `titles`: the products the run resolved, by id, shown by title in the PRODUCT column. */
export const bulkResultView = (op: Pick<BulkOperation<unknown>, 'done'>, titles: ReadonlyMap<string, string> = new Map()): View =>
  (op.done === 'created' ? IMPORT_VIEW : changeView(titles));
