import { randomBytes } from 'node:crypto';
import { data, jsonBody, NO_CONTENT, notFound, type Reply, type RequestContext } from '../http.js';
import { paginate } from '../pagination.js';
import type { StudentRecord } from '../types.js';
import { Validator } from '../validation.js';
import { studentView } from '../views.js';

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** Bounds of a magic link's life: one minute to one week. */
const EXPIRE_IN_MIN = 60;
const EXPIRE_IN_MAX = 604_800;

const lookups = {
  id: (ctx: RequestContext) => ctx.store.student(ctx.param('id')),
  email: (ctx: RequestContext) => ctx.store.studentByEmail(ctx.param('email')),
  document: (ctx: RequestContext) => ctx.store.studentByDocument(ctx.param('document')),
  reference: (ctx: RequestContext) => ctx.store.studentByReference(ctx.param('reference_id')),
};
export type StudentKey = keyof typeof lookups;

/** The student named by the route's parameter, or 404. */
export function requireStudent(ctx: RequestContext, key: StudentKey = 'id'): StudentRecord {
  const student = lookups[key](ctx);
  if (!student) throw notFound('Student not found.', 'StudentNotFoundException');
  return student;
}

export function listStudents(ctx: RequestContext): Reply {
  const withSubscriptions = (ctx.query.get('with') ?? '').split(',').includes('subscriptions');
  return paginate(ctx, ctx.store.students, (student) => studentView(ctx.store, student, withSubscriptions));
}

export function getStudentBy(key: StudentKey): (ctx: RequestContext) => Reply {
  return (ctx) => data(studentView(ctx.store, requireStudent(ctx, key), true));
}

export function createStudent(ctx: RequestContext): Reply {
  const store = ctx.store;
  const validator = new Validator(jsonBody(ctx));
  const firstName = validator.string('first_name', true);
  const lastName = validator.string('last_name', true);
  const email = validator.string('email', true);
  if (!validator.failed('email')) {
    if (!EMAIL.test(email)) validator.fail('email', 'The email field must be a valid email address.');
    else if (store.studentByEmail(email)) validator.fail('email', 'The email has already been taken.');
  }
  const phone = validator.string('phone', false);
  const birth = validator.date('birth', false);
  const document = validator.string('document', false);
  if (document !== null && store.studentByDocument(document)) validator.fail('document', 'The document has already been taken.');
  const reference = validator.string('reference_id', false);
  if (reference !== null && store.studentByReference(reference)) validator.fail('reference_id', 'The reference id has already been taken.');
  validator.check();
  const student = store.createStudent({ first_name: firstName, last_name: lastName, email, phone, birth, document, reference_id: reference });
  return data(studentView(store, student, true), 201);
}

export function deleteStudent(ctx: RequestContext): Reply {
  ctx.store.deleteStudent(requireStudent(ctx).id);
  return NO_CONTENT;
}

/** 200 rather than 201: a link is handed out, no resource is created. */
export function magicLinkBy(key: StudentKey): (ctx: RequestContext) => Reply {
  return (ctx) => {
    requireStudent(ctx, key);
    const validator = new Validator(jsonBody(ctx));
    const expireIn = validator.integer('expire_in', true, EXPIRE_IN_MIN, EXPIRE_IN_MAX);
    validator.check();
    return data({ expire_in: expireIn, url: `${ctx.origin}/magic/${randomBytes(24).toString('base64url')}` });
  };
}

export function getScores(ctx: RequestContext): Reply {
  const { score, posts, comments, replies } = requireStudent(ctx);
  return data({ score, posts, comments, replies });
}

export function putScores(ctx: RequestContext): Reply {
  const student = requireStudent(ctx);
  const validator = new Validator(jsonBody(ctx));
  const score = validator.integer('score', true, 0, Number.MAX_SAFE_INTEGER);
  validator.check();
  ctx.store.setScore(student, score);
  return { ...getScores(ctx), status: ctx.dialect.scoresStatus };
}
