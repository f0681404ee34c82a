/**
 * `members sync` (issue 29): the plan that makes product access match a file
 * — the desired state, one row per (student, product) that should have
 * access — from one read of the platform (domain/snapshot.ts). Pure: the
 * caller reads the file and the snapshot, and applies the plan.
 *
 * Per row, against the student's subscription to the product:
 * - none: `grant` (accession: the file's, else today);
 * - one without access: `restore` (revoke, then grant: the dates of a
 *   renewal, changes.ts renewalDates: the file's expiration, else the old one
 *   if it has not passed; the old accession unless the file gives one);
 * - access on and the file's `expiration_date` differs: `change-expiration`
 *   (the same revoke-then-grant); a row without one leaves it alone, and
 *   `accession_date` is never a reason to change anything;
 * - else: in sync.
 * A student the student list does not hold (the walk reads the whole
 * platform) is not there: its row is `not-found`, listed in the plan and
 * never sent (applying it fails, exit 7; --check counts it as drift).
 * Then every subscription with access to a product in scope whose student no
 * row names is a `revoke`. Nothing outside the products in scope is looked at.
 *
 * A re-grant sets the server's default status: an expiration change over a
 * subscription with another status (canceled, refunded) is left out unless
 * `includeStatusChanges`; a restore says so in its notes.
 */
import type { StudentKey } from '../../api/endpoints/student-key.js';
import { UsageError } from '../../lib/errors.js';
import { pluralWord, today } from '../../lib/values.js';
import { productLabel, renewalDates } from '../changes.js';
import { resetsStatus, statusResetNote } from '../grant-status.js';
import type { SnapshotStudent, SnapshotSubscription } from '../snapshot.js';

/** `not-found`: a row whose student is not on the platform; it cannot be applied, and is never sent. */
export const SYNC_ACTIONS = ['grant', 'restore', 'change-expiration', 'revoke', 'not-found'] as const;
export type SyncAction = (typeof SYNC_ACTIONS)[number];

/** One valid row of the file, its product resolved to an id. */
export interface DesiredRow {
  line: number;
  /** The STUDENT cell as given. */
  student: string;
  key: StudentKey;
  productId: string;
  /** Given in the file (YYYY-MM-DD); undefined when the cell is empty. */
  accession?: string;
  expiration?: string;
}

/** What the planner reads of the platform (a Snapshot fits). */
export interface SyncState {
  findStudent(key: StudentKey): SnapshotStudent | undefined;
  /** The students a phone key names, when several share the number (findStudent then finds none). */
  phoneHolders?(key: StudentKey): readonly SnapshotStudent[];
  subscription(studentId: string, productId: string): SnapshotSubscription | undefined;
  holders(productId: string): readonly SnapshotSubscription[];
}

/** The subscription a change was planned from (its id as text: some servers number them). */
export type HeldState = Pick<SnapshotSubscription, 'hasAccess' | 'status' | 'accessionDate' | 'expirationDate'> & { id?: string };

export interface PlannedChange {
  action: SyncAction;
  /** The row's line in the file; revokes have none. */
  line?: number;
  /** The STUDENT as the file gives it; for a revoke, the student's e-mail (else its id). */
  student: string;
  /** Undefined when the student is not on the platform (`not-found`). */
  studentId?: string;
  productId: string;
  /** The dates granted (every action but revoke). */
  accession?: string;
  expiration?: string;
  /** The subscription as it was read; undefined: none. */
  from?: HeldState;
  /** What the operator should know: a status reset, an expiration already past, a student not on the platform. */
  notes: string[];
}

export type SyncMode = 'both' | 'add-only' | 'remove-only';

/** `--max-revoke N` or `--max-revoke N%`. */
export type RevokeCap = { count: number } | { percent: number };

export interface SyncOptions {
  mode: SyncMode;
  includeStatusChanges: boolean;
  maxRevoke?: RevokeCap;
  now: Date;
}

/** A row that cannot be planned: the run is refused (exit 2) before any change. */
export interface RowProblem {
  line: number;
  message: string;
}

/** The revocations of one product in scope against its cap. */
export interface CapCheck {
  productId: string;
  /** Subscriptions with access now. */
  holders: number;
  revokes: number;
  cap: number;
  /** The cap came from --max-revoke (not the default). */
  explicit: boolean;
}

export interface SyncPlan {
  /** The products in scope, in the order they were named. */
  products: string[];
  /** File order, then the revokes product by product. */
  changes: PlannedChange[];
  /** Rows already as the file says. */
  inSync: number;
  /** Expiration changes left out because they would reset a status (without --include-status-changes). */
  statusChanges: PlannedChange[];
  /** Changes the mode leaves out: additions under --remove-only, revocations under --add-only. */
  leftOut: { additions: number; revocations: number };
  problems: RowProblem[];
  caps: CapCheck[];
}

/** Defaults when --max-revoke is not given: a tenth of the product's holders, and never more than this. */
export const DEFAULT_REVOKE_PERCENT = 10;
export const DEFAULT_REVOKE_CEILING = 50;

const dateOf = (value: string | undefined) => value?.slice(0, 10);
const pairKey = (studentId: string, productId: string) => `${studentId}\n${productId}`;

/** The cap of a product with `holders` subscriptions with access. */
export function revokeCap(holders: number, maxRevoke?: RevokeCap): number {
  if (maxRevoke === undefined) return Math.min(Math.floor((holders * DEFAULT_REVOKE_PERCENT) / 100), DEFAULT_REVOKE_CEILING);
  return 'count' in maxRevoke ? maxRevoke.count : Math.floor((holders * maxRevoke.percent) / 100);
}

/** `--max-revoke 25` or `--max-revoke 5%` (0–100 %). */
export function parseRevokeCap(text: string): RevokeCap {
  const match = /^(\d+)(%?)$/.exec(text.trim());
  const value = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(value) || (match[2] === '%' && value > 100)) {
    throw new UsageError(`invalid --max-revoke ${JSON.stringify(text)}: expected a number of revocations per product (25) or a percentage of its holders (5%, at most 100%)`);
  }
  return match[2] === '%' ? { percent: value } : { count: value };
}

const notFoundNote = (student: string) =>
  `no student ${student} on the platform: never sent (exit 7 when applied); import the student first (members students import), then sync again`;

/** The plan of `rows` for `products` against `state`. */
export function planSync(rows: readonly DesiredRow[], products: readonly string[], state: SyncState, options: SyncOptions): SyncPlan {
  const plan: SyncPlan = { products: [...products], changes: [], inSync: 0, statusChanges: [], leftOut: { additions: 0, revocations: 0 }, problems: [], caps: [] };
  const now = today(options.now);
  const additions = options.mode !== 'remove-only';
  /** (student id, product) → the line that named it first. */
  const wanted = new Map<string, number>();

  for (const row of rows) {
    const student = state.findStudent(row.key);
    const sharing = student ? [] : state.phoneHolders?.(row.key) ?? [];
    if (sharing.length > 1) {
      plan.problems.push({ line: row.line, message: `${sharing.length} students have the phone ${row.student}; give one's e-mail or id (${sharing.map((one) => one.id).join(', ')})` });
      continue;
    }
    if (student) {
      const pair = pairKey(student.id, row.productId);
      const earlier = wanted.get(pair);
      if (earlier !== undefined) {
        plan.problems.push({ line: row.line, message: `names the same student as line ${earlier} (${student.id}) for the same product; keep one row per student and product` });
        continue;
      }
      wanted.set(pair, row.line);
    }
    const held = student && state.subscription(student.id, row.productId);
    const change = changeFor(row, student, held, options.now, now);
    if (change === undefined) {
      plan.inSync++;
      continue;
    }
    if (!additions) {
      plan.leftOut.additions++;
      continue;
    }
    const problem = datesProblem(change, row, now);
    if (problem !== undefined) plan.problems.push({ line: row.line, message: problem });
    else if (change.action === 'change-expiration' && resetsStatus((held as HeldState).status) && !options.includeStatusChanges) {
      plan.statusChanges.push(change);
    } else {
      plan.changes.push(change);
    }
  }

  for (const productId of products) {
    const holding = state.holders(productId).filter((held) => held.hasAccess);
    const revokes = holding.filter((held) => !wanted.has(pairKey(held.studentId, productId)));
    if (options.mode === 'add-only') {
      plan.leftOut.revocations += revokes.length;
      continue;
    }
    for (const held of revokes) plan.changes.push(revokeOf(held, state));
    if (revokes.length > 0) {
      plan.caps.push({ productId, holders: holding.length, revokes: revokes.length, cap: revokeCap(holding.length, options.maxRevoke), explicit: options.maxRevoke !== undefined });
    }
  }
  return plan;
}

/** What a row needs, or undefined when the subscription is already as the file says. */
function changeFor(row: DesiredRow, student: SnapshotStudent | undefined, held: SnapshotSubscription | undefined, date: Date, now: string): PlannedChange | undefined {
  const base = { line: row.line, student: row.student, studentId: student?.id, productId: row.productId };
  if (!student) return { ...base, action: 'not-found', notes: [notFoundNote(row.student)] };
  if (!held) return withPast({ ...base, action: 'grant', accession: row.accession ?? now, expiration: row.expiration, notes: [] }, now);
  const from = heldState(held);
  const expires = dateOf(held.expirationDate);
  if (held.hasAccess && (row.expiration === undefined || row.expiration === expires)) return undefined;
  const dates = renewalDates(
    { product_id: row.productId, accession_date: held.accessionDate ?? null, expiration_date: held.expirationDate ?? null },
    row.accession === undefined ? { accession: now, expiration: row.expiration } : { accession: row.accession, accessionGiven: true, expiration: row.expiration },
    date,
  );
  const action: SyncAction = held.hasAccess ? 'change-expiration' : 'restore';
  const notes = resetsStatus(from.status) ? [statusResetNote(from.status)] : [];
  return withPast({ ...base, action, accession: dates.accession, expiration: dates.expiration, from, notes }, now);
}

function heldState(held: SnapshotSubscription): HeldState {
  const state: HeldState = { hasAccess: held.hasAccess };
  if (held.id !== undefined) state.id = String(held.id);
  if (held.status !== undefined) state.status = held.status;
  const accession = dateOf(held.accessionDate);
  const expiration = dateOf(held.expirationDate);
  if (accession !== undefined) state.accessionDate = accession;
  if (expiration !== undefined) state.expirationDate = expiration;
  return state;
}

/** An expiration already past is flagged: access ends as soon as it is granted. */
function withPast(change: PlannedChange, now: string): PlannedChange {
  if (change.expiration !== undefined && change.expiration < now) change.notes.push(`expiration ${change.expiration} has already passed`);
  return change;
}

/** The bulk rule, for rows that need a change only: the expiration cannot precede the accession. */
function datesProblem(change: PlannedChange, row: DesiredRow, now: string): string | undefined {
  const { accession, expiration } = change;
  if (expiration === undefined || accession === undefined || expiration >= accession) return undefined;
  const whose = row.accession !== undefined ? `accession_date ${accession}`
    : change.action === 'grant' ? `today (${now}), the accession of a grant when accession_date is empty`
      : `the subscription's accession date (${accession}), kept when accession_date is empty`;
  return `expiration_date ${expiration} is before ${whose}; the expiration cannot precede the accession`;
}

function revokeOf(held: SnapshotSubscription, state: SyncState): PlannedChange {
  const student = state.findStudent({ kind: 'id', value: held.studentId });
  return {
    action: 'revoke', student: student?.email ?? held.studentId, studentId: held.studentId, productId: held.productId,
    from: heldState(held), notes: [],
  };
}

/** Changes of the plan by action. */
export function countActions(changes: readonly PlannedChange[]): Record<SyncAction, number> {
  const counts: Record<SyncAction, number> = { grant: 0, restore: 0, 'change-expiration': 0, revoke: 0, 'not-found': 0 };
  for (const change of changes) counts[change.action]++;
  return counts;
}

/** The products whose revocations pass their cap. */
export const overCap = (plan: Pick<SyncPlan, 'caps'>) => plan.caps.filter((check) => check.revokes > check.cap);

const count = (n: number) => n.toLocaleString('en-US');

/** What a plan is for: `product "Python Pro" (id)` (by id when `titles` lacks it), or `3 products`. */
export function planScope(products: readonly string[], titles: ReadonlyMap<string, string> = new Map()): string {
  const [only] = products;
  return products.length === 1 && only !== undefined ? productLabel(only, undefined, titles.get(only)) : `${count(products.length)} ${pluralWord(products.length, 'product')}`;
}

/**
 * `Plan for 3 products: 41 to grant, 3 to restore, 2 to change expiration,
 * 17 to revoke, 1,204 already in sync.`, then what was left out and why. A
 * plan for one product names it (`Plan for product "Python Pro" (id): …`),
 * by title when `titles` knows it: the plan's table then leaves it out.
 */
export function planSummary(plan: SyncPlan, mode: SyncMode, titles: ReadonlyMap<string, string> = new Map()): string {
  const counts = countActions(plan.changes);
  const parts = [
    `${count(counts.grant)} to grant`, `${count(counts.restore)} to restore`, `${count(counts['change-expiration'])} to change expiration`,
    `${count(counts.revoke)} to revoke`, `${count(plan.inSync)} already in sync`,
    ...(counts['not-found'] > 0 ? [`${count(counts['not-found'])} ${pluralWord(counts['not-found'], 'row')} naming a student not on the platform (not-found: never sent)`] : []),
  ];
  const sentences = [`Plan for ${planScope(plan.products, titles)}: ${parts.join(', ')}.`];
  const skipped = plan.statusChanges.length;
  if (skipped > 0) {
    sentences.push(`${count(skipped)} expiration ${pluralWord(skipped, 'change')} left out: ${skipped === 1 ? 'it' : 'they'} would reset a status (--include-status-changes to make ${skipped === 1 ? 'it' : 'them'}).`);
  }
  if (mode === 'add-only' && plan.leftOut.revocations > 0) sentences.push(`--add-only leaves out ${count(plan.leftOut.revocations)} ${pluralWord(plan.leftOut.revocations, 'revocation')}.`);
  if (mode === 'remove-only' && plan.leftOut.additions > 0) {
    sentences.push(`--remove-only leaves out ${count(plan.leftOut.additions)} ${pluralWord(plan.leftOut.additions, 'grant, restore or expiration change', 'grants, restores and expiration changes')}.`);
  }
  return sentences.join(' ');
}

/** `product "Python Pro" (4f6d…) would lose 17 of its 120 holders, over the cap of 12 (…): …`; by id alone when `titles` lacks it. */
export function capMessage(checks: readonly CapCheck[], titles: ReadonlyMap<string, string> = new Map()): string {
  const each = checks.map((check) => {
    const rule = check.explicit ? '--max-revoke' : `the default: ${DEFAULT_REVOKE_PERCENT} % of its holders, at most ${DEFAULT_REVOKE_CEILING}`;
    return `${productLabel(check.productId, undefined, titles.get(check.productId))} would lose ${count(check.revokes)} of its ${count(check.holders)} ${pluralWord(check.holders, 'holder')}, over the cap of ${count(check.cap)} (${rule})`;
  });
  return `${each.join('; ')}; nothing was changed. If the file is right, pass --max-revoke with a higher number or percentage; if it is not (a truncated export?), fix the export`;
}
