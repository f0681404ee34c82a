import { courseAccesses, getCourse } from '../../api/endpoints/catalog.js';
import type { JsonRecord } from '../../output/index.js';
import { COURSE_ACCESS_VIEW, COURSE_LIST_VIEW, COURSE_VIEW, NEVER_OPENED_VIEW } from '../shared/views/courses.js';
import type { Session } from '../../session/session.js';
import {
  FOLLOW_PER_PAGE, LIST_CONCURRENCY, type ListFlags,
} from '../shared/list-flags.js';
import { printList } from '../../session/run-kit.js';
import { getCatalogItem, listCatalog, type Catalog } from '../shared/catalog/commands.js';
import { UsageError } from '../../lib/errors.js';
import { byCompletion, holdersWhoNeverOpened, type CompletionFilter } from '../../domain/course-audience.js';
import { byIdOrName, collectsNames, listedCourse, resolveCourse } from '../../domain/names.js';

const COURSES: Catalog = {
  collection: 'courses', noun: 'course', listView: COURSE_LIST_VIEW, view: COURSE_VIEW,
  get: getCourse,
  resolve: resolveCourse,
};

export const list = (session: Session, flags: ListFlags) => listCatalog(session, COURSES, flags);

export const get = (session: Session, input: string) => getCatalogItem(session, COURSES, input);

export interface AccessFlags {
  finished?: boolean;
  notFinished?: boolean;
  never?: boolean;
  product?: string;
}

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

/** The subscriptions list, every page, as many at once as a list reads. */
const NEVER_WALK = { all: true, perPage: FOLLOW_PER_PAGE, concurrency: LIST_CONCURRENCY, maxConcurrency: LIST_CONCURRENCY };

export async function accesses(session: Session, id: string, flags: AccessFlags = {}): Promise<void> {
  const filter = accessFilter(flags);
  const api = await session.api();
  // Checked before a run (members each), COURSE is a name to resolve first like any other (the list holds ids and
  // titles); in the run, that list read names it without a request. Alone, the command tries it as an id first.
  const accesses = async () => {
    const named = collectsNames(api) ? await resolveCourse(api, id) : await listedCourse(api, id);
    if (named) return courseAccesses(api, named.id);
    return byIdOrName(id, (courseId) => courseAccesses(api, courseId), () => resolveCourse(api, id), 'course');
  };
  if (filter.never !== undefined) {
    await printList(session, NEVER_OPENED_VIEW, holdersWhoNeverOpened(api, accesses, filter.never, NEVER_WALK) as AsyncIterable<JsonRecord>);
    return;
  }
  const { completion } = filter;
  await printList(session, COURSE_ACCESS_VIEW, (async function* () {
    const entries = await accesses();
    yield* (completion ? byCompletion(entries, completion) : entries) as JsonRecord[];
  })());
}
