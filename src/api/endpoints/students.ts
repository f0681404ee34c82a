/** The student endpoints of api-spec §4.1, one typed function each. */
import * as z from 'zod';
import type { Api } from '../client.js';
import { apiPath } from './path.js';
import type { PageWalk } from '../pagination/paginate.js';
import { walkList } from '../pagination/pages.js';
import { Student, Subscription, Score, MagicLink, one } from './schemas.js';
import { cpfSpelling, describeKey, notFoundHint, type CpfSpelling, type StudentKey } from './student-key.js';
import { ExitCode, NotFoundError, RouteMissError } from '../../lib/errors.js';
import { scanForStudent } from '../pagination/student-scan.js';
import { PhoneBook } from '../pagination/phone-scan.js';
import { nameAndEmail } from '../../lib/people.js';
import { plural } from '../../lib/values.js';

/** The keys the API looks up by path (a phone is found in the student list). */
type PathKey = Exclude<StudentKey, { kind: 'phone' }>;

const lookupPath: Record<PathKey['kind'], (value: string) => string> = {
  id: (v) => apiPath`/api/v1/students/${v}`,
  email: (v) => apiPath`/api/v1/students/email/${v}`,
  document: (v) => apiPath`/api/v1/students/document/${v}`,
  reference: (v) => apiPath`/api/v1/students/reference/${v}`,
};

export function listStudents(api: Api, options: { withSubscriptions?: boolean; perPage?: number } & PageWalk) {
  const query = { with: options.withSubscriptions ? 'subscriptions' : undefined, per_page: options.perPage };
  return walkList(api, Student, '/api/v1/students', query, options);
}

export interface LookupOptions {
  /** How the server writes CPFs, when known: a CPF typed the other way is tried in that spelling first. */
  spelling?: CpfSpelling;
  /** The run's phone book (read once per run); without one, a phone reads the student list. */
  phones?: PhoneBook;
}

/**
 * The student with its subscriptions. A CPF is tried as typed, then in its
 * other spelling (servers store either) — in the server's spelling first when
 * it is known (`spelling`: a bulk run learns it from the student list's
 * first page, and saves a lookup per CPF typed the other way) — then, typed
 * as bare digits, as an id, then (digits that may be a phone) as a phone.
 * When the server has no route for the lookup (a `/` in the value, on
 * Laravel), the student list is read once to find the id, which is then
 * looked up: "not found" only when the list has no such student.
 */
export async function getStudent(api: Api, key: StudentKey, options: LookupOptions = {}): Promise<Student> {
  const notFound = describeKey(key);
  const lookup = async (by: StudentKey) => {
    if (by.kind === 'phone') return byPhone(api, by.value, options.phones);
    return (await api.call(one(Student), { method: 'GET', path: lookupPath[by.kind](by.value), notFound })).data.data;
  };
  const tries: StudentKey[] = [key];
  if (key.kind === 'document' && key.also) {
    const other: StudentKey = { kind: 'document', value: key.also };
    if (options.spelling !== undefined && cpfSpelling(key.also) === options.spelling) tries.unshift(other);
    else tries.push(other);
  }
  if (key.kind === 'document' && key.orId) tries.push({ kind: 'id', value: key.value });
  // The dearest try last: a phone reads the student list.
  if ((key.kind === 'document' || key.kind === 'id') && key.orPhone) tries.push({ kind: 'phone', value: key.value });
  // Every try but the last: "not found" moves on to the next.
  const last = tries.pop() as StudentKey;
  for (const by of tries) {
    const found = await lookup(by).catch((error: unknown) => {
      if (error instanceof NotFoundError && !(error instanceof RouteMissError)) return undefined;
      throw error;
    });
    if (found) return found;
  }
  try {
    return await lookup(last);
  } catch (error) {
    if (error instanceof NotFoundError && !(error instanceof RouteMissError)) {
      // The phone's own message when it was the only try; else the key's, every try named.
      if (last.kind === 'phone' && last !== key) error.message = `${notFound} not found (the whole student list was read for the phone)`;
      error.message += notFoundHint(key);
    }
    if (!(error instanceof RouteMissError) || last.kind === 'id' || last.kind === 'phone') throw error;
    const id = await scanForStudent(api, last);
    if (id === undefined) {
      throw new NotFoundError(`${describeKey(last)} not found (the whole student list was read)`, ExitCode.notFound, error.request, 404);
    }
    return lookup({ kind: 'id', value: id });
  }
}

/**
 * The student with that phone, looked up again by id (the list's record has
 * no subscriptions); `--verbose` says what finding it took.
 */
async function byPhone(api: Api, typed: string, phones = new PhoneBook(api)): Promise<Student> {
  const found = await phones.find(typed);
  const student = (await api.call(one(Student), { method: 'GET', path: lookupPath.id(found.student.id), notFound: `student ${found.student.id}` })).data.data;
  const read = found.pages === 0 ? 'the student list already read' : `${plural(found.pages, 'page')} of the student list, as students search reads it`;
  api.verbose(`${typed}: the phone of ${nameAndEmail(student) || `student ${student.id}`}, found in ${plural(found.pages + 1, 'request')} (${read}, then the student by id)`);
  return student;
}

/** The student, or `undefined` when there is none (a 404): for checks before a change. */
export function findStudent(api: Api, key: StudentKey): Promise<Student | undefined> {
  return findOrUndefined(getStudent(api, key));
}

/** `undefined` when absent: for the checks that make a retried POST safe. */
async function findOrUndefined<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

export type NewStudent = {
  first_name: string; last_name: string; email: string;
  phone?: string; birth?: string; document?: string; reference_id?: string;
};

export function createStudent(api: Api, body: NewStudent) {
  return postOnce(
    (alreadyApplied) => api.call(one(Student), { method: 'POST', path: '/api/v1/students', body, alreadyApplied }),
    () => findStudent(api, { kind: 'email', value: body.email }),
  );
}

export function deleteStudent(api: Api, id: string) {
  return api.send({ method: 'DELETE', path: apiPath`/api/v1/students/${id}`, notFound: `student ${id}` });
}

export async function studentProducts(api: Api, id: string): Promise<Subscription[]> {
  const { data } = await api.call(one(z.array(Subscription)), {
    method: 'GET', path: apiPath`/api/v1/students/${id}/products`, notFound: `student ${id}`,
  });
  return data.data;
}

export async function studentProduct(api: Api, id: string, productId: string): Promise<Subscription | undefined> {
  return findOrUndefined(api.call(one(Subscription), {
    method: 'GET', path: apiPath`/api/v1/students/${id}/products/${productId}`,
  }).then((r) => r.data.data));
}

export type Grant = { product_id: string; accession_date: string; expiration_date?: string };

export function grantProduct(api: Api, id: string, body: Grant) {
  return postOnce(
    (alreadyApplied) => api.call(one(Subscription), {
      method: 'POST', path: apiPath`/api/v1/students/${id}/products`, body, notFound: `student ${id}`, alreadyApplied,
    }),
    () => studentProduct(api, id, body.product_id),
  );
}

export function revokeProduct(api: Api, id: string, productId: string) {
  return api.send({
    method: 'DELETE', path: apiPath`/api/v1/students/${id}/products/${productId}`,
    notFound: `product ${productId} of student ${id}`,
  });
}

export async function getScores(api: Api, id: string): Promise<Score> {
  const { data } = await api.call(one(Score), { method: 'GET', path: apiPath`/api/v1/students/${id}/scores`, notFound: `student ${id}` });
  return data.data;
}

export function setScore(api: Api, id: string, score: number) {
  return api.call(one(Score), { method: 'PUT', path: apiPath`/api/v1/students/${id}/scores`, body: { score }, notFound: `student ${id}` });
}

/** By e-mail the API has its own endpoint; every other key needs the id. */
export function magicLink(api: Api, key: { kind: 'email' | 'id'; value: string }, expireIn: number) {
  const path = key.kind === 'email'
    ? apiPath`/api/v1/students/email/${key.value}/magic-link`
    : apiPath`/api/v1/students/${key.value}/magic-link`;
  return api.call(one(MagicLink), { method: 'POST', path, body: { expire_in: expireIn }, notFound: describeKey(key) });
}

/**
 * A POST is never resent blindly (contract §7.1): the transport's one retry
 * layer resends it after a failure whose outcome is unknown only when
 * `lookForEffect` finds nothing; when it finds the effect, that is the result.
 */
async function postOnce<T>(
  post: (alreadyApplied: () => Promise<boolean>) => Promise<{ data: { data: T }; requestId?: string }>,
  lookForEffect: () => Promise<T | undefined>,
): Promise<{ data: T; requestId?: string; recovered?: boolean }> {
  let found: T | undefined;
  try {
    const { data, requestId } = await post(async () => (found = await lookForEffect()) !== undefined);
    return { data: data.data, requestId };
  } catch (error) {
    if (found !== undefined) return { data: found, recovered: true };
    throw error;
  }
}
