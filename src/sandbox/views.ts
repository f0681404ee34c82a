import type { SandboxStore } from './store.js';
import type { CourseRecord, ProductRecord, ProgressRecord, StudentRecord, SubscriptionRecord } from './types.js';

/** API representations (api-spec §2) of the store's records. */

function fullName(student: StudentRecord): string {
  return student.last_name === null ? student.first_name : `${student.first_name} ${student.last_name}`;
}

export function studentView(store: SandboxStore, student: StudentRecord, withSubscriptions: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: student.id,
    first_name: student.first_name,
    last_name: student.last_name,
    full_name: fullName(student),
    email: student.email,
    photo_url: student.photo_url,
    phone: student.phone,
    genre: student.genre,
    birth: student.birth,
    document: student.document,
    reference_id: student.reference_id,
    created_at: student.created_at,
    updated_at: student.updated_at,
  };
  if (withSubscriptions) view.subscriptions = store.subscriptionsOf(student.id).map((subscription) => subscriptionView(store, subscription, false));
  return view;
}

/** `withStudent`: the /subscriptions endpoints embed the student; the student endpoints do not. */
export function subscriptionView(store: SandboxStore, subscription: SubscriptionRecord, withStudent: boolean): Record<string, unknown> {
  const product = store.product(subscription.product_id);
  const view: Record<string, unknown> = {
    id: subscription.id,
    active: subscription.active,
    status: subscription.status,
    product_id: subscription.product_id,
    payment_last_date: subscription.payment_last_date,
    accession_date: subscription.accession_date,
    expiration_date: subscription.expiration_date,
    cancel_date: subscription.cancel_date,
    product: product && {
      id: product.id,
      title: product.title,
      description: product.description,
      created_at: product.created_at,
      updated_at: product.updated_at,
    },
  };
  const student = withStudent ? store.student(subscription.student_id) : undefined;
  if (student) {
    view.student = { id: student.id, first_name: student.first_name, last_name: student.last_name, full_name: fullName(student), email: student.email };
  }
  view.created_at = subscription.created_at;
  view.updated_at = subscription.updated_at;
  return view;
}

interface SubscriberCounts {
  active: number;
  inactive: number;
}

/**
 * Students with access released, per product: `active` when the subscription
 * status is active, `inactive` otherwise (kept access after cancel, refund…).
 * Students without access are not counted. Use through `store.derive`.
 */
function countSubscribers(store: SandboxStore): ReadonlyMap<string, SubscriberCounts> {
  const counts = new Map<string, SubscriberCounts>(store.products.map((product) => [product.id, { active: 0, inactive: 0 }]));
  for (const subscription of store.subscriptions) {
    const count = counts.get(subscription.product_id);
    if (!count || subscription.active !== 1) continue;
    if (subscription.status === 'active') count.active++;
    else count.inactive++;
  }
  return counts;
}

export function productView(store: SandboxStore, product: ProductRecord): Record<string, unknown> {
  const { course_ids: _courses, ...fields } = product;
  return { ...fields, subscribers: store.derive(countSubscribers).get(product.id) ?? { active: 0, inactive: 0 } };
}

export function accessView(store: SandboxStore, course: CourseRecord, progress: ProgressRecord): Record<string, unknown> | undefined {
  const student = store.student(progress.student_id);
  if (!student) return undefined;
  return {
    id: student.id,
    name: fullName(student),
    email: student.email,
    course: {
      id: course.id,
      name: course.title,
      last_access_at: progress.last_access_at,
      finished: progress.completion === 10000 ? 1 : 0,
      finished_at: progress.finished_at,
    },
  };
}
