/**
 * The engaged-courses report per course (issue 38): the API sends one row
 * per student and course (api-spec §4.5); a coordinator asks how each
 * course does. Rows are tallied as the pages arrive, so only one entry per
 * course is held (the report ranks at most 50 courses).
 */
import type { ReportItem } from '../api/endpoints/schemas.js';

/** One course of the report, in the report's ranking order. */
export interface CourseEngagement {
  course_id: string;
  course: string;
  /** Distinct students with a row for the course. */
  students: number;
  /** Of them, those at 100 % completion. */
  finished: number;
  /** The mean of the rows' completion percents, to two places; null when no row gave one. */
  mean_completion: number | null;
  /** The course average the server computed over the ranked set (course_avg_engagement_score); null when it sent none. */
  average_score: number | null;
}

/** What the tally reads of a report row. */
export type EngagementRow = Pick<ReportItem, 'user_id' | 'course_id' | 'course_name' | 'course_completion_percent' | 'course_avg_engagement_score'>;

interface Tally {
  course: string;
  students: Set<string>;
  finished: Set<string>;
  /** In hundredths of a percent, so that the sum is exact ("87.50" → 8750). */
  completionSum: number;
  completions: number;
  averageScore: number | null;
}

const FINISHED_HUNDREDTHS = 100_00;

/** `"87.50"` or 87.5 → 8750; null for an absent or unreadable value. */
export function hundredths(value: unknown): number | null {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
  const number = Number(value);
  return Number.isFinite(number) ? Math.round(number * 100) : null;
}

export interface CourseTally {
  add(rows: Iterable<EngagementRow>): void;
  /** The courses so far, in the order the report first named them. */
  courses(): CourseEngagement[];
}

export function courseTally(): CourseTally {
  const tallies = new Map<string, Tally>();
  return {
    add(rows) {
      for (const row of rows) {
        let tally = tallies.get(row.course_id);
        if (!tally) {
          tally = { course: row.course_name ?? '', students: new Set(), finished: new Set(), completionSum: 0, completions: 0, averageScore: null };
          tallies.set(row.course_id, tally);
        }
        tally.students.add(row.user_id);
        const completion = hundredths(row.course_completion_percent);
        if (completion !== null) {
          tally.completionSum += completion;
          tally.completions++;
          if (completion >= FINISHED_HUNDREDTHS) tally.finished.add(row.user_id);
        }
        // The server repeats the course's average on each of its rows: the first one given stands.
        const score = hundredths(row.course_avg_engagement_score);
        if (tally.averageScore === null && score !== null) tally.averageScore = score / 100;
      }
    },
    courses() {
      return [...tallies].map(([courseId, tally]) => ({
        course_id: courseId,
        course: tally.course,
        students: tally.students.size,
        finished: tally.finished.size,
        mean_completion: tally.completions === 0 ? null : Math.round(tally.completionSum / tally.completions) / 100,
        average_score: tally.averageScore,
      }));
    },
  };
}

/** The whole report, per course. */
export async function engagementByCourse(pages: AsyncIterable<readonly EngagementRow[]>): Promise<CourseEngagement[]> {
  const tally = courseTally();
  for await (const page of pages) tally.add(page);
  return tally.courses();
}
