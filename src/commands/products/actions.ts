import { getProduct, listCollection } from '../../api/endpoints/catalog.js';
import type { Product } from '../../api/endpoints/schemas.js';
import { byIdOrName, resolveProduct } from '../../domain/names.js';
import type { JsonRecord } from '../../output/index.js';
import { PRODUCT_LIST_VIEW, PRODUCT_VIEW } from '../../views/products.js';
import type { Session } from '../../session/session.js';
import { listOptions, printPagedList, type ListFlags } from '../../session/list-flags.js';
import { withOutput } from '../../session/run-kit.js';

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
