import { data, jsonBody, NO_CONTENT, notFound, type Reply, type RequestContext } from '../http.js';
import type { SubscriptionRecord } from '../types.js';
import { unprocessable, Validator } from '../validation.js';
import { subscriptionView } from '../views.js';
import { requireStudent } from './students.js';

export function listStudentProducts(ctx: RequestContext): Reply {
  const student = requireStudent(ctx);
  return data(ctx.store.subscriptionsOf(student.id).map((subscription) => subscriptionView(ctx.store, subscription, false)));
}

export function grantProduct(ctx: RequestContext): Reply {
  const store = ctx.store;
  const student = requireStudent(ctx);
  const validator = new Validator(jsonBody(ctx));
  const productId = validator.string('product_id', true);
  if (!validator.failed('product_id') && !store.product(productId)) validator.fail('product_id', 'The selected product id is invalid.');
  const accession = validator.date('accession_date', true);
  const expiration = validator.date('expiration_date', false);
  if (expiration !== null && !validator.failed('accession_date') && expiration < accession) {
    validator.fail('expiration_date', 'The expiration date field must be a date after or equal to accession date.');
  }
  validator.check();
  if (store.subscriptionFor(student.id, productId)) throw unprocessable('product_id', 'The student already has this product.');
  return data(subscriptionView(store, store.grant(student.id, productId, accession, expiration), false), 201);
}

export function getStudentProduct(ctx: RequestContext): Reply {
  return data(subscriptionView(ctx.store, requireSubscription(ctx), false));
}

export function revokeProduct(ctx: RequestContext): Reply {
  const subscription = requireSubscription(ctx);
  ctx.store.revoke(subscription.student_id, subscription.product_id);
  return NO_CONTENT;
}

/** 404 names what is missing: the student, the product itself, or only the student's subscription to it. */
function requireSubscription(ctx: RequestContext): SubscriptionRecord {
  const student = requireStudent(ctx);
  const productId = ctx.param('product_id');
  if (!ctx.store.product(productId)) throw notFound('Product not found.', 'ProductNotFoundException');
  const subscription = ctx.store.subscriptionFor(student.id, productId);
  if (!subscription) throw notFound('The student does not have this product.', 'SubscriptionNotFoundException');
  return subscription;
}
