import { getSubscription, listCollection } from '../../api/endpoints/catalog.js';
import { filteredSubscriptions, parseFilters, type SubscriptionFilterFlags } from '../../domain/subscription-filter.js';
import { UsageError } from '../../lib/errors.js';
import type { JsonRecord } from '../../output/index.js';
import { SUBSCRIPTION_DETAIL_VIEW, SUBSCRIPTION_LIST_VIEW } from '../shared/views/subscriptions.js';
import type { Session } from '../../session/session.js';
import { listOptions, printPagedList, type ListFlags } from '../shared/list-flags.js';
import { printList, withOutput } from '../../session/run-kit.js';

export interface SubscriptionListFlags extends ListFlags, SubscriptionFilterFlags {}

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
  await printList(session, SUBSCRIPTION_LIST_VIEW, filteredSubscriptions(api, walk, filters) as AsyncIterable<JsonRecord>);
}

export async function getSubscriptionCommand(session: Session, id: string): Promise<void> {
  const api = await session.api();
  await withOutput(session, async (output) => output.one(await getSubscription(api, id), SUBSCRIPTION_DETAIL_VIEW));
}
