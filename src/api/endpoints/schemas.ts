/**
 * The resources of api-spec §2. Loose objects (unknown fields are kept) and
 * nullish where real data has gaps: a schema should catch a server that
 * changed shape, not one that added a field.
 */
import * as z from 'zod';

const str = z.string().nullish();
const int = z.number().int().nullish();
/** Flags the spec types as strings on modules and lessons but as integers on courses. */
const flag = z.union([z.string(), z.number()]).nullish();

export const ProductRef = z.looseObject({ id: z.string(), title: str, description: str, created_at: str, updated_at: str });

export const StudentRef = z.looseObject({ id: z.string(), first_name: str, last_name: str, full_name: str, email: str });

export const Subscription = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  active: int,
  status: str,
  product_id: z.string(),
  payment_last_date: str,
  accession_date: str,
  expiration_date: str,
  cancel_date: str,
  product: ProductRef.nullish(),
  student: StudentRef.nullish(),
  created_at: str,
  updated_at: str,
});
export type Subscription = z.infer<typeof Subscription>;

export const Student = z.looseObject({
  id: z.string(),
  first_name: str,
  last_name: str,
  full_name: str,
  email: str,
  photo_url: str,
  phone: str,
  genre: str,
  birth: str,
  document: str,
  reference_id: str,
  created_at: str,
  updated_at: str,
  subscriptions: z.array(Subscription).optional(),
});
export type Student = z.infer<typeof Student>;

export const Product = z.looseObject({
  id: z.string(),
  title: str,
  description: str,
  period: int,
  external_checkout_product: str,
  lifetime: z.boolean().nullish(),
  status: str,
  type: str,
  sales_page_url: str,
  support_email: str,
  trial: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  upsell: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  upsell_url: str,
  created_at: str,
  updated_at: str,
  subscribers: z.looseObject({ active: z.number().int(), inactive: z.number().int() }).nullish(),
});
export type Product = z.infer<typeof Product>;

const Lesson = z.looseObject({
  id: z.string(), title: str, subtitle: str, slug: str, blocked: flag, published: flag, url_upsell: str, text_upsell: str,
});
const Module = z.looseObject({
  id: z.string(), title: str, description: str, slug: str, blocked: flag, published: flag, url_upsell: str, text_upsell: str,
  lessons: z.array(Lesson).nullish(),
});
export const Course = z.looseObject({
  id: z.string(), title: str, description: str, status: str, slug: str, url_upsell: str, text_upsell: str,
  blocked: flag, published: flag,
  modules: z.array(Module).nullish(),
});
export type Course = z.infer<typeof Course>;

export const CourseAccess = z.looseObject({
  id: z.string(),
  name: str,
  email: str,
  course: z.looseObject({ id: z.string(), name: str, last_access_at: str, finished: int, finished_at: str }),
});
export type CourseAccess = z.infer<typeof CourseAccess>;

export const Score = z.looseObject({ score: z.number().int(), posts: int, comments: int, replies: int });
export type Score = z.infer<typeof Score>;

export const MagicLink = z.looseObject({ expire_in: z.number().int(), url: z.string() });
export type MagicLink = z.infer<typeof MagicLink>;

export const ReportItem = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  course_id: z.string(),
  course_name: str,
  product_name: str,
  first_name: str,
  last_name: str,
  phone: str,
  document: str,
  email: str,
  registration_date: str,
  course_completion_percent: z.union([z.string(), z.number()]).nullish(),
  course_avg_engagement_score: z.union([z.string(), z.number()]).nullish(),
});
export type ReportItem = z.infer<typeof ReportItem>;

/**
 * One envelope schema per item schema, built once: building a zod object per
 * page cost a list of 1,000 pages 16 % of its CPU (issue 16).
 */
function perItem<F extends (item: z.ZodType) => z.ZodType>(build: F): F {
  const built = new WeakMap<z.ZodType, z.ZodType>();
  return ((item: z.ZodType) => {
    let schema = built.get(item);
    if (!schema) built.set(item, (schema = build(item)));
    return schema;
  }) as F;
}

/** `{ data: T }` */
export const one = perItem(<T extends z.ZodType>(item: T) => z.looseObject({ data: item }));

const nullableLink = z.string().nullish();
/** Laravel's length-aware paginator (api-spec §2.8). */
export const page = perItem(<T extends z.ZodType>(item: T) => z.looseObject({
  data: z.array(item),
  links: z.looseObject({ first: nullableLink, last: nullableLink, prev: nullableLink, next: nullableLink }).nullish(),
  meta: z.looseObject({
    current_page: z.number().int().nullish(),
    last_page: z.number().int().nullish(),
    per_page: z.union([z.number(), z.string()]).nullish(),
    total: z.number().int().nullish(),
  }).nullish(),
}));

/** Laravel's cursor paginator (api-spec §4.5). */
export const cursorPage = <T extends z.ZodType>(item: T) => z.looseObject({
  data: z.array(item),
  path: str,
  per_page: z.union([z.number(), z.string()]).nullish(),
  next_cursor: str,
  next_page_url: str,
  prev_cursor: str,
  prev_page_url: str,
});
