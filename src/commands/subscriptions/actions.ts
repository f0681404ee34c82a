import { getSubscription, listCollection } from '../../api/endpoints/catalog.js';
import { SUBSCRIPTION_STATUSES } from '../../api/endpoints/vocabulary.js';
import { resolveProduct } from '../../domain/names.js';
import type { Api } from '../../api/client.js';
import type { Subscription } from '../../api/endpoints/schemas.js';
import { parseStudentKey, type StudentKey } from '../../api/endpoints/student-key.js';
import { lookUpStudent } from '../../domain/resolve.js';
import { batched, batchesOf, type Batched } from '../../lib/batches.js';
import { UsageError } from '../../lib/errors.js';
import { parseDuration, today } from '../../lib/values.js';
import type { JsonRecord } from '../../output/index.js';
import { SUBSCRIPTION_DETAIL_VIEW, SUBSCRIPTION_LIST_VIEW } from '../shared/views/subscriptions.js';
import type { Session } from '../../session/session.js';
import { listOptions, parseChoiceList, printPagedList, type ListFlags, type ListOptions } from '../shared/list-flags.js';
import { printList, withOutput } from '../../session/run-kit.js';

export interface SubscriptionListFlags extends ListFlags {
  status?: string;
  access?: 'active' | 'inactive';
  product?: string;
  student?: string;
  expiring?: string;
  expired?: boolean;
}

interface Filters {
  statuses?: ReadonlySet<string>;
  /** The integer access flag: 1 = access released. */
  access?: 'active' | 'inactive';
  productId?: string;
  student?: StudentKey;
  /** Expiration dates kept, as YYYY-MM-DD, both ends included. */
  expiration?: { from?: string; to?: string };
}

/** Validates the filters before any request (exit 2); `now` fixes today for --expiring and --expired. */
export function parseFilters(flags: SubscriptionListFlags, now = new Date()): Filters | undefined {
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

export async function listSubscriptions(session: Session, flags: SubscriptionListFlags): Promise<void> {
  const filters = parseFilters(flags);
  if (filters && flags.page !== undefined) {
    throw new UsageError('--page cannot be combined with --status, --access, --product, --student, --expiring or --expired: the filters apply to every page');
  }
  const walk = listOptions(filters ? { ...flags, all: true } : flags);
  const api = await session.api();
  if (!filters) {
    await printPagedList(session, SUBSCRIPTION_LIST_VIEW, walk, (options) => listCollection(api, 'subscriptions', options) as AsyncIterable<JsonRecord>);
    return;
  }
  await printList(session, SUBSCRIPTION_LIST_VIEW, filtered(api, walk, filters) as AsyncIterable<JsonRecord>);
}

/** Lazy, so that it runs once the output is open (a bad --out fails before any request). */
function filtered(api: Api, walk: ListOptions, filters: Filters): Batched<Subscription> {
  return batched(async function* () {
    // Any STUDENT key is resolved to the id first (exit 4 if there is no such student); the list embeds student.id.
    const { student } = filters;
    const studentId = student === undefined ? undefined : student.kind === 'id' ? student.value : (await lookUpStudent(api, student)).id;
    // A title or prefix becomes the id; an unknown product is an error (exit 2), never an empty list.
    const productId = filters.productId === undefined ? undefined
      : (await resolveProduct(api, filters.productId, { argument: '--product', check: true })).id;
    const wanted = matcher({ ...filters, productId }, studentId);
    for await (const page of batchesOf(listCollection(api, 'subscriptions', walk))) yield page.filter(wanted);
  });
}

export async function getSubscriptionCommand(session: Session, id: string): Promise<void> {
  const api = await session.api();
  await withOutput(session, async (output) => output.one(await getSubscription(api, id), SUBSCRIPTION_DETAIL_VIEW));
}
