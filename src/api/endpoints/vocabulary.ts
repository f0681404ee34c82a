/** Values the API defines (api-spec §3), free of zod so that completion can load them on every Tab. */
export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'refunded', 'chargeback', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
