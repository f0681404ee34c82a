/**
 * Who a coordinator writes to about a course (issue 30): those who finished
 * it (the certificate list), those who have not, and the holders of a
 * product who never opened it (the welcome message). The API lists a course's
 * accesses (api-spec §4.2) and the subscriptions with their students (§4.4);
 * nothing joins the two, so the join is made here.
 */
import type { Api } from '../api/client.js';
import { listCollection } from '../api/endpoints/catalog.js';
import type { CourseAccess, Subscription } from '../api/endpoints/schemas.js';
import type { PageWalk } from '../api/pagination/paginate.js';
import { batched, batchesOf, type Batched } from '../lib/batches.js';
import { personName } from '../lib/people.js';
import { hasAccess } from './changes.js';
import { resolveProduct } from './names.js';

export type CompletionFilter = 'finished' | 'not-finished';

/** `finished` is an integer flag (api-spec §2.5); some servers send it as a string or a boolean. */
export const hasFinished = (entry: CourseAccess) => [1, '1', true].includes(entry.course.finished as never);

/** The entries of an access list that `filter` keeps. */
export function byCompletion(entries: readonly CourseAccess[], filter: CompletionFilter): CourseAccess[] {
  return entries.filter((entry) => hasFinished(entry) === (filter === 'finished'));
}

/**
 * The students who opened the course: an entry with a last access, or
 * finished. A platform may list an enrolment never opened (no last access),
 * or leave it out: either way its student never opened the course.
 */
export function openedBy(entries: readonly CourseAccess[]): Set<string> {
  return new Set(entries.filter((entry) => Boolean(entry.course.last_access_at) || hasFinished(entry)).map((entry) => entry.id));
}

/** A holder of the product who never opened the course: who to write to, and since when they hold it. */
export interface NeverOpened {
  id: string;
  name: string;
  email: string | null;
  status: string | null;
  accession_date: string | null;
  expiration_date: string | null;
}

/**
 * From a page of the subscriptions list: the holders of `productId` with
 * access whose student is not in `opened`.
 */
export function neverOpened(subscriptions: readonly Subscription[], productId: string, opened: ReadonlySet<string>): NeverOpened[] {
  const found: NeverOpened[] = [];
  for (const subscription of subscriptions) {
    const student = subscription.student;
    if (!student || (subscription.product_id ?? subscription.product?.id) !== productId || !hasAccess(subscription) || opened.has(student.id)) continue;
    found.push({
      id: student.id,
      name: personName(student),
      email: student.email ?? null,
      status: subscription.status ?? null,
      accession_date: subscription.accession_date ?? null,
      expiration_date: subscription.expiration_date ?? null,
    });
  }
  return found;
}

/**
 * The course's accesses (one request), then the product's holders from the
 * subscriptions list, page by page: the API lists no holders of one product.
 * Lazy, so that it runs once the output is open (a bad --out fails first).
 */
export function holdersWhoNeverOpened(
  api: Api, accesses: () => Promise<CourseAccess[]>, product: string, walk: { perPage?: number } & PageWalk,
): Batched<NeverOpened> {
  return batched(async function* () {
    // Both names are checked before the walk: an unknown product is exit 2, an unknown course exit 4.
    const productId = (await resolveProduct(api, product, { argument: '--product', check: true })).id;
    const opened = openedBy(await accesses());
    for await (const page of batchesOf(listCollection(api, 'subscriptions', walk))) yield neverOpened(page, productId, opened);
  });
}
