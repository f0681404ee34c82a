/**
 * `members students show STUDENT`: everything a support desk asks about one
 * student, gathered in one go: identity, every subscription with whether
 * access is on and why, the score, progress in every course, and this
 * machine's audit history. Requests: 1 lookup, 1 score, 1 course list, then
 * 1 access list per course (4 at a time), as the API has no per-student view.
 */
import type { Api } from '../api/client.js';
import { courseAccesses, listCollection } from '../api/endpoints/catalog.js';
import type { Course, Score, Student, Subscription } from '../api/endpoints/schemas.js';
import { getScores } from '../api/endpoints/students.js';
import { NotFoundError } from '../lib/errors.js';
import { today } from '../lib/values.js';
import { runPool } from './bulk/pool.js';
import { hasAccess } from './changes.js';
import { resolveStudent, type StudentCache } from './resolve.js';

export interface SubscriptionState extends Subscription {
  /** yes / no, from the access flag. */
  access: 'yes' | 'no';
  /** Why, in words: `active until 2026-05-01`, `canceled, expired 2024-01-01, access kept`… */
  access_why: string;
}

export interface CourseProgress {
  course_id: string;
  course: string;
  last_access_at: string | null;
  finished: boolean;
  finished_at: string | null;
}

export interface StudentOverview {
  student: Student;
  subscriptions: SubscriptionState[];
  score: Score | null;
  courses: CourseProgress[];
}

/**
 * Access and status are separate notions (api-spec §3): say both, and the
 * date that matters, the telling part first (a narrow table cuts the end):
 * `active, until 2026-05-01`, `access kept though refunded, no expiration`,
 * `access off: canceled, expired 2024-01-01`.
 */
export function accessWhy(subscription: Subscription, now = new Date()): string {
  const status = subscription.status ?? 'no status';
  const expires = subscription.expiration_date?.slice(0, 10);
  const lapsed = expires !== undefined && expires < today(now);
  const when = expires === undefined ? 'no expiration' : lapsed ? `expired ${expires}` : `until ${expires}`;
  if (hasAccess(subscription)) return status === 'active' ? `active, ${when}` : `access kept though ${status}, ${when}`;
  return `access off: ${status}, ${when}`;
}

export interface OverviewOptions {
  now?: Date;
  /** The run's student lookups, when the overview is a row of `members each`. */
  lookups?: StudentCache;
}

/** The student `input` names (a STUDENT argument, checked by the caller), with its subscriptions' state, score and courses. */
export async function studentOverview(api: Api, input: string, { now = new Date(), lookups }: OverviewOptions = {}): Promise<StudentOverview> {
  // With fetch, a lookup always brings the record.
  const student = (await resolveStudent(api, input, { fetch: true, cache: lookups })).record as Student;
  const [score, courses] = await Promise.all([
    getScores(api, student.id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    }),
    courseProgress(api, student.id),
  ]);
  const subscriptions = (student.subscriptions ?? []).map((subscription): SubscriptionState => ({
    ...subscription, access: hasAccess(subscription) ? 'yes' : 'no', access_why: accessWhy(subscription, now),
  }));
  return { student, subscriptions, score, courses };
}

async function courseProgress(api: Api, studentId: string): Promise<CourseProgress[]> {
  const courses: Course[] = [];
  for await (const course of listCollection(api, 'courses', { all: true, perPage: 100, concurrency: 4 })) courses.push(course);
  api.onCatalog?.('courses', courses);
  const found: Array<CourseProgress | undefined> = new Array(courses.length);
  await runPool(courses.length, 4, async (index) => {
    const course = courses[index] as Course;
    const entry = (await courseAccesses(api, course.id)).find((access) => access.id === studentId);
    if (!entry) return;
    found[index] = {
      course_id: course.id,
      course: course.title ?? entry.course.name ?? course.id,
      last_access_at: entry.course.last_access_at ?? null,
      finished: entry.course.finished === 1,
      finished_at: entry.course.finished_at ?? null,
    };
  }, () => false);
  return found.filter((progress): progress is CourseProgress => progress !== undefined);
}
