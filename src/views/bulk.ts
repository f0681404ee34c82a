/** How the rows of a bulk run look in `table` mode. */
import type { BulkOperation } from '../domain/bulk/operations.js';
import type { View } from '../output/view.js';

const LINE = { header: 'line', path: 'line' };
const RESULT = { header: 'result', path: 'result' };
const MESSAGE = { header: 'message', path: 'message' };

const CHANGE_VIEW: View = {
  noun: 'rows',
  columns: [LINE, { header: 'student', path: 'student' }, { header: 'product', path: 'product_id' }, RESULT, MESSAGE],
};

/** Import rows have no product: their student is the e-mail of the new student. */
const IMPORT_VIEW: View = { noun: 'rows', columns: [LINE, { header: 'e-mail', path: 'student' }, RESULT, MESSAGE] };

export const bulkResultView = (op: Pick<BulkOperation<unknown>, 'done'>): View => (op.done === 'created' ? IMPORT_VIEW : CHANGE_VIEW);
