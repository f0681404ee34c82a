import { getProduct, listCollection } from '../../api/endpoints/catalog.js';
import type { Product } from '../../api/endpoints/schemas.js';
import { byIdOrName, resolveProduct } from '../../domain/names.js';
import type { JsonRecord, View } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import { listOptions, printPagedList, type ListFlags } from '../../session/list-flags.js';
import { withOutput } from '../../session/run-kit.js';

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

const PRODUCT_VIEW: View = {
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

export async function listProducts(session: Session, flags: ListFlags): Promise<void> {
  const walk = listOptions(flags);
  const api = await session.api();
  await printPagedList(session, PRODUCT_LIST_VIEW, walk, (options) => listCollection(api, 'products', options) as AsyncIterable<JsonRecord>,
    (products) => api.onCatalog?.('products', products as unknown as Product[]));
}

export async function getProductCommand(session: Session, id: string): Promise<void> {
  const api = await session.api();
  await withOutput(session, async (output) => output.one(await byIdOrName(id, (productId) => getProduct(api, productId), () => resolveProduct(api, id, { check: true }), 'product'), PRODUCT_VIEW));
}
