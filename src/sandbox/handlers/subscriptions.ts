import { data, notFound, type Reply, type RequestContext } from '../http.js';
import { subscriptionNumber } from '../laravel.js';
import { paginate } from '../pagination.js';
import type { SandboxStore } from '../store.js';
import type { SubscriptionRecord } from '../types.js';
import { subscriptionView } from '../views.js';

export function listSubscriptions(ctx: RequestContext): Reply {
  return paginate(ctx, ctx.store.subscriptions, (subscription) => subscriptionView(ctx.store, subscription, true));
}

export function getSubscription(ctx: RequestContext): Reply {
  const id = ctx.param('id');
  const subscription = ctx.store.subscription(id) ?? (/^\d+$/.test(id) ? ctx.store.derive(byNumber).get(Number(id)) : undefined);
  if (!subscription) throw notFound('Subscription not found.', 'SubscriptionNotFoundException');
  return data(subscriptionView(ctx.store, subscription, true));
}

/** Subscriptions by the integer id of the `integer` dialect. Use through `store.derive`. */
function byNumber(store: SandboxStore): ReadonlyMap<number, SubscriptionRecord> {
  return new Map(store.subscriptions.map((subscription) => [subscriptionNumber(subscription.id), subscription]));
}
