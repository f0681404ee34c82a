/**
 * The filters of `subscriptions list` (and of the assistant's tool that lists
 * subscriptions): validated before any request, then applied page by page to
 * the subscriptions list, which the API cannot filter itself.
 */
import type { Api } from '../api/client.js';
import { listCollection } from '../api/endpoints/catalog.js';
import type { Subscription } from '../api/endpoints/schemas.js';
import { parseStudentKey, plainId, type StudentKey } from '../api/endpoints/student-key.js';
import { SUBSCRIPTION_STATUSES } from '../api/endpoints/vocabulary.js';
import type { PageWalk } from '../api/pagination/paginate.js';
import { batched, batchesOf, type Batched } from '../lib/batches.js';
import { UsageError } from '../lib/errors.js';
import { parseChoiceList, parseDuration, today } from '../lib/values.js';
import { resolveProduct } from './names.js';
import { lookUpStudent } from './resolve.js';

/** The filters as flags (`--status canceled,refunded`, `--expiring 7d`…). */
export interface SubscriptionFilterFlags {
  status?: string;
  access?: 'active' | 'inactive';
  product?: string;
  student?: string;
  expiring?: string;
  expired?: boolean;
}

export interface Filters {
  statuses?: ReadonlySet<string>;
  /** The integer access flag: 1 = access released. */
  access?: 'active' | 'inactive';
  productId?: string;
  student?: StudentKey;
  /** Expiration dates kept, as YYYY-MM-DD, both ends included. */
  expiration?: { from?: string; to?: string };
}

/** Validates the filters before any request (exit 2); `now` fixes today for --expiring and --expired. */
export function parseFilters(flags: SubscriptionFilterFlags, now = new Date()): Filters | undefined {
  const filters: Filters = {};
  if (flags.expiring !== undefined && flags.expired) throw new UsageError('--expiring and --expired cannot be combined: choose one');
  if (flags.expiring !== undefined) {
    // Access that ends: only subscriptions that have it.
    if (flags.access !== undefined) throw new UsageError('--expiring keeps subscriptions with access (their access is what ends): drop --access');
    const seconds = parseDuration(flags.expiring, '--expiring');
    filters.access = 'active';
    filters.expiration = { from: today(now), to: today(new Date(now.getTime() + seconds * 1000)) };
  }
  // Expired the day before today at the latest: an expiration of today still gives access today.
  if (flags.expired) filters.expiration = { to: today(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1)) };
  if (flags.status !== undefined) filters.statuses = new Set(parseChoiceList(flags.status, '--status', SUBSCRIPTION_STATUSES));
  if (flags.access !== undefined) filters.access = flags.access;
  if (flags.product !== undefined) {
    if (flags.product.trim() === '') throw new UsageError('--product needs a product: its id, title or the start of its title');
    filters.productId = flags.product.trim();
  }
  if (flags.student !== undefined) filters.student = parseStudentKey(flags.student);
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** A subscription without an expiration never expires: outside every window. */
function within(expiration: string | null | undefined, { from, to }: { from?: string; to?: string }): boolean {
  if (!expiration) return false;
  const day = expiration.slice(0, 10);
  return (from === undefined || day >= from) && (to === undefined || day <= to);
}

function matcher(filters: Filters, studentId: string | undefined): (subscription: Subscription) => boolean {
  return (subscription) => {
    if (filters.statuses && !filters.statuses.has(String(subscription.status ?? '').toLowerCase())) return false;
    if (filters.access && (subscription.active === 1 ? 'active' : 'inactive') !== filters.access) return false;
    if (filters.productId !== undefined && (subscription.product_id ?? subscription.product?.id) !== filters.productId) return false;
    if (studentId !== undefined && subscription.student?.id !== studentId) return false;
    if (filters.expiration && !within(subscription.expiration_date, filters.expiration)) return false;
    return true;
  };
}

/** Lazy, so that it runs once the output is open (a bad --out fails before any request). */
export function filteredSubscriptions(api: Api, walk: { perPage?: number } & PageWalk, filters: Filters): Batched<Subscription> {
  return batched(async function* () {
    // Any STUDENT key is resolved to the id first (exit 4 if there is no such student); the list embeds student.id.
    const { student } = filters;
    const studentId = student === undefined ? undefined : plainId(student) ? student.value : (await lookUpStudent(api, student)).id;
    // A title or prefix becomes the id; an unknown product is an error (exit 2), never an empty list.
    const productId = filters.productId === undefined ? undefined
      : (await resolveProduct(api, filters.productId, { argument: '--product', check: true })).id;
    const wanted = matcher({ ...filters, productId }, studentId);
    for await (const page of batchesOf(listCollection(api, 'subscriptions', walk))) yield page.filter(wanted);
  });
}
