/**
 * The tools that read (issue 39, point 1): each the work of a command, through
 * the same domain functions, answering with data (answer.ts shapes it).
 */
import * as z from 'zod';
import { courseAccesses, listCollection } from '../../../api/endpoints/catalog.js';
import type { Student } from '../../../api/endpoints/schemas.js';
import { parseStudentKey } from '../../../api/endpoints/student-key.js';
import { findStudent } from '../../../api/endpoints/students.js';
import { SUBSCRIPTION_STATUSES } from '../../../api/endpoints/vocabulary.js';
import { byCompletion, holdersWhoNeverOpened } from '../../../domain/course-audience.js';
import { byIdOrName, resolveCourse } from '../../../domain/names.js';
import { lookUpStudent } from '../../../domain/resolve.js';
import { searchStudents } from '../../../domain/search.js';
import { studentOverview } from '../../../domain/student-view.js';
import { filteredSubscriptions, parseFilters } from '../../../domain/subscription-filter.js';
import { UsageError } from '../../../lib/errors.js';
import { parseDate } from '../../../lib/values.js';
import type { Batched } from '../../../lib/batches.js';
import { recentChanges } from '../../shared/recent-changes.js';
import { reportClient } from '../../shared/report-client.js';
import { engagedCourses } from '../../../api/endpoints/report.js';
import { historyRecord } from '../../shared/views/history.js';
import { capped, counted, DATA_NOTE, listed, type Rows } from '../answer.js';
import { recordSource } from '../../shared/records.js';
import { tool, type Tool } from '../tool.js';

const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

export const STUDENT_KEY = 'The student: an id, an e-mail, a CPF (with or without punctuation), a phone written as one (+55 61 93986-2924, (61) 93986-2924), doc:DOCUMENT, ref:REFERENCE or phone:PHONE. A phone reads the whole student list.';

/** Every page of a list at 100 a page, 4 at a time: what the commands' --all reads. */
const WHOLE_LIST = { all: true, perPage: 100, concurrency: 4 } as const;

/** The first `max` records of a listing, and how many it holds in all (it is read to the end: the total is the truth). */
async function firstOf<T>(records: AsyncIterable<T>, max: number): Promise<Rows<T>> {
  const kept: T[] = [];
  let total = 0;
  for await (const record of records) {
    if (total++ < max) kept.push(record);
  }
  return capped(kept, max, total);
}

/** A student as a row of a list: who, and how to reach their record. */
const studentRow = (student: Student) => ({
  id: student.id, first_name: student.first_name ?? null, last_name: student.last_name ?? null,
  email: student.email ?? null, phone: student.phone ?? null, document: student.document ?? null, reference_id: student.reference_id ?? null,
});

const findStudentTool = tool({
  name: 'find_student',
  title: 'Find a student',
  description: 'Find a student by an exact key (id, e-mail, CPF, phone, doc:…, ref:…, phone:…) with `key`, or by part of a name, e-mail, phone, document or reference with `search` '
    + '(case and accents ignored; reads the whole student list, so give a key when there is one). Give exactly one of the two. '
    + `Answers the matching students (the true total is stated). ${DATA_NOTE}`,
  input: z.object({
    key: z.string().min(1).optional().describe(STUDENT_KEY),
    search: z.string().min(2).optional().describe('Part of a name, e-mail, phone, document or reference, e.g. "joão sil" or "95591-2284".'),
  }),
  annotations: READ,
  async run({ key, search }, context) {
    if ((key === undefined) === (search === undefined)) throw new UsageError('give exactly one of key (an exact lookup) and search (a fragment)');
    const api = await context.api();
    if (key !== undefined) {
      const student = await lookUpStudent(api, parseStudentKey(key), key);
      return { summary: `1 student found by ${key}`, data: { total: 1, shown: 1, truncated: false, students: [studentRow(student)] } };
    }
    const rows = await firstOf(searchStudents(api, search as string), context.settings.maxRows);
    return { summary: `Students matching "${search}": ${counted(rows, 'students')}`, data: listed(rows, 'students', rows.items.map(studentRow)) };
  },
});

const showStudentTool = tool({
  name: 'show_student',
  title: 'Show a student',
  description: 'Everything about one student: identity, every subscription with whether access is on and why (access_why), the score, progress in each course, '
    + `and the recent changes made with members (who, when, why). Costs 3 requests and 1 per course. ${DATA_NOTE}`,
  input: z.object({ student: z.string().min(1).describe(STUDENT_KEY) }),
  annotations: READ,
  async run({ student: input }, context) {
    const api = await context.api();
    const overview = await studentOverview(api, input);
    const { maxRows } = context.settings;
    const changes = await recentChanges(context.session, api, input, overview, maxRows);
    const subscriptions = capped(overview.subscriptions, maxRows);
    const courses = capped(overview.courses, maxRows);
    const { subscriptions: _embedded, ...student } = overview.student;
    const withAccess = overview.subscriptions.filter((subscription) => subscription.access === 'yes').length;
    return {
      summary: `${[student.first_name, student.last_name].filter(Boolean).join(' ') || student.id}: ${withAccess} of ${subscriptions.total} subscriptions with access, `
        + `${courses.total} courses opened, ${changes.length} recent changes recorded`
        + `${subscriptions.truncated || courses.truncated ? `; lists cut at ${maxRows} (members mcp --max-rows)` : ''}`,
      data: {
        student,
        subscriptions: listed(subscriptions, 'items'),
        score: overview.score,
        courses: listed(courses, 'items'),
        recent_changes: changes,
      },
    };
  },
});

const listSubscriptionsTool = tool({
  name: 'list_subscriptions',
  title: 'List subscriptions',
  description: 'Subscriptions across all students, filtered as `members subscriptions list` filters them: by status, by access, by product (id or title), '
    + 'by student (any key), expiring within a duration (access ending soon) or expired. Without a filter, the newest page. '
    + `The true total is stated. ${DATA_NOTE}`,
  input: z.object({
    status: z.array(z.enum(SUBSCRIPTION_STATUSES)).min(1).optional().describe('Keep these statuses.'),
    access: z.enum(['active', 'inactive']).optional().describe('Keep subscriptions with access (active) or without (inactive).'),
    product: z.string().min(1).optional().describe('The product: its id, its title or the start of its title.'),
    student: z.string().min(1).optional().describe(STUDENT_KEY),
    expiring: z.string().optional().describe('Access that ends within this duration from today: 7d, 2w, 1mo… (not with access).'),
    expired: z.boolean().optional().describe('Expired before today.'),
  }),
  annotations: READ,
  async run(args, context) {
    const filters = parseFilters({ ...args, status: args.status?.join(',') });
    const api = await context.api();
    const { maxRows } = context.settings;
    let rows: Rows<unknown>;
    if (filters) {
      rows = await firstOf(filteredSubscriptions(api, WHOLE_LIST, filters), maxRows);
    } else {
      // One page, whose meta says how many there are.
      let total: number | undefined;
      const page = await firstOf(listCollection(api, 'subscriptions', { all: false, perPage: Math.min(maxRows, 100), concurrency: 1, onInfo: (info) => (total = info.total) }), maxRows);
      rows = capped(page.items, maxRows, total ?? page.total);
    }
    return { summary: counted(rows, 'subscriptions'), data: listed(rows, 'subscriptions') };
  },
});

const courseAccessesTool = tool({
  name: 'course_accesses',
  title: 'Course accesses',
  description: 'Who accessed a course: every student with last access and whether they finished; only those who finished, or who did not; '
    + `or (never, with a product) the holders of that product who never opened the course. ${DATA_NOTE}`,
  input: z.object({
    course: z.string().min(1).describe('The course: its id, slug, title or the start of its title.'),
    filter: z.enum(['finished', 'not-finished', 'never']).optional().describe('finished, not-finished, or never (needs product).'),
    product: z.string().min(1).optional().describe('With filter never: the product whose holders are checked.'),
  }),
  annotations: READ,
  async run({ course, filter, product }, context) {
    if ((filter === 'never') !== (product !== undefined)) throw new UsageError('product goes with filter "never", and filter "never" needs a product');
    const api = await context.api();
    const accesses = () => byIdOrName(course, (id) => courseAccesses(api, id), () => resolveCourse(api, course), 'course');
    const { maxRows } = context.settings;
    if (filter === 'never') {
      const rows = await firstOf(holdersWhoNeverOpened(api, accesses, product as string, WHOLE_LIST), maxRows);
      return { summary: `Holders of "${product}" who never opened "${course}": ${counted(rows, 'students')}`, data: listed(rows, 'students') };
    }
    const entries = await accesses();
    const rows = capped(filter ? byCompletion(entries, filter) : entries, maxRows);
    return { summary: `Accesses to "${course}"${filter ? ` (${filter})` : ''}: ${counted(rows, 'accesses')}`, data: listed(rows, 'accesses') };
  },
});

function catalogTool(name: 'list_products' | 'list_courses', collection: 'products' | 'courses'): Tool {
  return tool({
    name,
    title: collection === 'products' ? 'List products' : 'List courses',
    description: `Every ${collection === 'products' ? 'product (what a student is granted)' : 'course (what a product gives access to)'}, with its id and title. ${DATA_NOTE}`,
    input: z.object({}),
    annotations: READ,
    async run(_args, context) {
      const api = await context.api();
      const rows = await firstOf(listCollection(api, collection, WHOLE_LIST) as Batched<Record<string, unknown>>, context.settings.maxRows);
      return { summary: counted(rows, collection), data: listed(rows, collection) };
    },
  });
}

const historyTool = tool({
  name: 'history',
  title: 'Change history',
  description: 'The changes made with members from this machine (the local audit log), newest first: who, when, what, the reason, and whether an assistant made it (via mcp, client). '
    + `Optionally about one student (any of its keys) or since a date. ${DATA_NOTE}`,
  input: z.object({
    student: z.string().min(1).optional().describe(STUDENT_KEY),
    since: z.string().optional().describe('Only changes on or after this date, YYYY-MM-DD.'),
  }),
  annotations: READ,
  async run({ student, since }, context) {
    const { session, settings } = context;
    const [messages, { selectHistory }] = await Promise.all([session.messages(), import('../../../audit/select.js')]);
    const day = since === undefined ? undefined : parseDate(since, 'since').split('-').map(Number) as [number, number, number];
    const known = student === undefined ? undefined : await findStudent(await context.api(), parseStudentKey(student)).catch(() => undefined);
    // The record in force: this machine's log, or the team's.
    const { source } = await recordSource(session, messages);
    const records = await selectHistory(source, { student, since: day && new Date(day[0], day[1] - 1, day[2]) }, known);
    const rows = capped(records.map((record) => historyRecord(record)), settings.maxRows);
    return { summary: counted(rows, 'changes recorded'), data: listed(rows, 'changes') };
  },
});

/** A number the report sends as text or a number; null when it is neither. */
const numeric = (value: unknown) => (value === null || value === undefined || value === '' || Number.isNaN(Number(value)) ? null : Number(value));

const average = (values: Array<number | null>) => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.round((known.reduce((sum, value) => sum + value, 0) / known.length) * 10) / 10;
};

const reportTool = tool({
  name: 'engaged_courses_summary',
  title: 'Engaged-courses report, summarised',
  description: 'The platform\'s engaged-courses report (its most engaged courses and their students) summarised by course: students listed, '
    + `average completion and engagement score. Needs the profile's report tokens; the platform deprecates this report. ${DATA_NOTE}`,
  input: z.object({
    top_courses: z.number().int().min(1).max(50).optional().describe('How many of the most engaged courses (1-50, default 10).'),
    max_pages: z.number().int().min(1).max(50).optional().describe('Pages of 500 rows read at most (default 10); the answer says when there was more.'),
  }),
  annotations: READ,
  async run({ top_courses: top = 10, max_pages: maxPages = 10 }, context) {
    const { api, developerToken, platformToken } = await reportClient(context.session);
    const byCourse = new Map<string, { course_id: string; course: string | null; product: string | null; completion: Array<number | null>; engagement: Array<number | null> }>();
    let rows = 0;
    for await (const item of engagedCourses(api, { developerToken, platformToken, topCourses: top, limit: 500, maxPages })) {
      rows++;
      const entry = byCourse.get(item.course_id) ?? { course_id: item.course_id, course: item.course_name ?? null, product: item.product_name ?? null, completion: [], engagement: [] };
      entry.completion.push(numeric(item.course_completion_percent));
      entry.engagement.push(numeric(item.course_avg_engagement_score));
      byCourse.set(item.course_id, entry);
    }
    const courses = [...byCourse.values()].map(({ completion, engagement, ...course }) => ({
      ...course, students: completion.length, average_completion_percent: average(completion), average_engagement_score: average(engagement),
    }));
    const listedCourses = capped(courses, context.settings.maxRows);
    return {
      summary: `${counted(listedCourses, 'courses')}, ${rows} student rows read (at most ${maxPages} pages of 500)`,
      data: { rows_read: rows, ...listed(listedCourses, 'courses') },
    };
  },
});

export const READ_TOOLS: readonly Tool[] = [
  findStudentTool, showStudentTool, listSubscriptionsTool, courseAccessesTool,
  catalogTool('list_products', 'products'), catalogTool('list_courses', 'courses'), historyTool, reportTool,
];
