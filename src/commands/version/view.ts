/** `members version` in every format: the three lines of --version in `table` mode, a record elsewhere. */
import type { View } from '../../output/view.js';
import { versionText } from '../../lib/version.js';

export const VERSION_VIEW: View = {
  noun: 'versions',
  columns: [{ header: 'Version', path: 'version' }, { header: 'Node.js', path: 'node' }, { header: 'Platform', path: 'platform' }],
  renderTable: () => versionText().trimEnd(),
};
