import type { Api } from '../../api/client.js';
import { courseAccesses, getCourse, listCollection } from '../../api/endpoints/catalog.js';
import type { Course, CourseAccess } from '../../api/endpoints/schemas.js';
import { printable } from '../../output/cell.js';
import type { JsonRecord, View } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import {
  FOLLOW_PER_PAGE, LIST_CONCURRENCY, listOptions, printPagedList, type ListFlags,
} from '../../session/list-flags.js';
import { printList, withOutput } from '../../session/run-kit.js';
import { batched, batchesOf } from '../../lib/batches.js';
import { UsageError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import { byCompletion, neverOpened, openedBy, type CompletionFilter } from '../../domain/course-audience.js';
import { byIdOrName, resolveCourse, resolveProduct } from '../../domain/names.js';

interface ModuleLike {
  id?: unknown;
  title?: unknown;
  lessons?: unknown;
}

const modulesOf = (record: JsonRecord): ModuleLike[] =>
  (Array.isArray(record.modules) ? record.modules : []).filter((m): m is ModuleLike => typeof m === 'object' && m !== null);

const lessonsOf = (module: ModuleLike): JsonRecord[] =>
  (Array.isArray(module.lessons) ? module.lessons : []).filter((l): l is JsonRecord => typeof l === 'object' && l !== null);

const lessonCount = (record: JsonRecord) => modulesOf(record).reduce((sum, module) => sum + lessonsOf(module).length, 0);

export const COURSE_LIST_VIEW: View = {
  noun: 'courses',
  columns: [
    { header: 'ID', path: 'id' },
    { header: 'Title', path: 'title' },
    { header: 'Status', path: 'status' },
    { header: 'Published', path: 'published', format: 'bool01' },
    { header: 'Modules', path: 'modules', format: (_value, record) => String(modulesOf(record).length) },
    // Not a field of the API: counted from the modules (with --fields in json or csv it is null).
    { header: 'Lessons', path: 'lessons', format: (_value, record) => String(lessonCount(record)) },
  ],
};

/** Text from the API, on one line, without terminal escapes. */
const text = (value: unknown): string =>
  printable(value === null || value === undefined ? '' : String(value)).replace(/\s*[\r\n]+\s*/g, ' ');

const flagText = (value: unknown): string =>
  value === 1 || value === '1' || value === true ? 'yes' : value === 0 || value === '0' || value === false ? 'no' : text(value);

/** `Title  (id)` with the unpublished or blocked state when there is one. */
function label(node: JsonRecord | ModuleLike): string {
  const record = node as JsonRecord;
  const marks = [
    flagText(record.published) === 'no' ? 'unpublished' : '',
    flagText(record.blocked) === 'yes' ? 'blocked' : '',
  ].filter(Boolean);
  return `${text(record.title) || '(untitled)'}  (${text(record.id)})${marks.length > 0 ? ` [${marks.join(', ')}]` : ''}`;
}

/**
 * The course, then its modules and lessons as a tree:
 *
 *     Yoga for beginners  (c1)
 *     status: published · published: yes · blocked: no · 2 modules, 3 lessons
 *     ├── Breathing  (m1)
 *     │   ├── Welcome  (l1)
 *     │   └── Posture  (l2)
 *     └── Flow  (m2)
 *         └── Sun salutation  (l3)
 */
export function courseTree(course: JsonRecord): string {
  const modules = modulesOf(course);
  const lines = [
    `${text(course.title) || '(untitled)'}  (${text(course.id)})`,
    [
      course.status === undefined || course.status === null ? '' : `status: ${text(course.status)}`,
      `published: ${flagText(course.published)}`,
      `blocked: ${flagText(course.blocked)}`,
      `${plural(modules.length, 'module')}, ${plural(lessonCount(course), 'lesson')}`,
    ].filter(Boolean).join(' · '),
  ];
  if (typeof course.description === 'string' && course.description.trim() !== '') lines.push(text(course.description));
  modules.forEach((module, m) => {
    const lastModule = m === modules.length - 1;
    lines.push(`${lastModule ? '└── ' : '├── '}${label(module)}`);
    const lessons = lessonsOf(module);
    lessons.forEach((lesson, l) => {
      lines.push(`${lastModule ? '    ' : '│   '}${l === lessons.length - 1 ? '└── ' : '├── '}${label(lesson)}`);
    });
  });
  return lines.join('\n');
}

const COURSE_VIEW: View = { ...COURSE_LIST_VIEW, renderTable: courseTree };

export const COURSE_ACCESS_VIEW: View = {
  noun: 'course accesses',
  columns: [
    { header: 'Name', path: 'name' },
    { header: 'E-mail', path: 'email' },
    { header: 'Last access', path: 'course.last_access_at', format: 'datetime' },
    { header: 'Finished', path: 'course.finished', format: 'bool01' },
    { header: 'Finished at', path: 'course.finished_at', format: 'datetime' },
  ],
};

export async function listCourses(session: Session, flags: ListFlags): Promise<void> {
  const walk = listOptions(flags);
  const api = await session.api();
  await printPagedList(session, COURSE_LIST_VIEW, walk, (options) => listCollection(api, 'courses', options) as AsyncIterable<JsonRecord>,
    (courses) => api.onCatalog?.('courses', courses as unknown as Course[]));
}

export async function getCourseCommand(session: Session, id: string): Promise<void> {
  const api = await session.api();
  await withOutput(session, async (output) => output.one(await byIdOrName(id, (courseId) => getCourse(api, courseId), () => resolveCourse(api, id), 'course'), COURSE_VIEW));
}

export interface AccessFlags {
  finished?: boolean;
  notFinished?: boolean;
  never?: boolean;
  product?: string;
}

/** The holders of a product who never opened the course: who they are, and since when they hold it. */
export const NEVER_OPENED_VIEW: View = {
  noun: 'holders who never opened the course',
  columns: [
    { header: 'Name', path: 'name' },
    { header: 'E-mail', path: 'email' },
    { header: 'Student ID', path: 'id', dropLate: true },
    { header: 'Status', path: 'status' },
    { header: 'Accession', path: 'accession_date', format: 'date' },
    { header: 'Expiration', path: 'expiration_date', format: 'date' },
  ],
};

/** Validates the flags before any request (exit 2): one of --finished, --not-finished, --never; --product goes with --never. */
export function accessFilter(flags: AccessFlags): { completion?: CompletionFilter; never?: string } {
  const chosen = [flags.finished && '--finished', flags.notFinished && '--not-finished', flags.never && '--never'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} cannot be combined: choose one`);
  if (flags.never) {
    const product = flags.product?.trim();
    if (!product) throw new UsageError('--never needs --product PRODUCT: the holders of that product who never opened the course');
    return { never: product };
  }
  if (flags.product !== undefined) throw new UsageError('--product goes with --never: `members courses accesses COURSE --never --product PRODUCT`');
  if (flags.finished) return { completion: 'finished' };
  return flags.notFinished ? { completion: 'not-finished' } : {};
}

export async function courseAccessesCommand(session: Session, id: string, flags: AccessFlags = {}): Promise<void> {
  const filter = accessFilter(flags);
  const api = await session.api();
  const accesses = () => byIdOrName(id, (courseId) => courseAccesses(api, courseId), () => resolveCourse(api, id), 'course');
  if (filter.never !== undefined) {
    await printList(session, NEVER_OPENED_VIEW, holdersWhoNeverOpened(api, accesses, filter.never) as AsyncIterable<JsonRecord>);
    return;
  }
  const { completion } = filter;
  await printList(session, COURSE_ACCESS_VIEW, (async function* () {
    const entries = await accesses();
    yield* (completion ? byCompletion(entries, completion) : entries) as JsonRecord[];
  })());
}

/**
 * The course's accesses (one request), then the product's holders from the
 * subscriptions list, page by page: the API lists no holders of one product.
 * Lazy, so that it runs once the output is open (a bad --out fails first).
 */
function holdersWhoNeverOpened(api: Api, accesses: () => Promise<CourseAccess[]>, product: string) {
  return batched(async function* () {
    // Both names are checked before the walk: an unknown product is exit 2, an unknown course exit 4.
    const productId = (await resolveProduct(api, product, { argument: '--product', check: true })).id;
    const opened = openedBy(await accesses());
    const walk = { all: true, perPage: FOLLOW_PER_PAGE, concurrency: LIST_CONCURRENCY, maxConcurrency: LIST_CONCURRENCY };
    for await (const page of batchesOf(listCollection(api, 'subscriptions', walk))) yield neverOpened(page, productId, opened);
  });
}
