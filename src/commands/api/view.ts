/** The records of `members api`, the escape hatch: as the server sent them, with no columns of their own. */
import type { View } from '../../output/view.js';

export const RAW_VIEW: View = { noun: 'records', columns: [] };

/** The answer to a change, with the `--fields` asked for as its columns. */
export const rawFieldsView = (fields: readonly string[]): View => ({ ...RAW_VIEW, columns: fields.map((field) => ({ header: field, path: field })) });
