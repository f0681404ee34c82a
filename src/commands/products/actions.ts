import { getProduct, listCollection } from '../../api/endpoints/catalog.js';
import { resolveProduct } from '../../domain/names.js';
import type { ListFlags } from '../shared/list-flags.js';
import { getCatalogItem, listCatalog, type Catalog } from '../shared/catalog/commands.js';
import type { Session } from '../../session/session.js';
import { PRODUCT_COMPARE_VIEW, PRODUCT_COUNTS_VIEW, PRODUCT_LIST_VIEW, PRODUCT_VIEW } from '../shared/views/products.js';
import { compareCounts, compareDay, countsOn, dayOf, firstDay, noHistoryMessage, snapshotsOf, type CountSnapshot, type ProductCounts } from '../../domain/counts-over-time.js';
import { auditBaseUrl } from '../../audit/stamp.js';
import { UsageError } from '../../lib/errors.js';
import type { JsonRecord } from '../../output/index.js';
import { printList } from '../../session/run-kit.js';
import { plural } from '../../lib/values.js';

const PRODUCTS: Catalog = {
  collection: 'products', noun: 'product', listView: PRODUCT_LIST_VIEW, view: PRODUCT_VIEW,
  get: getProduct,
  resolve: (api, input) => resolveProduct(api, input, { check: true }),
};

export const list = (session: Session, flags: ListFlags & { compare?: string }) =>
  (flags.compare === undefined ? listCatalog(session, PRODUCTS, flags) : compare(session, flags.compare, flags));

export const get = (session: Session, input: string) => getCatalogItem(session, PRODUCTS, input);

/** Every product with today's counts (the whole list: a snapshot or a comparison of part of it would mislead). */
async function productCounts(session: Session): Promise<ProductCounts[]> {
  const api = await session.api();
  const counts: ProductCounts[] = [];
  for await (const product of listCollection(api, 'products', { all: true, perPage: 100, concurrency: 4 })) {
    counts.push({ id: product.id, title: product.title ?? '', active: product.subscribers?.active ?? 0, inactive: product.subscribers?.inactive ?? 0 });
  }
  return counts;
}

/** Which school a snapshot is of: the profile and its base URL as recorded. */
async function school(session: Session): Promise<{ profile: string; base_url: string }> {
  const settings = await session.settings();
  return { profile: settings.profile, base_url: auditBaseUrl(settings.baseUrl) };
}

/** `members products snapshot`: today's counts, kept in the profile's change record (for cron, once a day). */
export async function snapshot(session: Session): Promise<void> {
  const now = new Date();
  const date = dayOf(now);
  const of = await school(session);
  const taken = (await productCounts(session)).map((product): CountSnapshot => ({
    ...of, date, taken_at: now.toISOString(), product_id: product.id, title: product.title, active: product.active, inactive: product.inactive,
  }));
  const { snapshots } = await session.changeRecord();
  await snapshots.keep(taken);
  await printList(session, PRODUCT_COUNTS_VIEW, taken as unknown as JsonRecord[]);
  (await session.messages()).notice(`Kept the subscriber counts of ${plural(taken.length, 'product')} for ${date} in ${snapshots.where}`);
}

/** `products list --compare DATE|last-month`: each product now, then (the nearest snapshot on or before), and the difference. */
async function compare(session: Session, input: string, flags: ListFlags): Promise<void> {
  if (flags.page !== undefined || flags.limit !== undefined) throw new UsageError('--compare compares every product: drop --page and --limit');
  const day = compareDay(input, dayOf(new Date()));
  const { snapshots: home } = await session.changeRecord();
  const read = await home.read();
  const { skipped } = read;
  const snapshots = snapshotsOf(read.snapshots, await school(session));
  const messages = await session.messages();
  if (skipped > 0) messages.warn(`${plural(skipped, 'line')} of ${home.where} could not be read and ${skipped === 1 ? 'was' : 'were'} skipped`);
  const then = countsOn(snapshots, day);
  if (!then) throw new UsageError(noHistoryMessage(day, firstDay(snapshots)));
  if (then.date !== day) messages.notice(`No snapshot on ${day}: compared with the nearest one before it, ${then.date}`);
  await printList(session, PRODUCT_COMPARE_VIEW, compareCounts(await productCounts(session), then) as unknown as JsonRecord[]);
}
