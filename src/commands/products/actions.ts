import { getProduct } from '../../api/endpoints/catalog.js';
import { resolveProduct } from '../../domain/names.js';
import type { ListFlags } from '../shared/list-flags.js';
import { getCatalogItem, listCatalog, type Catalog } from '../shared/catalog/commands.js';
import type { Session } from '../../session/session.js';
import { PRODUCT_LIST_VIEW, PRODUCT_VIEW } from '../shared/views/products.js';

const PRODUCTS: Catalog = {
  collection: 'products', noun: 'product', listView: PRODUCT_LIST_VIEW, view: PRODUCT_VIEW,
  get: getProduct,
  resolve: (api, input) => resolveProduct(api, input, { check: true }),
};

export const list = (session: Session, flags: ListFlags) => listCatalog(session, PRODUCTS, flags);

export const get = (session: Session, input: string) => getCatalogItem(session, PRODUCTS, input);
