import { engagedCourses, type ReportQuery } from '../../api/endpoints/report.js';
import { UsageError } from '../../lib/errors.js';
import { reportClient } from '../shared/report-client.js';
import type { JsonRecord } from '../../output/index.js';
import { COURSE_VIEW, REPORT_VIEW } from './view.js';
import type { Session } from '../../session/session.js';
import { parseInteger } from '../../lib/values.js';
import { printList } from '../../session/run-kit.js';
import { batched, batchesOf } from '../../lib/batches.js';
import { engagementByCourse } from '../../domain/course-engagement.js';

export interface ReportFlags {
  top: string;
  limit: string;
  cursor?: string;
  maxPages?: string;
  groupBy?: 'course';
  chart?: boolean;
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
  if (flags.chart && (session.globals.output !== 'xlsx' || !session.globals.out)) {
    throw new UsageError('--chart draws into a workbook: add --out FILE.xlsx');
  }
  const { api, developerToken, platformToken } = await reportClient(session);
  (await session.messages()).warn(
    'the engaged-courses report is deprecated by the platform and may stop working without notice',
  );
  const rows = engagedCourses(api, { ...query, developerToken, platformToken });
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
