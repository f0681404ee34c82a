/** How the stored profiles look in `table` mode (`members auth status`). */
import type { View } from '../../output/view.js';

export const PROFILE_VIEW: View = {
  noun: 'profiles',
  columns: [
    { header: 'Profile', path: 'name' }, { header: 'Active', path: 'active', format: 'bool01' },
    { header: 'Base URL', path: 'base_url' }, { header: 'Token', path: 'token' },
    { header: 'Source', path: 'token_source' }, { header: 'Report tokens', path: 'report_tokens' },
    { header: 'Stored in', path: 'stored_in' }, { header: 'Status', path: 'status' },
  ],
};
