import { courseAccesses, getCourse, listCollection } from '../../api/endpoints/catalog.js';
import type { Course } from '../../api/endpoints/schemas.js';
import { printable } from '../../output/cell.js';
import type { JsonRecord, View } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import { listOptions, printList, printPagedList, withOutput, type ListFlags } from '../../session/list-flags.js';
import { plural } from '../../lib/values.js';
import { byIdOrName, resolveCourse } from '../../domain/names.js';

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

export async function courseAccessesCommand(session: Session, id: string): Promise<void> {
  const api = await session.api();
  await printList(session, COURSE_ACCESS_VIEW, (async function* () {
    yield* (await byIdOrName(id, (courseId) => courseAccesses(api, courseId), () => resolveCourse(api, id), 'course')) as JsonRecord[];
  })());
}
