import { data, notFound, type Reply, type RequestContext } from '../http.js';
import { paginate } from '../pagination.js';
import { productView } from '../views.js';

export function listProducts(ctx: RequestContext): Reply {
  return paginate(ctx, ctx.store.products, (product) => productView(ctx.store, product));
}

export function getProduct(ctx: RequestContext): Reply {
  const product = ctx.store.product(ctx.param('id'));
  if (!product) throw notFound('Product not found.', 'ProductNotFoundException');
  return data(productView(ctx.store, product));
}
