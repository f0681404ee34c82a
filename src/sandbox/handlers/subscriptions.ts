import { data, notFound, type Reply, type RequestContext } from '../http.js';
import { paginate } from '../pagination.js';
import { subscriptionView } from '../views.js';

export function listSubscriptions(ctx: RequestContext): Reply {
  return paginate(ctx, ctx.store.subscriptions, (subscription) => subscriptionView(ctx.store, subscription, true));
}

export function getSubscription(ctx: RequestContext): Reply {
  const subscription = ctx.store.subscription(ctx.param('id'));
  if (!subscription) throw notFound('Subscription not found.', 'SubscriptionNotFoundException');
  return data(subscriptionView(ctx.store, subscription, true));
}
