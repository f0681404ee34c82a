import type { SandboxStore } from './store.js';
import type { CourseRecord, StudentRecord, SubscriptionRecord } from './types.js';

/** One row of the engaged-courses report (api-spec §2.9). */
export interface ReportRow {
  id: string;
  user_id: string;
  course_id: string;
  course_name: string;
  product_name: string;
  first_name: string;
  last_name: string | null;
  phone: string | null;
  document: string | null;
  email: string;
  registration_date: string;
  course_completion_percent: string;
  course_avg_engagement_score: string;
}

interface Enrolment {
  student: StudentRecord;
  subscription: SubscriptionRecord;
  completion: number;
}

interface RankedCourse {
  course: CourseRecord;
  /** Sum of completions (hundredths) and number of active enrolments: the exact average is sum / count. */
  sum: number;
  count: number;
  average: string;
  /** Best completion first, then by student id. */
  enrolments: readonly Enrolment[];
}

/**
 * The subscription through which a student reaches a course: the earliest
 * one with access released whose product packages the course.
 */
function accessVia(store: SandboxStore, studentId: string, courseId: string): SubscriptionRecord | undefined {
  return store
    .subscriptionsOf(studentId)
    .find((subscription) => subscription.active === 1 && (store.product(subscription.product_id)?.course_ids.includes(courseId) ?? false));
}

/**
 * Every course with at least one active enrolment (a progress row reached
 * through a subscription with access released), best average first, ties by
 * course id. Use through `store.derive(rankCourses)` so it runs once per state.
 */
function rankCourses(store: SandboxStore): readonly RankedCourse[] {
  const ranked: RankedCourse[] = [];
  for (const course of store.courses) {
    const enrolments: Enrolment[] = [];
    let sum = 0;
    for (const progress of store.progressOf(course.id).values()) {
      const student = store.student(progress.student_id);
      const subscription = accessVia(store, progress.student_id, course.id);
      if (!student || !subscription) continue;
      enrolments.push({ student, subscription, completion: progress.completion });
      sum += progress.completion;
    }
    if (enrolments.length === 0) continue;
    enrolments.sort((a, b) => b.completion - a.completion || compareText(a.student.id, b.student.id));
    ranked.push({ course, sum, count: enrolments.length, average: formatHundredths(Math.round(sum / enrolments.length)), enrolments });
  }
  // Cross-multiplied so that equal averages compare equal, with no rounding.
  ranked.sort((a, b) => b.sum * a.count - a.sum * b.count || compareText(a.course.id, b.course.id));
  return ranked;
}

/** Rows [offset, offset + limit) of the report over the top `topCourses` courses; builds only those rows. */
export function reportPage(store: SandboxStore, topCourses: number, offset: number, limit: number): { rows: ReportRow[]; total: number } {
  const ranked = store.derive(rankCourses).slice(0, topCourses);
  const rows: ReportRow[] = [];
  let total = 0;
  let skip = offset;
  for (const course of ranked) {
    total += course.count;
    const from = Math.min(skip, course.count);
    skip -= from;
    for (let index = from; index < course.count && rows.length < limit; index++) {
      const enrolment = course.enrolments[index];
      if (enrolment) rows.push(toRow(store, course, enrolment));
    }
  }
  return { rows, total };
}

/** The whole report in order: what the paginated endpoint serves, page after page. */
export function computeEngagedReport(store: SandboxStore, topCourses: number): ReportRow[] {
  return reportPage(store, topCourses, 0, Number.POSITIVE_INFINITY).rows;
}

function toRow(store: SandboxStore, ranked: RankedCourse, { student, subscription, completion }: Enrolment): ReportRow {
  return {
    id: `${student.id}|${ranked.course.id}`,
    user_id: student.id,
    course_id: ranked.course.id,
    course_name: ranked.course.title,
    product_name: store.product(subscription.product_id)?.title ?? '',
    first_name: student.first_name,
    last_name: student.last_name,
    phone: student.phone,
    document: student.document,
    email: student.email,
    registration_date: `${subscription.accession_date} 00:00:00`,
    course_completion_percent: formatHundredths(completion),
    course_avg_engagement_score: ranked.average,
  };
}

/** 8750 → "87.50" */
function formatHundredths(value: number): string {
  return `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
