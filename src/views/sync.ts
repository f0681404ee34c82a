/** How `members sync` looks in `table` mode: its plan, and the results of applying it. */
import type { View } from '../output/view.js';

const STUDENT = { header: 'student', path: 'student' };
const PRODUCT = { header: 'product', path: 'product_id' };

export const SYNC_PLAN_VIEW: View = {
  noun: 'changes',
  columns: [
    { header: 'action', path: 'action' },
    { header: 'line', path: 'line' },
    STUDENT,
    PRODUCT,
    { header: 'access now', path: 'current_access', format: (value) => (value === null || value === undefined ? 'none' : value ? 'on' : 'off') },
    { header: 'expires now', path: 'current_expiration_date', format: 'date' },
    { header: 'expires after', path: 'expiration_date', format: 'date' },
    { header: 'note', path: 'note' },
  ],
};

export const SYNC_RESULT_VIEW: View = {
  noun: 'changes',
  columns: [{ header: 'line', path: 'line' }, { header: 'action', path: 'action' }, STUDENT, PRODUCT, { header: 'result', path: 'result' }, { header: 'message', path: 'message' }],
};
