/**
 * What a subscription's state is, as commands name and compare it: access on
 * or off, its dates, and whether it is still the one a run planned from
 * (compare before destroy: send-change.ts). Pure.
 */
import type { Subscription } from '../api/endpoints/schemas.js';

/** Access is on unless the API's `active` flag says off (an integer; a boolean or string from some servers). */
export const hasAccess = (subscription: Subscription) => ![0, '0', false].includes(subscription.active as never);

/** `2024-03-05 00:00:00` → `2024-03-05`; undefined when there is no date. */
export const dateOf = (value: string | null | undefined) => (value ? value.slice(0, 10) : undefined);

/** `product "Python Pro" (5f1c…)`: the title the server sent with the subscription, else the one the caller knows. */
export const productLabel = (productId: string, subscription?: Subscription, known?: string) => {
  const title = subscription?.product?.title || known;
  return title ? `product "${title}" (${productId})` : `product ${productId}`;
};

const statusOf = (subscription: Subscription) => subscription.status || undefined;
const idOf = (subscription: Subscription) => (subscription.id === undefined || subscription.id === null ? undefined : String(subscription.id));

/**
 * The subscription `now` is still the one `planned` (none: none): the same
 * access, status and dates, and the same subscription when both name one (one
 * granted again since is another, whatever its dates).
 */
export function sameSubscription(now: Subscription | undefined, planned: Subscription | undefined): boolean {
  if (now === undefined || planned === undefined) return now === undefined && planned === undefined;
  const [nowId, plannedId] = [idOf(now), idOf(planned)];
  if (nowId !== undefined && plannedId !== undefined && nowId !== plannedId) return false;
  return hasAccess(now) === hasAccess(planned) && statusOf(now) === statusOf(planned)
    && dateOf(now.accession_date) === dateOf(planned.accession_date) && dateOf(now.expiration_date) === dateOf(planned.expiration_date);
}

/** `access on, status active, expiration 2027-01-31`; `no subscription`. */
export function stateText(held: Subscription | undefined): string {
  if (!held) return 'no subscription';
  const parts = [hasAccess(held) ? 'access on' : 'access off', held.status ? `status ${held.status}` : '', `expiration ${dateOf(held.expiration_date) ?? 'none'}`];
  return parts.filter(Boolean).join(', ');
}
