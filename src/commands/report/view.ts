/** How the engaged-courses report looks in `table` mode: one row per student and course. */
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
