/** How products look in `table` mode. */
import type { Column, View } from '../../../output/view.js';

/** `12 / 3`: students with access released, by subscription status active / other (api-spec §2.3). */
const subscribers = (value: unknown): string => {
  const counts = value as { active?: unknown; inactive?: unknown } | null | undefined;
  return counts ? `${String(counts.active ?? '')} / ${String(counts.inactive ?? '')}` : '';
};

export const PRODUCT_LIST_VIEW: View = {
  noun: 'products',
  columns: [
    { header: 'ID', path: 'id' },
    { header: 'Title', path: 'title' },
    { header: 'Type', path: 'type' },
    { header: 'Status', path: 'status' },
    { header: 'Lifetime', path: 'lifetime', format: 'bool01' },
    { header: 'Subscribers (active / inactive)', path: 'subscribers', format: subscribers },
  ],
};

export const PRODUCT_VIEW: View = {
  noun: 'products',
  columns: [
    ...PRODUCT_LIST_VIEW.columns.slice(0, 2),
    { header: 'Description', path: 'description' },
    ...PRODUCT_LIST_VIEW.columns.slice(2),
    { header: 'Period', path: 'period' },
    { header: 'Trial', path: 'trial' },
    { header: 'Sales page', path: 'sales_page_url' },
    { header: 'Support e-mail', path: 'support_email' },
    { header: 'Created', path: 'created_at', format: 'datetime' },
    { header: 'Updated', path: 'updated_at', format: 'datetime' },
  ],
};

/**
 * A result's PRODUCT in a table: its title where the run knew it, else its
 * id; a name, cut first on a narrow terminal. The id stays the record's
 * `product_id` (-o json, csv, --fields).
 */
export const productTitleColumn = (titles: ReadonlyMap<string, string>): Column => ({
  header: 'product', path: 'product_id', kind: 'name', format: (value) => (value == null ? '' : titles.get(String(value)) || String(value)),
});

/** `products snapshot`: the counts kept for the day. */
export const PRODUCT_COUNTS_VIEW: View = {
  noun: 'products',
  columns: [
    { header: 'Date', path: 'date' },
    { header: 'Title', path: 'title', kind: 'name' },
    { header: 'Active', path: 'active', whole: true },
    { header: 'Inactive', path: 'inactive', whole: true },
  ],
};

/** `+3`, `-2`, `0`; empty for a product the snapshot did not know. */
const change = (value: unknown) => (typeof value === 'number' ? `${value > 0 ? '+' : ''}${value}` : '');

/** `products list --compare`: each product now, then, and the difference. */
export const PRODUCT_COMPARE_VIEW: View = {
  noun: 'products',
  columns: [
    { header: 'Title', path: 'title', kind: 'name' },
    { header: 'Then', path: 'then' },
    { header: 'Active then', path: 'active_then', whole: true },
    { header: 'Active now', path: 'active_now', whole: true },
    { header: 'Change', path: 'active_change', format: change, whole: true },
    { header: 'Inactive then', path: 'inactive_then', whole: true },
    { header: 'Inactive now', path: 'inactive_now', whole: true },
    { header: 'Change', path: 'inactive_change', format: change, whole: true },
  ],
};
