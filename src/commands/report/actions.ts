import { engagedCourses, type ReportQuery } from '../../api/endpoints/report.js';
import { UsageError } from '../../lib/errors.js';
import { reportClient } from '../shared/report-client.js';
import type { JsonRecord } from '../../output/index.js';
import { COURSE_VIEW, REPORT_VIEW } from './view.js';
import type { Session } from '../../session/session.js';
import { parseInteger } from '../../lib/values.js';
import { interruptible, printList, withOutput } from '../../session/run-kit.js';
import { batched, batchesOf, type Batched } from '../../lib/batches.js';
import { courseTally, engagementByCourse } from '../../domain/course-engagement.js';
import type { ReportItem } from '../../api/endpoints/schemas.js';

export interface ReportFlags {
  top: string;
  limit: string;
  cursor?: string;
  maxPages?: string;
  groupBy?: 'course';
  chart?: boolean;
  /** Several profiles (shared/several-profiles.ts): the workbook with a chart is made for one. */
  profiles?: string;
  allProfiles?: boolean;
}

/** The ranges of api-spec §4.5, checked before any request (exit 2). */
export function reportQuery(flags: ReportFlags): Omit<ReportQuery, 'developerToken' | 'platformToken'> {
  const cursor = flags.cursor?.trim();
  if (cursor === '') throw new UsageError('--cursor needs the next_cursor value of an earlier page');
  return {
    topCourses: parseInteger(flags.top, '--top', { min: 1, max: 50 }),
    limit: parseInteger(flags.limit, '--limit', { min: 2, max: 500 }),
    cursor,
    maxPages: flags.maxPages === undefined ? undefined : parseInteger(flags.maxPages, '--max-pages', { min: 1 }),
  };
}

export async function engagedCoursesReport(session: Session, flags: ReportFlags): Promise<void> {
  const query = reportQuery(flags);
  if (flags.chart) checkChartFlags(session, flags);
  const { api, developerToken, platformToken } = await reportClient(session);
  (await session.messages()).warn(
    'the engaged-courses report is deprecated by the platform and may stop working without notice',
  );
  const rows = engagedCourses(api, { ...query, developerToken, platformToken });
  if (flags.chart) {
    await chartWorkbook(session, rows);
    return;
  }
  if (flags.groupBy === 'course') {
    // One entry per course is held while the pages go by; the courses are printed once the last page is in.
    await printList(session, COURSE_VIEW, batched(async function* () {
      yield await engagementByCourse(batchesOf(rows)) as unknown as JsonRecord[];
    }));
    return;
  }
  // Rows go out as pages arrive; at most two pages are held (the current one and the one being fetched).
  await printList(session, REPORT_VIEW, rows as AsyncIterable<JsonRecord>);
}

/** --chart writes a workbook with a header on each sheet (the chart reads its series' name there), of its own columns. */
function checkChartFlags(session: Session, flags: ReportFlags): void {
  if (flags.profiles !== undefined || flags.allProfiles) throw new UsageError('--chart makes the workbook of one school: drop --profiles or --all-profiles, or run it once per profile');
  const { output, out, fields, header } = session.globals;
  if (output !== 'xlsx' || !out) throw new UsageError('--chart draws into a workbook: add --out FILE.xlsx');
  if (fields) throw new UsageError('--chart writes every field of each sheet: drop --fields (or drop --chart for a sheet of those fields)');
  if (!header) throw new UsageError('--chart needs the header row (the chart names its series there): drop --no-header');
}

/**
 * The workbook for a meeting: the courses with a bar chart of their mean
 * completion, then the rows per student with a data bar on each completion.
 * The rows are held (the report ranks at most 50 courses): the courses' sheet comes first.
 */
async function chartWorkbook(session: Session, rows: Batched<ReportItem>): Promise<void> {
  await withOutput(session, async (output) => {
    const tally = courseTally();
    const students: JsonRecord[] = [];
    for await (const batch of batchesOf(interruptible(rows, session.io))) {
      tally.add(batch);
      for (const row of batch) students.push(row);
    }
    await output.book({
      sheets: [
        { view: COURSE_VIEW, records: tally.courses() as unknown as JsonRecord[] },
        { view: { ...REPORT_VIEW, noun: 'students' }, records: students, dataBar: { path: 'course_completion_percent', max: 100 } },
      ],
      chart: { sheet: 0, title: 'Mean completion by course (%)', category: 'course', value: 'mean_completion', max: 100 },
    });
  });
}
