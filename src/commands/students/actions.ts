/** `members students …`: the work behind each verb. Flags and help live in index.ts. */
import { Student, Subscription } from '../../api/endpoints/schemas.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import { parseStudentKey } from '../../api/endpoints/student-key.js';
import {
  createStudent, listStudents, studentProducts, type NewStudent,
} from '../../api/endpoints/students.js';
import { NotFoundError, UsageError } from '../../lib/errors.js';
import type { Session } from '../../session/session.js';
import { EMAIL_PATTERN, parseDate, plural } from '../../lib/values.js';
import { listOptions, printPagedList, type ListFlags } from '../shared/list-flags.js';
import { interruptible, withOutput } from '../../session/run-kit.js';
import { checkProductId, grantDates, grantToStudent, revokeFromStudent, type ChangeOutcome } from '../../domain/changes.js';
import { resolveStudent, studentLabel } from '../../domain/resolve.js';
import { sendChange } from '../../domain/send-change.js';
import { resolveProduct } from '../../domain/names.js';
import { fieldsToShow, matchedFields, searchStudents } from '../../domain/search.js';
import type { JsonRecord, View } from '../../output/index.js';
import type { Listing } from '../../lib/batches.js';
import { STUDENT_LIST_VIEW, STUDENT_LIST_WITH_PRODUCTS_VIEW, STUDENT_VIEW, studentSearchView } from '../shared/views/students.js';
import { SUBSCRIPTION_STATE_VIEW, SUBSCRIPTION_VIEW } from '../shared/views/subscriptions.js';
import { SCORE_VIEW } from '../shared/views/scores.js';
import { COURSE_PROGRESS_VIEW } from '../shared/views/courses.js';
import { HISTORY_VIEW } from '../shared/views/history.js';
import { recentChanges } from '../shared/recent-changes.js';
import { studentOverview, type StudentOverview } from '../../domain/student-view.js';

/** The change record is loaded by the commands that change something: a read does not pay for it (node:crypto, ~6 ms). */
const loadAudit = () => import('../../audit/index.js');

export interface ListOptions extends ListFlags {
  withSubscriptions?: boolean;
}

export async function list(session: Session, opts: ListOptions): Promise<void> {
  const walk = listOptions(opts);
  const api = await session.api();
  const view = opts.withSubscriptions ? STUDENT_LIST_WITH_PRODUCTS_VIEW : STUDENT_LIST_VIEW;
  await printPagedList(session, view, walk, (options) => listStudents(api, { ...options, withSubscriptions: opts.withSubscriptions }));
}

/**
 * Streams the matches as the pages arrive (a table waits for the end, and
 * then keeps the columns the query matched, and the phone when two students
 * share a name, however narrow the terminal); says
 * on stderr how much of the list it read, since that is what the search costs.
 */
export async function search(session: Session, text: string): Promise<void> {
  const where = matchedFields(text);
  const api = await session.api();
  const messages = await session.messages();
  const count = (n: number) => n.toLocaleString('en-US');
  const { globals } = session;
  let read = 0;
  const found = await withOutput(session, async (output) => {
    const spinner = await messages.spinner('Searching the student list…');
    const progress = (sofar: number, total: number | undefined, matched: number) => {
      read = sofar;
      spinner.update(`Searching the student list: ${count(sofar)}${total === undefined ? '' : ` of ${count(total)}`} students, ${plural(matched, 'match', 'matches')} so far…`);
    };
    let matches: Listing<Student> = interruptible(searchStudents(api, text, progress), session.io);
    let view = STUDENT_LIST_VIEW;
    try {
      if (globals.output === 'table' && !globals.fields) {
        // A table holds its rows anyway: hold them here, to choose the columns.
        const all: Student[] = [];
        for await (const student of matches) all.push(student);
        view = studentSearchView(fieldsToShow(all, where));
        matches = all;
      }
    } finally {
      spinner.stop();
    }
    return output.list(matches as Listing<JsonRecord>, view);
  });
  messages.notice(`${plural(found, 'match', 'matches')} for ${JSON.stringify(text)} among ${count(read)} students (${plural(Math.max(1, Math.ceil(read / 100)), 'page')} of 100 read)`);
}

const SCHOOL_STUDENT_VIEW: View = { ...STUDENT_VIEW, columns: [{ header: 'School', path: 'school' }, ...STUDENT_VIEW.columns] };

/** One view of a student: in a table, its sections one after the other; otherwise one record holding them all. */
export async function show(session: Session, input: string): Promise<void> {
  parseStudentKey(input);
  const api = await session.api();
  const messages = await session.messages();
  const spinner = await messages.spinner('Gathering the student, subscriptions, score and courses…');
  let overview: StudentOverview;
  try {
    overview = await studentOverview(api, input, { lookups: session.lookups });
  } finally {
    spinner.stop();
  }
  const { student, subscriptions, score, courses } = overview;
  const history = await recentChanges(session, api, input, overview);
  const team = (await session.changeRecord()).home !== 'local';
  const { globals } = session;
  const empty: string[] = [];
  await withOutput(session, async (output) => {
    if (globals.output === 'table' && !globals.fields) {
      // An empty section is said on stderr after the card, not above it: stdout may still be on its way.
      const section = async (records: readonly JsonRecord[], view: View, none: string) => {
        if (records.length > 0) await output.list(records, view);
        else empty.push(none);
      };
      // With several schools stored, the card says which one it was read from (issue 38).
      const school = await session.severalProfilesStored() ? await session.school() : undefined;
      await output.one(school ? { school, ...student } : student, school ? SCHOOL_STUDENT_VIEW : STUDENT_VIEW);
      await section(subscriptions, SUBSCRIPTION_STATE_VIEW, 'No subscriptions');
      if (score) await output.one(score, SCORE_VIEW);
      await section(courses as unknown as JsonRecord[], COURSE_PROGRESS_VIEW, 'No course accessed');
      await section(history, HISTORY_VIEW, team ? 'No change to this student in the team record (members history)' : 'No change to this student made from this machine (members history)');
      return;
    }
    await output.one({ ...student, subscriptions, score, courses, history } as JsonRecord, STUDENT_VIEW);
  });
  for (const text of empty) messages.notice(text);
}

export async function get(session: Session, input: string): Promise<void> {
  parseStudentKey(input);
  const { globals } = session;
  await withOutput(session, async (output) => {
    // Through the run's lookups when a row of `members each`: a student on several rows (a phone: the whole list) is read once.
    const { record } = await resolveStudent(await session.api(), input, { fetch: true, cache: session.lookups });
    const student = record as Student;
    await output.one(student, STUDENT_VIEW);
    // Below the student, its subscriptions; json and the others give the record as the API sent it.
    if (globals.output === 'table' && !globals.fields && student.subscriptions) {
      await output.list(student.subscriptions, SUBSCRIPTION_VIEW);
    }
  });
}

export interface CreateOptions {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  birth?: string;
  document?: string;
  referenceId?: string;
  reason?: string;
}

/** Every field is checked before anything is sent (exit 2). */
export function newStudent(opts: CreateOptions): NewStudent {
  const required = (value: string, flag: string) => {
    const text = value.trim();
    if (text === '') throw new UsageError(`${flag} cannot be empty`);
    return text;
  };
  const body: NewStudent = {
    first_name: required(opts.firstName, '--first-name'),
    last_name: required(opts.lastName, '--last-name'),
    email: required(opts.email, '--email'),
  };
  if (!EMAIL_PATTERN.test(body.email)) {
    throw new UsageError(`invalid --email ${JSON.stringify(opts.email)}: expected an address such as maria@example.com`);
  }
  if (opts.phone !== undefined) body.phone = opts.phone;
  if (opts.birth !== undefined) body.birth = parseDate(opts.birth, '--birth');
  if (opts.document !== undefined) body.document = opts.document;
  if (opts.referenceId !== undefined) body.reference_id = opts.referenceId;
  return body;
}

export async function create(session: Session, opts: CreateOptions): Promise<void> {
  const body = newStudent(opts);
  assertFieldsBeforeChange(session.globals.fields, Object.keys(Student.shape), STUDENT_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    await session.announceChange();
    const { openJournal, recorded } = await loadAudit();
    const journal = await openJournal(session, { command: 'students create', reason: opts.reason });
    const { data, recovered } = await recorded(
      await journal.begin({ action: 'create', result: 'created', student: body.email }),
      () => createStudent(api, body),
      ({ data: created, requestId: id }) => ({ student_id: created.id, request_id: id }),
    );
    await output.one(data, STUDENT_VIEW);
    const label = labelOf(data);
    const message = recovered ? `created student ${label} (found after an interrupted request)` : `created student ${label}`;
    (await session.messages()).notice(`✓ ${capitalize(message)}`);
  }));
}

export async function remove(session: Session, input: string, opts: { reason?: string; forget?: boolean }): Promise<void> {
  parseStudentKey(input);
  // Off a terminal without --yes the answer is known already: fail before any request.
  if (!session.globals.yes && !session.io.stdin.isTTY) await session.confirm(`Delete student ${input}?`);
  await session.guarded(async () => {
    const api = await session.api();
    const student = await resolveStudent(api, input, { fetch: true, cache: session.lookups }).catch((error: unknown) => {
      if (opts.forget && error instanceof NotFoundError) {
        error.message += '. Deleted earlier? Erase its personal data from the audit log with `members history --forget STUDENT_ID` (`members history --student KEY -o json` shows the id)';
      }
      throw error;
    });
    const label = studentLabel(student);
    await session.announceChange();
    // Irreversible in effect (a new student gets a new id): typing the e-mail, not a reflexive y.
    const forget = opts.forget ? " Then its personal data is erased from this machine's audit log (undo will not bring the student back)." : '';
    await session.confirm(`Delete student ${label}? Its subscriptions, scores and progress go with it.${forget}`, student.record?.email || student.id);
    const { openJournal, studentSnapshot } = await loadAudit();
    const journal = await openJournal(session, { command: 'students delete', reason: opts.reason });
    await sendChange({ action: 'delete', api, journal, student: { input, id: student.id }, before: student.record ? studentSnapshot(student.record) : undefined });
    (await session.messages()).notice(`✓ ${capitalize(`deleted student ${label}`)}`);
    if (opts.forget) {
      const { forgetInLog } = await import('../shared/forget.js');
      await forgetInLog(session, student.id, { command: 'students delete --forget', reason: opts.reason, known: student.record });
    }
  });
}

/** `students update|edit|rename`: what the API cannot do, and what to do instead (exit 2, nothing sent). */
export function cannotChangeStudents(verb: string): never {
  throw new UsageError(`members students ${verb}: the platform's API has no way to change a student's e-mail, document or name `
    + '(it can create, look up and delete students, not change them). Instead: change it in the platform\'s admin panel; or, '
    + 'for a purchase made with a mistyped e-mail or a student who changed e-mail, move the products to the right account with '
    + '`members students transfer FROM TO` (progress and score stay with the old account: the API cannot move them). '
    + 'Do not create a second account for the same person: it starts without their progress and score');
}

export async function products(session: Session, input: string): Promise<void> {
  parseStudentKey(input);
  await withOutput(session, async (output) => {
    const api = await session.api();
    const student = await resolveStudent(api, input, { cache: session.lookups });
    await output.list(await studentProducts(api, student.id), SUBSCRIPTION_VIEW);
  });
}

export async function grant(
  session: Session, input: string, rawProductId: string, opts: { accession?: string; expiration?: string; reason?: string; renew?: boolean; includeStatusChanges?: boolean },
): Promise<ChangeOutcome> {
  parseStudentKey(input);
  checkProductId(rawProductId);
  const asks = session.io.stdin.isTTY && !session.globals.yes;
  const dates = grantDates(opts.accession, opts.expiration, undefined, undefined, { mayRenew: opts.renew === true || asks });
  assertFieldsBeforeChange(session.globals.fields, Object.keys(Subscription.shape), SUBSCRIPTION_VIEW);
  return session.guarded(() => withOutput(session, async (output) => {
    const api = await session.api();
    const { id: productId, title } = await resolveProduct(api, rawProductId);
    const student = await resolveStudent(api, input, { cache: session.lookups });
    // Once, before the question if there is one: the user must see which platform they answer for.
    let announced: Promise<void> | undefined;
    const announce = () => (announced ??= session.announceChange());
    const outcome = await grantToStudent(api, student, productId, dates, {
      reason: opts.reason,
      title,
      journal: await (await loadAudit()).openJournal(session, { command: 'students grant', reason: opts.reason }),
      beforeChange: announce,
      // --renew, or a yes on a terminal; never implied by --yes: a renewal replaces the subscription.
      renew: async (held, gap, statusChange) => {
        if (opts.renew) return true;
        if (!asks) return false;
        const title = held.product?.title;
        await announce();
        await session.confirm(`${studentLabel(student)} has product ${title ? `"${title}" (${productId})` : productId} but ${gap}. `
          + `Revoke it and grant it again${statusChange ? ` — its ${statusChange}` : ''}?`);
        return 'asked';
      },
      includeStatusChanges: opts.includeStatusChanges,
    });
    // The state asked for holds either way: print the subscription, and say whether anything was sent.
    if (outcome.subscription) await output.one(outcome.subscription, SUBSCRIPTION_VIEW);
    (await session.messages()).notice(outcome.result === 'skipped' ? capitalize(outcome.message) : `✓ ${capitalize(outcome.message)}`);
    return outcome;
  }));
}

export async function revoke(session: Session, input: string, rawProductId: string, opts: { reason?: string }): Promise<ChangeOutcome> {
  parseStudentKey(input);
  checkProductId(rawProductId);
  return session.guarded(async () => {
    const api = await session.api();
    const { id: productId, title } = await resolveProduct(api, rawProductId);
    const student = await resolveStudent(api, input, { cache: session.lookups });
    const outcome = await revokeFromStudent(api, student, productId, {
      reason: opts.reason,
      title,
      journal: await (await loadAudit()).openJournal(session, { command: 'students revoke', reason: opts.reason }),
      beforeChange: async (held) => {
        await session.announceChange();
        const title = held?.product?.title;
        await session.confirm(`Revoke product ${title ? `"${title}" (${productId})` : productId} from ${studentLabel(student)}?`);
      },
    });
    (await session.messages()).notice(outcome.result === 'skipped' ? capitalize(outcome.message) : `✓ ${capitalize(outcome.message)}`);
    return outcome;
  });
}

function labelOf(student: Student): string {
  return studentLabel({ input: student.id, key: { kind: 'id', value: student.id }, id: student.id, record: student });
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
