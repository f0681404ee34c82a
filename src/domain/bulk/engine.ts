/**
 * The bulk engine, apart from any terminal: check every row offline, then
 * apply the valid ones with a bounded pool, serving their results in INPUT
 * order as soon as every row before them is done, and sum up the run.
 * commands/bulk/run.ts adapts it to the terminal (confirmation, progress,
 * signals, output, audit).
 */
import { AuthError, BulkFailedError, CliError, ExitCode, InterruptedError, RecordUnavailableError, TransientError, UsageError } from '../../lib/errors.js';
import { plural, pluralWord } from '../../lib/values.js';
import { StudentCache } from '../resolve.js';
import type { Named } from '../names.js';
import type { ReadPlan } from '../read-plan.js';
import type { BulkOperation, BulkResultKind, BulkRowOutcome, RowContext, RowReader } from './operations.js';
import { InOrder, KeyedQueue, runPool } from './pool.js';
import { SeenKeys } from './seen-keys.js';

/** A parsed data row: its line in the file, its cells by column, and a structural problem if any. */
export interface ParsedRow {
  line: number;
  values: Record<string, string>;
  problem?: string;
}

export interface CheckedRow<Plan> {
  line: number;
  /** What a result names, failed or not (a sync's changes add their action). */
  identity: Pick<BulkRowOutcome, 'student' | 'product_id' | 'action'>;
  plan?: Plan;
  problem?: string;
  /** The same as this earlier line, cell for cell: left out of the run. */
  sameAs?: number;
}

export interface PlannedRun<Plan> {
  rows: CheckedRow<Plan>[];
  /** Lines left out as the same as an earlier row, cell for cell (an export that arrived twice). */
  collapsed?: number[];
  invalid: CheckedRow<Plan>[];
  /** The valid rows, with their index in `rows`. */
  todo: Array<{ index: number; line: number; plan: Plan }>;
}

/** Checks every row offline: its own cells, then duplicates of an earlier row. */
export function planRun<Plan>(op: RowReader<Plan>, parsed: Iterable<ParsedRow>, now: Date): PlannedRun<Plan> {
  const planner = new RunPlanner(op, now);
  for (const row of parsed) planner.add(row);
  return planner.done();
}

/**
 * planRun one row at a time, as the reader hands them over: a 1,000,000-row
 * file is never held as cells and as plans at once.
 */
export class RunPlanner<Plan> {
  private readonly rows: CheckedRow<Plan>[] = [];
  private readonly check: (row: ParsedRow) => CheckedRow<Plan>;

  constructor(op: RowReader<Plan>, now: Date) {
    this.check = rowChecker(op, now);
  }

  add(row: ParsedRow): void {
    this.rows.push(this.check(row));
  }

  done(): PlannedRun<Plan> {
    return planned(this.rows);
  }
}

/**
 * Checks rows one at a time, as planRun does, holding only the duplicate
 * check's compact keys: the first pass over a file, which refuses it before
 * anything is held of its rows.
 */
export function rowChecker<Plan>(op: RowReader<Plan>, now: Date): (row: ParsedRow) => CheckedRow<Plan> {
  const unique = deduplicator(op);
  return (row) => unique(checkRow(op, row, now), row.values);
}

function checkRow<Plan>(op: RowReader<Plan>, row: ParsedRow, now: Date): CheckedRow<Plan> {
  const identity = op.identify(row.values);
  if (row.problem !== undefined) return { line: row.line, identity, problem: row.problem };
  try {
    return { line: row.line, identity, plan: op.plan(row.values, now) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { line: row.line, identity, problem: error.message };
  }
}

/**
 * A row that does what an earlier one does is a problem of its own (it would
 * be applied twice), unless it is that row again cell for cell (an export
 * that arrived twice): then it is left out (`sameAs`). Rows that disagree
 * (the same student and product, other dates) stay a problem.
 */
function deduplicator<Plan>(op: RowReader<Plan>): (row: CheckedRow<Plan>, values?: Readonly<Record<string, string>>) => CheckedRow<Plan> {
  const seen = new SeenKeys();
  const whole = new SeenKeys();
  return (row, values) => {
    if (row.plan === undefined) return row;
    const key = op.key(row.plan);
    const earlier = seen.firstLine(key, row.line);
    const same = values === undefined ? undefined : whole.firstLine(`${key}\0${JSON.stringify(Object.entries(values))}`, row.line);
    if (earlier === undefined) return row;
    if (same !== undefined) return { line: row.line, identity: row.identity, sameAs: same };
    return { line: row.line, identity: row.identity, problem: `duplicate of line ${earlier} (${op.sameWhat})` };
  };
}

function planned<Plan>(checked: CheckedRow<Plan>[]): PlannedRun<Plan> {
  const rows = checked.filter((row) => row.sameAs === undefined);
  const invalid = rows.filter((row) => row.problem !== undefined);
  const todo = rows.flatMap((row, index) => (row.plan === undefined ? [] : [{ index, line: row.line, plan: row.plan }]));
  const collapsed = checked.flatMap((row) => (row.sameAs === undefined ? [] : [row.line]));
  return { rows, invalid, todo, ...(collapsed.length > 0 ? { collapsed } : {}) };
}

/** `3 duplicate rows ignored (the same as an earlier row: lines 5, 9, 12)`, when an export arrived twice. */
export function collapsedNotice(run: Pick<PlannedRun<unknown>, 'collapsed'>): string | undefined {
  const lines = run.collapsed ?? [];
  if (lines.length === 0) return undefined;
  const listed = lines.length > 10 ? `${lines.slice(0, 10).join(', ')}…` : lines.join(', ');
  return `${plural(lines.length, 'duplicate row')} ignored (the same as an earlier row, cell for cell: ${pluralWord(lines.length, 'line')} ${listed})`;
}

const withoutDuplicates = <Plan>(op: RowReader<Plan>, checked: CheckedRow<Plan>[]): PlannedRun<Plan> => {
  const unique = deduplicator(op);
  return planned(checked.map((row) => unique(row)));
};

/**
 * Resolves every distinct product cell once (an id, a title, a prefix: see
 * domain/names.ts) before anything is changed; a cell naming no product, or
 * several, makes its rows invalid with the candidates. Rows that turn out to
 * name the same product twice become duplicates.
 */
export async function resolveProducts<Plan>(
  op: RowReader<Plan>, run: PlannedRun<Plan>, resolve: (cell: string) => Promise<Named>,
): Promise<PlannedRun<Plan>> {
  const products = op.products;
  if (!products) return run;
  const cells = [...new Set(run.todo.map((row) => products.of(row.plan)))];
  const settled = await Promise.all(cells.map(async (cell) => {
    try {
      return [cell, await resolve(cell)] as const;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return [cell, error] as const;
    }
  }));
  const resolved = new Map<string, Named | UsageError>(settled);
  const { collapsed } = run;
  return { ...withoutDuplicates(op, run.rows.map((row) => {
    if (row.plan === undefined) return row;
    const product = resolved.get(products.of(row.plan));
    if (product instanceof UsageError) return { line: row.line, identity: row.identity, problem: oneLine(product.message) };
    // Results name the product by its id, failed rows too, whatever the cell said; messages by its title too.
    return { ...row, identity: { ...row.identity, product_id: (product as Named).id }, plan: products.with(row.plan, product as Named) };
  })), ...(collapsed ? { collapsed } : {}) };
}

export interface RunSettings {
  concurrency: number;
  dryRun: boolean;
  reason?: string;
  /** Called as each row is done, in completion order (progress, the audit log). */
  onRow?(outcome: BulkRowOutcome): void;
}

export interface Execution {
  /** Every row's outcome (invalid rows too) in input order, each as soon as the rows before it are done. */
  inOrder(): AsyncGenerator<BulkRowOutcome>;
  /** Settles when no row is in flight any more. */
  readonly settled: Promise<void>;
  /** No new row starts; the rows in flight finish. */
  stop(): void;
  /** A failure that stopped the run (a refused token, a bug), if any. */
  readonly fatal: unknown;
  /** Rows kept failing for transient reasons one after another: the run stopped taking rows (circuit breaker). */
  readonly tripped: boolean;
  /** The outcomes so far, in input order. */
  outcomes(): BulkRowOutcome[];
  /** Valid rows that were never started. */
  notStarted(): number;
}

/** Starts applying the valid rows of `run`; `api`-less runs (nothing to do) settle at once. */
export function execute<Plan>(op: Pick<BulkOperation<Plan>, 'apply'>, run: PlannedRun<Plan>, context: Omit<RowContext, 'cache' | 'queue' | 'dryRun' | 'reason'> | undefined, settings: RunSettings): Execution {
  const { rows, todo } = run;
  const results = new InOrder<BulkRowOutcome>(rows.length);
  rows.forEach((row, index) => {
    if (row.problem !== undefined) results.set(index, { line: row.line, ...row.identity, result: 'failed', message: `invalid row: ${row.problem}`, reason: settings.reason });
  });
  let stopping = false;
  let fatal: unknown;
  // A server that is down fails every row alike: after this many in a row, stop instead of spending each row's retries.
  const breakAfter = Math.max(8, settings.concurrency * 2);
  let transientInARow = 0;
  let tripped = false;
  const rowContext: RowContext | undefined = context && { ...context, dryRun: settings.dryRun, reason: settings.reason, cache: new StudentCache(), queue: new KeyedQueue() };

  const pool = runPool(todo.length, settings.concurrency, async (i) => {
    const row = todo[i] as (typeof todo)[number];
    const context = rowContext && { ...rowContext, journal: rowContext.journal?.with({ line: row.line }) };
    const outcome = { line: row.line, ...await applyRow(op, context as RowContext, row.plan, (rows[row.index] as CheckedRow<Plan>).identity) };
    results.set(row.index, outcome);
    // Only a failed row carries an error; one failed without (a sync row naming nobody on the platform: nothing was sent) is no bug.
    if ('error' in outcome && isFatal(outcome.error)) {
      fatal ??= outcome.error;
      stopping = true;
    }
    transientInARow = outcome.error instanceof TransientError ? transientInARow + 1 : 0;
    if (transientInARow >= breakAfter && !stopping) stopping = tripped = true;
    settings.onRow?.(outcome);
  }, () => stopping).finally(() => results.end());

  return {
    inOrder: () => results[Symbol.asyncIterator](),
    settled: pool,
    stop: () => void (stopping = true),
    get fatal() {
      return fatal;
    },
    get tripped() {
      return tripped;
    },
    outcomes: () => results.known(),
    notStarted: () => todo.filter((row) => !results.has(row.index)).length,
  };
}

/** One row, never rejecting: a failure becomes a `failed` result with the reason. */
async function applyRow<Plan>(
  op: Pick<BulkOperation<Plan>, 'apply'>, context: RowContext, plan: Plan, identity: CheckedRow<Plan>['identity'],
): Promise<Omit<BulkRowOutcome, 'line'>> {
  try {
    return await op.apply(context, plan);
  } catch (error) {
    return {
      ...identity, result: 'failed',
      message: failureMessage(error), reason: context.reason, error,
    };
  }
}

/** One line (a table cell, a csv cell): the server's field errors come on lines of their own. */
function failureMessage(error: unknown): string {
  if (!(error instanceof CliError)) return `unexpected error: ${(error as Error)?.message ?? String(error)}`;
  const message = oneLine(error.message);
  // Re-running is safe: every row checks the state before changing it.
  return error instanceof TransientError ? `${message}; running the same file again retries only what is missing` : message;
}

/** A refused token fails every row alike, and a bug is a bug: stop taking rows. */
/** A refused token, a change record that cannot be written (no change is sent unrecorded), a bug: the run stops. */
const isFatal = (error: unknown) => error instanceof AuthError || error instanceof RecordUnavailableError || !(error instanceof CliError);

/** Rows by result: the results of grant, revoke and import always, the others (sync's) when some row had them. */
export type BulkCounts = Record<'granted' | 'revoked' | 'renewed' | 'created' | 'skipped' | 'failed', number> & Partial<Record<BulkResultKind, number>>;

export interface BulkSummary {
  /** Data rows in the file (blank rows aside), valid or not. */
  rows: number;
  /** Rows with a result (all of them, unless interrupted). */
  processed: number;
  counts: BulkCounts;
  seconds: number;
  interrupted: boolean;
  dryRun: boolean;
  /** Every failed row failed for a transient reason (429, 5xx, network, timeout): exit 6, not 7 (contract §9.6). */
  transientOnly: boolean;
  /** The run stopped early: rows kept failing transiently one after another. */
  tripped: boolean;
  /** How the state was read before the changes, and why (domain/read-plan.ts). */
  reads?: Pick<ReadPlan, 'strategy' | 'reason'>;
}

export function summarize(
  run: PlannedRun<unknown>, execution: Execution, facts: { seconds: number; interrupted: boolean; dryRun: boolean; reads?: BulkSummary['reads'] },
): BulkSummary {
  const outcomes = execution.outcomes();
  const counts: BulkCounts = { granted: 0, revoked: 0, renewed: 0, created: 0, skipped: 0, failed: 0 };
  for (const outcome of outcomes) counts[outcome.result] = (counts[outcome.result] ?? 0) + 1;
  return {
    rows: run.rows.length,
    processed: outcomes.length,
    counts,
    seconds: facts.seconds,
    interrupted: facts.interrupted && execution.notStarted() > 0,
    dryRun: facts.dryRun,
    transientOnly: outcomes.every((outcome) => outcome.result !== 'failed' || outcome.error instanceof TransientError),
    tripped: execution.tripped,
    ...(facts.reads ? { reads: { strategy: facts.reads.strategy, reason: facts.reads.reason } } : {}),
  };
}

const TO_DO = { granted: 'to grant', revoked: 'to revoke', created: 'to create', renewed: 'to renew' } as const;

/** `1000 rows: 990 granted, 8 skipped, 2 failed in 12.3s (read 20 pages instead of 1,874 lookups)`; a dry run's `990 to grant`. */
export function summaryLine(op: Pick<BulkOperation<unknown>, 'done'>, summary: BulkSummary): string {
  const { counts } = summary;
  const rows = summary.processed === summary.rows ? plural(summary.rows, 'row') : `${summary.processed} of ${plural(summary.rows, 'row')}`;
  const notes = [
    summary.reads?.reason ?? '',
    summary.tripped ? 'stopped: the server kept failing' : summary.interrupted ? 'interrupted' : '',
    summary.dryRun ? 'dry run: nothing was sent' : '',
  ].filter(Boolean);
  // A dry run counts what would be done, not what was.
  const said = (done: keyof typeof TO_DO) => (summary.dryRun ? TO_DO[done] : done);
  const renewed = counts.renewed > 0 ? `, ${counts.renewed} ${said('renewed')}` : '';
  const stale = counts.stale ? `, ${counts.stale} stale` : '';
  return `${rows}: ${counts[op.done]} ${said(op.done)}${renewed}, ${counts.skipped} skipped${stale}, ${counts.failed} failed in ${summary.seconds.toFixed(1)}s`
    + (notes.length > 0 ? ` (${notes.join('; ')})` : '');
}

/** A message of several lines as one cell: a line that ends no sentence gets its full stop (`… (GET …). Did you mean …`). */
export const oneLine = (text: string) => text.trim().split(/\s*\n\s*/).map((line, i, lines) => (i < lines.length - 1 && !/[.:;?!]\)?$/.test(line) ? `${line}.` : line)).join(' ');

/** How a finished run ends: its fatal error, an interruption (exit 130), failed rows (exit 7), or undefined for success. */
export function runError(summary: BulkSummary, fatal: unknown): unknown {
  if (fatal !== undefined) return fatal;
  if (summary.interrupted) {
    return new InterruptedError(
      `interrupted after ${summary.processed} of ${plural(summary.rows, 'row')}; run the same file again to apply the rest (rows already applied come back skipped)`,
    );
  }
  const failed = summary.counts.failed;
  if (summary.tripped) {
    return new CliError(
      `stopped after ${summary.processed} of ${plural(summary.rows, 'row')}: the last rows all failed for a transient reason (the server is down or rate limiting); try again later with the same file: rows already applied come back skipped`,
      ExitCode.transient,
    );
  }
  const stale = summary.counts.stale ?? 0;
  if (failed > 0 && stale === 0 && summary.transientOnly) {
    return new CliError(
      `${failed} of ${plural(summary.rows, 'row')} failed, all for a transient reason (429, 5xx, network, timeout); run the same file again later: rows already applied come back skipped`,
      ExitCode.transient,
    );
  }
  if (failed > 0) {
    return new BulkFailedError(
      `${failed} of ${plural(summary.rows, 'row')} failed (result "failed" in the output, with the reason); fix the cause and run the same file again: rows already applied come back skipped`,
    );
  }
  if (stale > 0) {
    return new BulkFailedError(
      `${stale} of ${plural(summary.rows, 'row')} ${stale === 1 ? 'was' : 'were'} stale: the subscription changed since the run read it, and nothing was sent for ${stale === 1 ? 'it' : 'them'} `
        + '(result "stale" in the output, with the state now); look at them, then run the same file again if the change is still wanted',
    );
  }
  return undefined;
}
