/** How courses look in `table` mode: lists, one course as a tree, who accessed one, a student's progress. */
import { printable } from '../../../output/cell.js';
import type { JsonRecord, View } from '../../../output/view.js';
import { plural } from '../../../lib/values.js';

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

/** `courses get`: the course and its tree in `table` mode. */
export const COURSE_VIEW: View = { ...COURSE_LIST_VIEW, renderTable: courseTree };

/**
 * Who accessed a course. On a narrow terminal FINISHED goes first (FINISHED AT says it), then LAST ACCESS,
 * before the name is cut short.
 */
export const COURSE_ACCESS_VIEW: View = {
  noun: 'course accesses',
  columns: [
    { header: 'Name', path: 'name' },
    { header: 'E-mail', path: 'email' },
    { header: 'Last access', path: 'course.last_access_at', format: 'datetime', dropLate: true },
    { header: 'Finished', path: 'course.finished', format: 'bool01', kind: 'low' },
    { header: 'Finished at', path: 'course.finished_at', format: 'datetime' },
  ],
};

/** `students show`: progress in each course the student has accessed. */
export const COURSE_PROGRESS_VIEW: View = {
  noun: 'courses',
  columns: [
    { header: 'course', path: 'course' },
    { header: 'last access', path: 'last_access_at', format: 'datetime' },
    { header: 'finished', path: 'finished_at', format: 'datetime' },
  ],
};

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
