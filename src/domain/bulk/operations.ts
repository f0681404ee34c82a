/**
 * The three bulk operations — grant, revoke, import — as data for the runner
 * (run.ts): their CSV columns, the offline check of one row, what makes two
 * rows duplicates, and the work for one row on top of the same cores as the
 * single commands (changes.ts, students.ts), which check the state first.
 *
 * Requests per row (for benchmarks; add retries and 429s on a flaky server):
 * - grant:  1 state check (GET …/products/{product_id}) + 1 POST when the
 *           product is missing. A student given by e-mail, doc: or ref: adds
 *           1 lookup (GET) per distinct student per run (cached), an id none.
 *           Already held: 1 GET, no POST. A POST with an unknown outcome (5xx,
 *           network) is followed by 1 state check before any resend.
 * - revoke: 1 state check + 1 DELETE when held; the same cached lookup.
 *           Not held: + 1 GET of the student (an unknown student is a failure,
 *           not a skip) unless it was looked up already.
 * - import: 1 lookup by e-mail + 1 POST when the e-mail is new (a POST with an
 *           unknown outcome: 1 lookup before any resend).
 * - --dry-run: the GETs only; grant also looks up students given by id (once each).
 *
 * With a snapshot (`--strategy snapshot`, or `auto` when it is cheaper: see
 * domain/read-plan.ts), a student the snapshot holds costs no lookup and a
 * row no state check: a row already in the asked state sends nothing, the
 * others only their change — but a revoke or a renewal reads the
 * subscription once more right before it (1 GET: compare before destroy,
 * send-change.ts), and is `stale`, nothing sent, when it changed since. A student the snapshot does not hold (newer than
 * it, or unknown) is looked up as above.
 */
import type { Api } from '../../api/client.js';
import { canonicalValue, notAnId, parseStudentKey, plainId, type StudentKey } from '../../api/endpoints/student-key.js';
import { createStudent, findStudent, type NewStudent } from '../../api/endpoints/students.js';
import { severalWithPhone } from '../../api/pagination/phone-scan.js';
import { RejectedError, UsageError } from '../../lib/errors.js';
import { nameAndEmail } from '../../lib/people.js';
import { EMAIL_PATTERN, parseFileDate, plural } from '../../lib/values.js';
import {
  checkProductId, grantDates, grantToStudent, revokeFromStudent, StatusResetError, type ChangeOptions, type ChangeOutcome, type GrantDates,
} from '../changes.js';
import { resolveStudent, type CpfSpellingMemory, type ResolvedStudent, type StudentCache } from '../resolve.js';
import type { ReadNeeds } from '../read-plan.js';
import { asStudent, StudentKeyFilter, type Snapshot, type SnapshotKeep, type SnapshotStudent } from '../snapshot.js';
import type { KeyedQueue } from './pool.js';
import { dateCell, type CsvColumns } from './csv.js';
import type { Named } from '../names.js';
import { recorded, type Journal } from '../../audit/journal.js';

export type { CsvColumns } from './csv.js';

/** Every result a row may have; `members sync` adds `restored`, `expiration-changed` and `stale` (a state changed since it was planned). */
export type BulkResultKind = 'granted' | 'revoked' | 'renewed' | 'created' | 'restored' | 'expiration-changed' | 'skipped' | 'stale' | 'failed';

/** The record printed for each row (contract §9.6), keys in this order. */
export interface BulkResult {
  line: number;
  student: string;
  product_id: string;
  result: BulkResultKind;
  message: string;
}

/** A row's result and what the audit log needs besides; only the BulkResult part is printed. */
export interface BulkRowOutcome extends BulkResult {
  /** `members sync`: the planned action (grant, restore, change-expiration, revoke). */
  action?: string;
  student_id?: string;
  /** The server's request id of the change, if it sent one. */
  requestId?: string;
  /** `--reason`, for the audit log. */
  reason?: string;
  /** Nothing was sent (`--dry-run`); `result` says what would have happened. */
  dryRun?: boolean;
  /** A POST whose outcome was unknown was found applied by a lookup instead of being resent. */
  recovered?: boolean;
  /** The grant/revoke core's own outcome (with the subscription), when it ran to the end. */
  change?: ChangeOutcome;
  /** Why a `failed` row failed. */
  error?: unknown;
}

export interface RowContext {
  api: Api;
  /** Lookups shared by every row of the run. */
  cache: StudentCache;
  /** Serialises rows that turn out to name the same student and product. */
  queue: KeyedQueue;
  dryRun: boolean;
  reason?: string;
  /** `--renew`: every grant row over a subscription without access (or with another expiration) is renewed. */
  renew?: boolean;
  /** `--include-status-changes`: a renewal may reset a status; else such a row is `skipped`, nothing sent. */
  includeStatusChanges?: boolean;
  /** The platform's state read once for the run, when the read plan took it: rows read it instead of asking. */
  snapshot?: Snapshot;
  /** How the server writes CPFs, as the student list's first page told it or the run's first CPF lookup learnt: lookups try that spelling first. */
  spelling?: CpfSpellingMemory;
  /** Records each applied row, intent first, with its line (the engine sets it per row); none in a dry run. */
  journal?: Journal;
}

export interface BulkOperation<Plan> {
  /** For the audit log: `students grant`… */
  command: string;
  columns: CsvColumns;
  /** The result of a row that changed something. */
  done: 'granted' | 'revoked' | 'created';
  /** Asks even for a few rows (on a terminal), and needs --yes off one. */
  destructive: boolean;
  /** The `student` and `product_id` of a row's result, invalid rows included. */
  identify(values: Record<string, string>): Pick<BulkResult, 'student' | 'product_id'>;
  /** Checks one row without any request; a UsageError names the column at fault. */
  plan(values: Record<string, string>, now: Date): Plan;
  /** Rows with the same key are duplicates; `sameWhat` says what they share. */
  key(plan: Plan): string;
  sameWhat: string;
  apply(context: RowContext, plan: Plan): Promise<Omit<BulkRowOutcome, 'line'>>;
  /** Where a row names a product (grant, revoke): resolved by id, title or prefix before any change. */
  products?: { of(plan: Plan): string; with(plan: Plan, product: Named): Plan };
  /** The confirmation question for `count` rows of `source`, naming the products when they are known and few. */
  question(count: number, source: string, products?: readonly Named[]): string;
  /**
   * What the per-row reads of the valid rows cost, for the read plan; whether
   * a snapshot needs the subscriptions, and what of it the rows need.
   */
  reads: {
    needs(plans: readonly Plan[]): Pick<ReadNeeds, 'distinctStudentKeys' | 'rows' | 'destroys' | 'phones'>;
    subscriptions: boolean;
    keep(plans: readonly Plan[]): SnapshotKeep;
  };
}

/** What reading and checking the rows of a file takes of an operation (`members sync` reads its rows with it too). */
export type RowReader<Plan> = Pick<BulkOperation<Plan>, 'identify' | 'plan' | 'key' | 'sameWhat' | 'products'>;

/** A required cell: blank is a usage error naming the column. */
export function required(values: Record<string, string>, column: string): string {
  const value = values[column] ?? '';
  if (value === '') throw new UsageError(`${column} is empty`);
  return value;
}

export function studentKey(values: Record<string, string>): StudentKey {
  const input = required(values, 'student');
  let key: StudentKey;
  try {
    key = parseStudentKey(input);
  } catch (error) {
    // `phone:` with something that is no phone: the parser says what a phone needs.
    if (/^phone:\s*\S/.test(input.trim())) throw new UsageError(`student ${(error as Error).message}`);
    throw new UsageError(`student ${JSON.stringify(input)} is not a student key: give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE`);
  }
  const notId = notAnId(key);
  if (notId !== undefined) throw new UsageError(`student ${notId}`);
  return key;
}

/** Two keys name the same student when they are equal; e-mails compare case-insensitively, a CPF in either spelling. */
export const keyText = (key: StudentKey) => `${key.kind}:${key.kind === 'email' ? key.value.toLowerCase() : canonicalValue(key)}`;

/** The core's outcome as a row's, noting a POST that was confirmed instead of resent. */
function fromChange(outcome: ChangeOutcome): Omit<BulkRowOutcome, 'line'> {
  const message = outcome.recovered ? `${outcome.message} (an uncertain response was checked: applied once, not resent)` : outcome.message;
  return {
    student: outcome.student, product_id: outcome.product_id, result: outcome.result, message,
    student_id: outcome.student_id, requestId: outcome.requestId, reason: outcome.reason, dryRun: outcome.dryRun,
    recovered: outcome.recovered, change: outcome,
  };
}

interface ChangePlan {
  student: string;
  key: StudentKey;
  productId: string;
  /** The product's title once resolved from the list (a title given, or a dry run): messages name the product by it. */
  productTitle?: string;
}

interface GrantPlan extends ChangePlan {
  dates: GrantDates;
  /** The row's `renew` cell: yes, no, or blank (undefined: --renew decides). */
  renew: boolean | undefined;
}

const YES = new Set(['yes', 'y', 'true', '1', 'sim', 's']);
const NO = new Set(['no', 'n', 'false', '0', 'não', 'nao']);

/** The optional `renew` cell: yes/true/1, no/false/0 (sim/não too), or blank. */
function renewCell(values: Record<string, string>): boolean | undefined {
  const cell = (values.renew ?? '').toLowerCase();
  if (cell === '') return undefined;
  if (YES.has(cell)) return true;
  if (NO.has(cell)) return false;
  throw new UsageError(`renew ${JSON.stringify(values.renew)} is not yes or no`);
}

const identifyChange = (values: Record<string, string>) => ({ student: values.student ?? '', product_id: values.product_id ?? '' });

function changePlan(values: Record<string, string>): ChangePlan {
  const key = studentKey(values);
  return { student: values.student ?? '', key, productId: checkProductId(values.product_id ?? '', 'product_id') };
}

/**
 * Resolves the row's student (once per run; from the snapshot when it holds
 * the student) and runs `change` alone for that student and product, with
 * the state the snapshot knows. The snapshot is told of the change, for a
 * later row naming the same student and product under another key.
 */
async function changeRow(
  context: RowContext, plan: ChangePlan, fetch: boolean,
  change: (student: ResolvedStudent, known: ChangeOptions['known']) => Promise<ChangeOutcome>,
) {
  const { snapshot } = context;
  const found = snapshot?.findStudent(plan.key);
  // A phone several students share: the snapshot already knows them all, no need to read the list again to say so.
  const sharing = found ? [] : snapshot?.phoneHolders(plan.key) ?? [];
  if (sharing.length > 1) throw severalWithPhone(plan.student.trim(), sharing.map(asStudent));
  const student = found ? fromSnapshot(plan, found, fetch) : await resolveStudent(context.api, plan.student, { cache: context.cache, fetch, spelling: context.spelling });
  return fromChange(await context.queue.run(`${student.id}\n${plan.productId}`, async () => {
    if (!snapshot || !found) return change(student, undefined);
    const held = snapshot.subscription(student.id, plan.productId);
    const outcome = await change(student, { held: held && snapshot.asSubscription(held) });
    if (!outcome.dryRun && outcome.result !== 'skipped' && outcome.result !== 'stale') snapshot.record(student.id, plan.productId, outcome.result === 'revoked' ? undefined : outcome.subscription);
    return outcome;
  }));
}

/** A student the snapshot holds: its record where a lookup would have fetched one (every key but an id, unless `fetch`), so messages read alike. */
function fromSnapshot(plan: ChangePlan, found: SnapshotStudent, fetch: boolean): ResolvedStudent {
  const resolved: ResolvedStudent = { input: plan.student, key: plan.key, id: found.id };
  return plainId(plan.key) && !fetch ? resolved : { ...resolved, record: asStudent(found) };
}

/** Grant and revoke: a lookup per distinct student key that is not an id, a state check per row. */
const changeReads = {
  needs(plans: readonly ChangePlan[]) {
    const keys = new Set(plans.filter((plan) => !plainId(plan.key)).map((plan) => keyText(plan.key)));
    const phones = [...keys].filter((key) => key.startsWith('phone:')).length;
    return { distinctStudentKeys: keys.size, rows: plans.length, ...(phones > 0 ? { phones } : {}) };
  },
  subscriptions: true,
  /** The students the rows name, and the subscriptions of their products. */
  keep: (plans: readonly ChangePlan[]) => ({
    students: new StudentKeyFilter(plans.map((plan) => plan.key)), products: new Set(plans.map((plan) => plan.productId)),
  }),
};

/** The product cell of grant and revoke rows, resolved: its id, and its title when the list was read. */
function changeProducts<P extends ChangePlan>(): NonNullable<BulkOperation<P>['products']> {
  return {
    of: (plan) => plan.productId,
    with: (plan, product) => ({ ...plan, productId: product.id, ...(product.title ? { productTitle: product.title } : {}) }),
  };
}

/** `"Python Pro" (5f1c…) and "Yoga" (9a2b…)` for up to 3 products known by title; else `products`. */
function productsText(products: readonly Named[] = []): string {
  if (products.length === 0 || products.length > 3 || products.some((product) => !product.title)) return 'products';
  const names = products.map((product) => `"${product.title}" (${product.id})`);
  return names.length === 1 ? names[0] as string : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const GRANT_COLUMNS = { accession: 'accession_date', expiration: 'expiration_date' };

export const grantOperation: BulkOperation<GrantPlan> = {
  command: 'students grant',
  columns: { required: ['student', 'product_id'], optional: ['accession_date', 'expiration_date', 'renew'] },
  done: 'granted',
  destructive: false,
  identify: identifyChange,
  plan(values, now) {
    const plan = changePlan(values);
    const renew = renewCell(values);
    // A row that may be renewed (its cell says yes, or is blank: --renew decides) keeps the subscription's accession: checked when it is read.
    const dates = grantDates(dateCell(values, 'accession_date'), dateCell(values, 'expiration_date'), GRANT_COLUMNS, now, { mayRenew: renew !== false });
    return { ...plan, dates, renew };
  },
  key: (plan) => `${keyText(plan.key)}\n${plan.productId}`,
  sameWhat: 'the same student and product_id',
  products: changeProducts(),
  apply: (context, plan) => changeRow(context, plan, context.dryRun, (student, known) =>
    grantToStudent(context.api, student, plan.productId, plan.dates, {
      reason: context.reason, dryRun: context.dryRun, journal: context.journal, renew: async () => plan.renew ?? context.renew === true, known, title: plan.productTitle,
      includeStatusChanges: context.includeStatusChanges,
      wording: { renew: plan.renew === false ? 'its renew column says no: put yes there' : 'put yes in its renew column, or pass --renew for every such row', dates: GRANT_COLUMNS },
    }).catch((error: unknown) => {
      // A status is never reset silently: the row is skipped, and its message says why and how.
      if (!(error instanceof StatusResetError)) throw error;
      return { student: student.input, student_id: student.id, product_id: plan.productId, result: 'skipped' as const, message: error.message, subscription: error.held };
    })),
  question: (count, source, products) => `Grant ${productsText(products)} to students on ${plural(count, 'row')} of ${source}?`,
  reads: changeReads,
};

export const revokeOperation: BulkOperation<ChangePlan> = {
  command: 'students revoke',
  columns: { required: ['student', 'product_id'], optional: [] },
  done: 'revoked',
  destructive: true,
  identify: identifyChange,
  plan: (values) => changePlan(values),
  key: (plan) => `${keyText(plan.key)}\n${plan.productId}`,
  sameWhat: 'the same student and product_id',
  products: changeProducts(),
  apply: (context, plan) => changeRow(context, plan, false, (student, known) =>
    revokeFromStudent(context.api, student, plan.productId, { reason: context.reason, dryRun: context.dryRun, journal: context.journal, known, title: plan.productTitle })),
  question: (count, source, products) => `Revoke ${productsText(products)} from students on ${plural(count, 'row')} of ${source}?`,
  // Every row may be a destroy, read again before its DELETE when the state came from a snapshot.
  reads: { ...changeReads, needs: (plans) => ({ ...changeReads.needs(plans), destroys: plans.length }) },
};

const IMPORT_OPTIONAL = ['phone', 'birth', 'document', 'reference_id'] as const;

export const importOperation: BulkOperation<NewStudent> = {
  command: 'students import',
  columns: { required: ['first_name', 'last_name', 'email'], optional: [...IMPORT_OPTIONAL] },
  done: 'created',
  destructive: false,
  identify: (values) => ({ student: values.email ?? '', product_id: '' }),
  plan(values) {
    const body: NewStudent = {
      first_name: required(values, 'first_name'),
      last_name: required(values, 'last_name'),
      email: required(values, 'email'),
    };
    if (!EMAIL_PATTERN.test(body.email)) throw new UsageError(`email ${JSON.stringify(body.email)} is not an e-mail address (expected e.g. maria@example.com)`);
    for (const column of IMPORT_OPTIONAL) {
      const value = values[column] ?? '';
      if (value !== '') body[column] = column === 'birth' ? parseFileDate(value, 'birth') : value;
    }
    return body;
  },
  key: (body) => body.email.toLowerCase(),
  sameWhat: 'the same email',
  async apply(context, body) {
    const base = { student: body.email, product_id: '', reason: context.reason };
    // With a snapshot, an e-mail it does not hold is new (the POST is refused if it was created since: see below).
    const key = { kind: 'email', value: body.email } as const;
    const held = context.snapshot?.findStudent(key);
    const existing = context.snapshot ? held && asStudent(held) : await findStudent(context.api, key);
    if (existing) {
      return { ...base, result: 'skipped', student_id: existing.id, message: `student ${nameAndEmail(existing)} already exists; nothing sent` };
    }
    if (context.dryRun) {
      return { ...base, result: 'created', dryRun: true, message: `would create student ${nameAndEmail(body)} (dry run; nothing sent)` };
    }
    const change = await context.journal?.begin({ action: 'create', result: 'created', student: body.email });
    let created: Awaited<ReturnType<typeof createStudent>>;
    try {
      created = await (change ? recorded(change, () => createStudent(context.api, body), (answer) => ({ student_id: answer.data.id, request_id: answer.requestId })) : createStudent(context.api, body));
    } catch (error) {
      // Refused because the e-mail is taken now: another run (the same file twice at once) created it in between.
      const now = error instanceof RejectedError ? await findStudent(context.api, { kind: 'email', value: body.email }).catch(() => undefined) : undefined;
      if (now) return { ...base, result: 'skipped', student_id: now.id, message: `student ${nameAndEmail(now)} already exists (created meanwhile by someone else); nothing changed` };
      throw error;
    }
    const { data, requestId, recovered } = created;
    const note = recovered ? ' (an uncertain response was checked: created once, not resent)' : '';
    return { ...base, result: 'created', student_id: data.id, requestId, recovered, message: `created student ${nameAndEmail(data)}${note}` };
  },
  question: (count, source) => `Create the students on ${plural(count, 'row')} of ${source}?`,
  reads: {
    needs: (bodies) => ({ distinctStudentKeys: bodies.length, rows: 0 }),
    subscriptions: false,
    keep: (bodies) => ({ students: new StudentKeyFilter(bodies.map((body) => ({ kind: 'email', value: body.email }))) }),
  },
};

