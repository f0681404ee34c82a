/**
 * Applying a sync plan (from a file just now, or a saved one): confirmation
 * on a terminal (type the number of changes), then the bulk engine through
 * commands/shared/bulk/run.ts applyRun — exactly once, paced, Ctrl-C stops cleanly,
 * results in plan order — and the audit log, every change under one run id.
 */
import type { Api } from '../../api/client.js';
import type { BulkSummary, PlannedRun } from '../../domain/bulk/engine.js';
import type { BulkRowOutcome } from '../../domain/bulk/operations.js';
import { syncOperation, syncRunError } from '../../domain/sync/apply.js';
import { countActions, type PlannedChange } from '../../domain/sync/plan.js';
import type { PlanRecord } from '../../domain/sync/records.js';
import { plural } from '../../lib/values.js';
import { monotonicMs } from '../../lib/time/monotonic.js';
import type { JsonRecord } from '../../output/index.js';
import { syncPlanView, syncResultView } from './views/plan.js';
import type { Session } from '../../session/session.js';
import { TYPE_TO_CONFIRM_ABOVE, applyRun, type RunPresentation } from './bulk/run.js';

/**
 * The plan's records to stdout (or --out), in the output format asked; a
 * table names the products by their `titles`, or leaves the product out when
 * the plan is for one that its summary names (`oneProduct`).
 */
export async function printPlanRecords(session: Session, records: readonly PlanRecord[], titles?: ReadonlyMap<string, string>, oneProduct = false): Promise<void> {
  const output = await session.output();
  try {
    await output.list(records, syncPlanView(titles, oneProduct));
    await output.close();
  } catch (error) {
    await output.abort();
    throw error;
  }
}

/**
 * A plan for one product names it in its summary, so a table on the terminal
 * (without --quiet, which hides the summary) leaves it out and gives the room to the note. Piped, into a file, in
 * another format or with --fields, every column stays: a script or a log
 * without stderr still sees the product.
 */
export const productNamedAbove = (session: Session, products: number) => products === 1 && session.io.stdout.isTTY === true
  && session.globals.out === undefined && session.globals.output === 'table' && session.globals.fields === undefined && !session.globals.quiet;

export const NOTHING_TO_CHANGE = 'Nothing to change.';

export interface ApplySettings {
  source: string;
  reason?: string;
  concurrency: number;
  /** Read each change's state first (a saved plan). */
  verify: boolean;
  /** A saved plan's: the file it was planned from (`stdin`), to plan a stale change again. */
  planSource?: string;
  /** Product titles by id, when the product list was read: the results' table names the products by them. */
  titles?: ReadonlyMap<string, string>;
  /** The plan is for one product, which its summary named: the results' table leaves it out. */
  oneProduct?: boolean;
  /** Another command applying changes of this kind (`subscriptions extend`): its name in the audit log, its question, its summary line. */
  as?: {
    command: string;
    /** Asked y/N, or with the number of changes to type above 20 of them (as a bulk run asks). */
    question: string;
    summaryLine?: RunPresentation['summaryLine'];
    /** The results' table (sync's has the file's line and the action). */
    view?: RunPresentation['view'];
    /** How to finish the work after a failure or an interruption (`run the same sync again` for a sync). */
    again: string;
  };
}

/** Confirms on a terminal (type the number of changes), then applies through the bulk engine and the audit log. */
export async function applyPlan(session: Session, api: Api, changes: readonly PlannedChange[], settings: ApplySettings): Promise<void> {
  const messages = await session.messages();
  if (changes.length === 0) {
    messages.notice(NOTHING_TO_CHANGE);
    return;
  }
  await session.announceChange();
  const { as } = settings;
  // A row whose student is not on the platform is never sent: it is no change to confirm.
  const sent = changes.filter((change) => change.action !== 'not-found').length;
  if (as) await session.confirm(as.question, changes.length > TYPE_TO_CONFIRM_ABOVE ? String(changes.length) : undefined);
  else if (sent > 0) await session.confirm(`Apply ${plural(sent, 'change')} (${describeCounts(changes)})?`, String(sent));
  const rows = changes.map((change) => ({ line: change.line ?? 0, identity: { action: change.action, student: change.student, product_id: change.productId }, plan: change }));
  const run: PlannedRun<PlannedChange> = { rows, invalid: [], todo: rows.map((row, index) => ({ index, line: row.line, plan: row.plan })) };
  const again = as?.again ?? (settings.verify ? 'apply the same plan again (changes already applied come back "skipped")' : 'run the same sync again (it plans only what is left)');
  const replan = settings.verify
    ? `plan again: \`members sync --file ${settings.planSource === 'stdin' ? '-' : settings.planSource} --plan-out ${settings.source}\`, then apply the new plan`
    : again;
  const presentation: RunPresentation = {
    view: as?.view ?? syncResultView(settings.titles, settings.oneProduct), printed, summaryLine: as?.summaryLine ?? summaryLine, runError: (summary, fatal) => syncRunError(summary, fatal, again, replan),
  };
  const recorded = (runId: string) => messages.notice(`Recorded as run ${runId}: \`members history --run ${runId}\` lists its changes, \`members undo ${runId}\` reverses them.`);
  await applyRun(session, {
    op: syncOperation({ verify: settings.verify, command: as?.command, replan }), run, context: { api }, concurrency: settings.concurrency, dryRun: false, reason: settings.reason,
    hooks: { onRecorded: recorded }, terminal: { source: settings.source, output: await session.output(), messages, started: monotonicMs() }, presentation,
  });
}

/** `41 grant, 17 revoke` */
const describeCounts = (changes: readonly PlannedChange[]) =>
  Object.entries(countActions(changes)).filter(([action, n]) => n > 0 && action !== 'not-found').map(([action, n]) => `${n} ${action}`).join(', ');

/** The printed result: revokes have no line in the file. */
const printed = (outcome: BulkRowOutcome): JsonRecord => ({
  line: outcome.line || null, action: outcome.action ?? null, student: outcome.student, product_id: outcome.product_id, result: outcome.result, message: outcome.message,
});

/** `63 changes: 41 granted, 3 restored, 2 expiration changed, 17 revoked, 0 stale, 0 failed in 12.3s` */
function summaryLine(summary: BulkSummary): string {
  const { counts } = summary;
  const changes = summary.processed === summary.rows ? plural(summary.rows, 'change') : `${summary.processed} of ${plural(summary.rows, 'change')}`;
  const parts = [
    `${counts.granted} granted`, `${counts.restored ?? 0} restored`, `${counts['expiration-changed'] ?? 0} expiration changed`, `${counts.revoked} revoked`,
    ...(counts.skipped > 0 ? [`${counts.skipped} already as planned`] : []), `${counts.stale ?? 0} stale`, `${counts.failed} failed`,
  ];
  const note = summary.tripped ? ' (stopped: the server kept failing)' : summary.interrupted ? ' (interrupted)' : '';
  return `${changes}: ${parts.join(', ')} in ${summary.seconds.toFixed(1)}s${note}`;
}
