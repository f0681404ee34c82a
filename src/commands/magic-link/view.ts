/** A magic link in `table` mode is its URL alone, so that `url=$(members magic-link …)` works. */
import type { View } from '../../output/view.js';

export const MAGIC_LINK_VIEW: View = {
  noun: 'magic links',
  columns: [{ header: 'expire in', path: 'expire_in' }, { header: 'url', path: 'url' }],
  renderTable: (record) => String(record.url),
};
