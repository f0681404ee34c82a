/** How the engaged-courses report looks in `table` mode: one row per student and course, or per course. */
import { personNameCell } from '../../output/cell.js';
import type { View } from '../../output/view.js';

export const REPORT_VIEW: View = {
  noun: 'report rows',
  columns: [
    { header: 'Course', path: 'course_name' },
    { header: 'Name', path: 'full_name', format: personNameCell },
    { header: 'E-mail', path: 'email' },
    { header: 'Completion %', path: 'course_completion_percent' },
    { header: 'Course average', path: 'course_avg_engagement_score' },
  ],
};

/** `--group-by course` (domain/course-engagement.ts): a row per course, its mean completion also drawn as a bar. */
export const COURSE_VIEW: View = {
  noun: 'courses',
  columns: [
    { header: 'Course', path: 'course', kind: 'name' },
    { header: 'Students', path: 'students', whole: true },
    { header: 'Finished', path: 'finished', whole: true },
    { header: 'Mean completion %', path: 'mean_completion', whole: true },
    { header: 'Course average', path: 'average_score', whole: true },
    { header: 'Completion', path: 'mean_completion', bar: { max: 100 } },
  ],
};
