import { data, notFound, type Reply, type RequestContext } from '../http.js';
import { paginate } from '../pagination.js';
import type { CourseRecord } from '../types.js';
import { accessView } from '../views.js';

export function listCourses(ctx: RequestContext): Reply {
  return paginate(ctx, ctx.store.courses, (course) => course);
}

export function getCourse(ctx: RequestContext): Reply {
  return data(requireCourse(ctx));
}

/** Every student with progress in the course, whether or not their access is still released. */
export function listCourseAccesses(ctx: RequestContext): Reply {
  const course = requireCourse(ctx);
  const entries: unknown[] = [];
  for (const progress of ctx.store.progressOf(course.id).values()) {
    const entry = accessView(ctx.store, course, progress);
    if (entry) entries.push(entry);
  }
  return data(entries);
}

function requireCourse(ctx: RequestContext): CourseRecord {
  const course = ctx.store.course(ctx.param('id'));
  if (!course) throw notFound('Course not found.', 'CourseNotFoundException');
  return course;
}
