/** Products, courses and subscriptions (api-spec §4.2–§4.4). */
import * as z from 'zod';
import type { Batched } from '../../lib/batches.js';
import type { Api } from '../client.js';
import { apiPath } from './path.js';
import { walkList } from '../pagination/pages.js';
import type { PageWalk } from '../pagination/paginate.js';
import { Course, CourseAccess, Product, Subscription, one } from './schemas.js';

/** The paginated collections, each with the schema of its items. */
const collections = {
  products: { path: '/api/v1/products', item: Product },
  courses: { path: '/api/v1/courses', item: Course },
  subscriptions: { path: '/api/v1/subscriptions', item: Subscription },
} as const;

type Collections = typeof collections;

export function listCollection<K extends keyof Collections>(
  api: Api, name: K, options: { perPage?: number } & PageWalk,
): Batched<z.infer<Collections[K]['item']>> {
  const { path, item } = collections[name];
  return walkList(api, item, path, { per_page: options.perPage }, options) as Batched<z.infer<Collections[K]['item']>>;
}

export async function getProduct(api: Api, id: string): Promise<Product> {
  return (await api.call(one(Product), { method: 'GET', path: apiPath`/api/v1/products/${id}`, notFound: `product ${id}` })).data.data;
}

export async function getCourse(api: Api, id: string): Promise<Course> {
  return (await api.call(one(Course), { method: 'GET', path: apiPath`/api/v1/courses/${id}`, notFound: `course ${id}` })).data.data;
}

export async function courseAccesses(api: Api, id: string): Promise<CourseAccess[]> {
  return (await api.call(one(z.array(CourseAccess)), {
    method: 'GET', path: apiPath`/api/v1/courses/${id}/accesses`, notFound: `course ${id}`,
  })).data.data;
}

export async function getSubscription(api: Api, id: string): Promise<Subscription> {
  return (await api.call(one(Subscription), {
    method: 'GET', path: apiPath`/api/v1/subscriptions/${id}`, notFound: `subscription ${id}`,
  })).data.data;
}
