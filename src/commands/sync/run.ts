/**
 * `members sync --file F` (contract §17): read and check every row of the
 * desired state before any request, resolve its products, read the
 * platform's state once (domain/snapshot.ts), plan (domain/sync/plan.ts),
 * print the plan and its summary, refuse a plan over its revocation caps
 * (exit 9), then — unless --check (exit 8 on drift), --dry-run or
 * --plan-out — confirm and apply the changes through the bulk engine
 * (commands/shared/bulk/run.ts applyRun): exactly once, paced, Ctrl-C stops cleanly,
 * one result per change, every change in the audit log under one run id.
 */
import { DriftError, RevokeCapError, UsageError } from '../../lib/errors.js';
import { plural } from '../../lib/values.js';
import type { Api } from '../../api/client.js';
import { RunPlanner, collapsedNotice, resolveProducts, type PlannedRun } from '../../domain/bulk/engine.js';
import { describeHeader, tellRepeatedHeaders, readCsvRows, readCsvSource } from '../../domain/bulk/csv.js';
import { productTitles, resolveProduct } from '../../domain/names.js';
import { capMessage, overCap, planSummary, planSync, type SyncPlan } from '../../domain/sync/plan.js';
import { planRecord } from '../../domain/sync/records.js';
import { desiredRowReader, desiredRows, productsInScope, refuseEmpty, refuseProductColumn, syncColumns, type DesiredCells } from '../../domain/sync/rows.js';
import { assertFieldsBeforeChange } from '../../output/fields.js';
import type { Messages } from '../../output/messages.js';
import { SYNC_PLAN_VIEW, SYNC_RESULT_VIEW } from '../shared/views/plan.js';
import type { Session } from '../../session/session.js';
import { NOTHING_TO_CHANGE, applyPlan, printPlanRecords, productNamedAbove } from '../shared/apply-plan.js';
import { readState } from '../shared/read-state.js';
import { takeLease } from '../shared/lease.js';
import type { HeldLease } from '../../audit/leases.js';
import type { FileSync } from './flags.js';
import { openPlanOut, writePlan } from './saved-plan.js';
import { refuseOutputOverInput } from '../shared/input-output.js';

const PLAN_FIELDS = Object.keys(planRecord({ action: 'grant', student: '', productId: 'p', notes: [] }));
const RESULT_FIELDS = ['line', 'action', 'student', 'product_id', 'result', 'message'];

/** What changes the platform: neither --check, --dry-run nor --plan-out. */
const applies = (request: FileSync) => !request.check && !request.dryRun && request.planOut === undefined;

export async function syncFromFile(session: Session, request: FileSync): Promise<void> {
  const { io, globals } = session;
  const applying = applies(request);
  refuseOutputOverInput(io.cwd, request.file, [['--plan-out', request.planOut], ['--out', globals.out]]);
  assertFieldsBeforeChange(globals.fields, applying ? RESULT_FIELDS : PLAN_FIELDS, applying ? SYNC_RESULT_VIEW : SYNC_PLAN_VIEW);
  // Off a terminal the answer is known before anything is read: no --yes, no run.
  if (applying && !globals.yes && (request.file === '-' || !io.stdin.isTTY)) {
    const where = request.file === '-' ? 'the rows come from stdin' : 'stdin is not a terminal';
    throw new UsageError(`a sync that changes access needs confirmation, but ${where}; pass --yes to proceed (or --dry-run, --check, --plan-out to change nothing)`);
  }
  const source = request.file === '-' ? 'stdin' : request.file;
  const planFile = request.planOut === undefined ? undefined : await openPlanOut(session, request.planOut);
  const held: Held = {};
  try {
    const { plan, titles } = await planFromFile(session, request, source, held);
    if (planFile) await writePlan(session, planFile, plan, { source, mode: request.mode, path: request.planOut as string });
    if (request.check && plan.changes.length > 0) {
      const drift = `Drift: the platform differs from ${source}: ${plural(plan.changes.length, 'change')} would make it match (--check changes nothing; exit 8).`;
      (await session.messages()).notice(drift);
      throw new DriftError(drift);
    }
    if (applying) await applyPlan(session, await session.api(), plan.changes, { source, reason: request.reason, concurrency: request.concurrency, verify: false, titles, oneProduct: productNamedAbove(session, plan.products.length) });
  } finally {
    await held.lease?.release().catch(() => undefined);
    await planFile?.discard();
  }
}

/** The lease a run that applies holds from before it reads the state to its end. */
interface Held {
  lease?: HeldLease;
}

/** Everything up to the plan: read, check, resolve, snapshot, plan; the plan printed unless it is about to be applied off a terminal. With the product titles read on the way. */
async function planFromFile(session: Session, request: FileSync, source: string, held: Held): Promise<{ plan: SyncPlan; titles: ReadonlyMap<string, string> }> {
  const { io, globals } = session;
  const messages = await session.messages();
  const offline = await readRows(session, request, source, messages);
  const api = await session.api();
  const { rows, products } = await resolveRowProducts(api, request, offline, source, messages);
  // Read with the products just resolved (--product and product cells are checked against the list): no request of its own.
  const titles = await productTitles(api);
  // Before the state is read: a run planned from a state another run is changing would undo its work.
  if (applies(request)) held.lease = await takeLease(session, { products, command: 'sync', waitMs: request.waitMs });
  const snapshot = await readState(session, api, messages);
  const plan = planSync(rows, products, snapshot, {
    mode: request.mode, includeStatusChanges: request.includeStatusChanges, maxRevoke: request.maxRevoke, now: new Date(),
  });
  if (plan.problems.length > 0) {
    for (const problem of plan.problems) messages.error(`line ${problem.line}: ${problem.message}`);
    throw new UsageError(`${plural(plan.problems.length, 'row')} of ${source} cannot be planned; nothing was changed. Fix ${plan.problems.length === 1 ? 'it' : 'them'} and run again`);
  }
  for (const change of plan.statusChanges) {
    messages.warn(`left out: line ${change.line}, ${change.student}, product ${change.productId}: expiration ${change.from?.expirationDate ?? 'none'} → ${change.expiration ?? 'none'} would reset its status (${change.from?.status})`);
  }
  // A run that changes nothing prints the plan as its result; one that changes shows it on a terminal before asking.
  const applying = applies(request);
  if (!applying || (io.stdout.isTTY && !globals.out && plan.changes.length > 0)) {
    await printPlanRecords(session, plan.changes.map(planRecord), titles, productNamedAbove(session, plan.products.length));
  }
  messages.notice(planSummary(plan, request.mode, titles));
  // The words of an applied run that finds nothing to do (applyPlan), in every mode.
  if (!applying && plan.changes.length === 0) messages.notice(NOTHING_TO_CHANGE);
  const over = overCap(plan);
  if (over.length > 0) throw new RevokeCapError(capMessage(over, titles));
  return { plan, titles };
}

/** Reads and checks every row (no request); refuses an empty file and any invalid row (a row left out would be revoked). */
async function readRows(session: Session, request: FileSync, source: string, messages: Messages): Promise<PlannedRun<DesiredCells>> {
  const productsGiven = request.products !== undefined;
  const planner = new RunPlanner(desiredRowReader(productsGiven), new Date());
  if (request.file === '-' && session.io.stdin.isTTY) messages.notice('Reading the CSV from the terminal; end it with Ctrl-D…');
  await readCsvRows(await readCsvSource(session.io, request.file), syncColumns(productsGiven), source, (row) => {
    refuseProductColumn(row.values, productsGiven, source);
    planner.add(row);
  }, {
    ignoreExtra: request.ignoreExtra,
    onRepeatedHeader: tellRepeatedHeaders(source, (notice) => messages.notice(notice)),
    // Which column was read as what, and which were left out (--ignore-extra-columns), before any row's error.
    onHeader: (header) => {
      const described = describeHeader(header, source);
      if (described) messages.notice(described);
    },
  });
  const offline = planner.done();
  const collapsed = collapsedNotice(offline);
  if (collapsed) messages.notice(collapsed);
  refuseEmpty(offline.rows.length, source);
  refuseInvalid(offline, source, 'nothing was sent', messages);
  return offline;
}

function refuseInvalid(run: PlannedRun<DesiredCells>, source: string, sent: string, messages: Messages): void {
  if (run.invalid.length === 0) return;
  for (const row of run.invalid) messages.error(`line ${row.line}: ${row.problem}`);
  const all = run.invalid.length === run.rows.length ? `every row of ${source} is invalid` : `${plural(run.invalid.length, 'invalid row')} in ${source}`;
  throw new UsageError(`${all}; ${sent}. A sync takes the whole file as the desired state (a row left out would be revoked): fix ${run.invalid.length === 1 ? 'it' : 'them'} and run again`);
}

/** Product cells (or --product) to ids, each distinct one once, checked against the product list (one read). */
async function resolveRowProducts(api: Api, request: FileSync, offline: PlannedRun<DesiredCells>, source: string, messages: Messages) {
  if (request.products !== undefined) {
    const ids = [];
    for (const product of request.products) ids.push((await resolveProduct(api, product, { argument: '--product', check: true })).id);
    const products = [...new Set(ids)];
    return { rows: desiredRows(offline.todo, products), products };
  }
  const reader = desiredRowReader(false);
  const run = await resolveProducts(reader, offline, (cell) => resolveProduct(api, cell, { argument: 'product_id', check: true }));
  refuseInvalid(run, source, 'nothing was changed', messages);
  const rows = desiredRows(run.todo);
  return { rows, products: productsInScope(rows) };
}
