/**
 * Records as the store keeps them. Field names and formats are the API's
 * (api-spec §2), so a view is mostly a selection of fields; the extra fields
 * (student_id, course_ids, score counters) are what the API derives from.
 */

export type SubscriptionStatus = 'active' | 'inactive' | 'refunded' | 'chargeback' | 'canceled';

export interface StudentRecord {
  id: string;
  first_name: string;
  last_name: string | null;
  email: string;
  photo_url: string | null;
  phone: string | null;
  genre: string | null;
  birth: string | null;
  document: string | null;
  reference_id: string | null;
  created_at: string;
  updated_at: string;
  score: number;
  posts: number;
  comments: number;
  replies: number;
}

export interface SubscriptionRecord {
  id: string;
  student_id: string;
  product_id: string;
  /** Access flag: 1 = access released. Independent of `status` (api-spec §3). */
  active: 0 | 1;
  status: SubscriptionStatus;
  payment_last_date: string | null;
  accession_date: string;
  expiration_date: string | null;
  cancel_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProductRecord {
  id: string;
  title: string;
  description: string;
  period: number;
  external_checkout_product: string | null;
  lifetime: boolean;
  status: string;
  type: string;
  sales_page_url: string;
  support_email: string;
  trial: string;
  upsell: string;
  upsell_url: string | null;
  created_at: string;
  updated_at: string;
  course_ids: string[];
}

export interface LessonRecord {
  id: string;
  title: string;
  subtitle: string;
  slug: string;
  blocked: string;
  published: string;
  url_upsell: string | null;
  text_upsell: string | null;
}

export interface ModuleRecord {
  id: string;
  title: string;
  description: string;
  slug: string;
  blocked: string;
  published: string;
  url_upsell: string | null;
  text_upsell: string | null;
  lessons: LessonRecord[];
}

export interface CourseRecord {
  id: string;
  title: string;
  description: string;
  status: string;
  slug: string;
  url_upsell: string | null;
  text_upsell: string | null;
  blocked: number;
  published: number;
  modules: ModuleRecord[];
}

/** One student's progress in one course. */
export interface ProgressRecord {
  student_id: string;
  course_id: string;
  /** Hundredths of a percent (8750 = 87.50 %): integral, so sums and averages are exact. */
  completion: number;
  last_access_at: string | null;
  finished_at: string | null;
}

export interface SandboxTokens {
  api: string;
  developer: string;
  platform: string;
}

/** The whole state: what the data file holds, and what the seed generates. */
export interface SandboxState {
  format: 1;
  seed: number;
  tokens: SandboxTokens;
  /** State of the PRNG that mints ids for records created through the API. */
  id_state: number;
  products: readonly ProductRecord[];
  courses: readonly CourseRecord[];
  students: readonly StudentRecord[];
  subscriptions: readonly SubscriptionRecord[];
  progress: readonly ProgressRecord[];
}
