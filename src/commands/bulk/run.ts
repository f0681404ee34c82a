/**
 * A bulk run (contract §5, bulk forms): read and check EVERY row of the CSV
 * before the first request, confirm as the blast radius asks (contract §1),
 * then apply the rows with a bounded pool over the run's one keep-alive
 * connection pool, and print one result per row in INPUT order, then a
 * summary on stderr.
 *
 * Results are streamed: each is printed as soon as every row before it is
 * done, so a huge file's output flows (json, ndjson, csv) while memory holds
 * only one small record per row. When stdout is a terminal (and no --out) they
 * are printed at the end instead, so they do not tear the progress bar.
 *
 * Confirmation (contract §1 "confirmations scale with the blast radius" and
 * "nothing ever waits for input when stdin is not a TTY"): a run that on a
 * terminal would ask — more than 20 rows (type the row count), or a revoke of
 * any size (y/N up to 20 rows) — needs --yes off a terminal, or when the rows
 * come from stdin (`-`), where there is no terminal to ask on; it then fails
 * with exit 2 before any request. Smaller grant and import runs never ask, on
 * a terminal or off one, so cron runs them as they are. --dry-run never asks.
 *
 * Ctrl-C (or SIGTERM): no new row is started, the rows in flight finish, the
 * rows processed so far are printed (rows never started are not), then the
 * summary, and the run ends with exit 130. A second Ctrl-C quits at once.
 * Re-running the same file applies only what is missing: the cores check the
 * state before changing it, so rows already applied come back `skipped`.
 */
import type { Api } from '../../api/client.js';
import { AuthError, BulkFailedError, CliError, InterruptedError, TransientError, UsageError } from '../../errors.js';
import { assertKnownFields } from '../../output/fields.js';
import type { JsonRecord } from '../../output/view.js';
import type { Session } from '../../session.js';
import type { StudentCache } from '../students/resolve.js';
import { parseCsv, readCsvSource } from './csv.js';
import type { BulkOperation, BulkResult, BulkResultKind, BulkRowOutcome, RowContext } from './operations.js';
import { KeyedQueue, runPool } from './pool.js';

/** Above this many rows, a run on a terminal asks the user to type the row count. */
export const TYPE_TO_CONFIRM_ABOVE = 20;

export interface BulkOptions {
  /** A path, or `-` for stdin. */
  file: string;
  /** Rows in flight at once, 1–32. */
  concurrency: number;
  dryRun: boolean;
  /** Apply the valid rows and report the invalid ones as `failed`, instead of sending nothing. */
  skipInvalid: boolean;
  reason?: string;
}

export interface BulkSummary {
  /** Data rows in the file (blank rows aside), valid or not. */
  rows: number;
  /** Rows with a result (all of them, unless interrupted). */
  processed: number;
  counts: Record<BulkResultKind, number>;
  seconds: number;
  interrupted: boolean;
  dryRun: boolean;
}

/** Everything a run did: what the audit log records. */
export interface BulkReport {
  /** `students grant`, `students revoke`, `students import`. */
  command: string;
  /** `stdin` or the path as given. */
  source: string;
  reason?: string;
  dryRun: boolean;
  /** One per processed row, in input order; `change` holds the grant/revoke core's ChangeOutcome. */
  outcomes: BulkRowOutcome[];
  summary: BulkSummary;
}

export interface BulkHooks {
  /**
   * Called once when a run that started sending ends — all done, some rows
   * failed, interrupted, or stopped by a fatal error — after the results and
   * the summary are printed and before the run's error is thrown. Not called
   * when nothing was sent (invalid rows, confirmation refused). A dry run
   * calls it too (`report.dryRun`).
   */
  onFinish?(report: BulkReport): void | Promise<void>;
}

interface CheckedRow<Plan> {
  line: number;
  identity: Pick<BulkResult, 'student' | 'product_id'>;
  plan?: Plan;
  problem?: string;
}

/** Reads, checks, confirms, applies and prints; returns the report, or throws after printing (exit 7, 130, …). */
export async function runBulk<Plan>(
  session: Session, op: BulkOperation<Plan>, options: BulkOptions, hooks: BulkHooks = {},
): Promise<BulkReport> {
  const { io, globals } = session;
  if (globals.fields) assertKnownFields(SAMPLE_RESULT, globals.fields, op.view);
  const source = options.file === '-' ? 'stdin' : options.file;
  const messages = await session.messages();
  if (options.file === '-' && io.stdin.isTTY) messages.notice('Reading the CSV from the terminal; end it with Ctrl-D…');
  const rows = checkRows(op, await parseCsv(await readCsvSource(io, options.file), op.columns, source), new Date());

  const invalid = rows.filter((row) => row.problem !== undefined);
  if (invalid.length > 0 && !options.skipInvalid) {
    for (const row of invalid) messages.error(`line ${row.line}: ${row.problem}`);
    throw new UsageError(
      `${plural(invalid.length, 'invalid row')} in ${source}; nothing was sent. Fix ${invalid.length === 1 ? 'it' : 'them'}, or pass --skip-invalid to apply the other rows`,
    );
  }
  const todo = rows.flatMap((row, index) => (row.plan === undefined ? [] : [{ index, line: row.line, plan: row.plan }]));

  // Everything that can refuse the run does so before any request.
  const ask = !options.dryRun && todo.length > 0 && (op.destructive || todo.length > TYPE_TO_CONFIRM_ABOVE);
  const question = op.question(todo.length, source);
  if (ask && !globals.yes && (options.file === '-' || !io.stdin.isTTY)) {
    const where = options.file === '-' ? 'the rows come from stdin' : 'stdin is not a terminal';
    throw new UsageError(`${question.replace(/\?$/, '')}: confirmation needed but ${where}; pass --yes to proceed`);
  }
  const api = todo.length > 0 ? await session.api() : undefined;
  const output = await session.output();
  let printing = false;
  try {
    if (ask) {
      await session.announceChange();
      await session.confirm(question, todo.length > TYPE_TO_CONFIRM_ABOVE ? String(todo.length) : undefined);
    } else if (!options.dryRun && todo.length > 0) {
      await session.announceChange();
    }
    printing = true;
    return await apply(session, op, options, hooks, { rows, todo, api, source, output, messages });
  } catch (error) {
    // Once results are being printed, the output is kept: it says what was done.
    if (!printing) await output.abort();
    throw error;
  }
}

/** Checks every row offline: its own cells, then duplicates of an earlier row. */
function checkRows<Plan>(op: BulkOperation<Plan>, rows: Awaited<ReturnType<typeof parseCsv>>, now: Date): CheckedRow<Plan>[] {
  const firstLine = new Map<string, number>();
  return rows.map((row): CheckedRow<Plan> => {
    const identity = op.identify(row.values);
    if (row.problem !== undefined) return { line: row.line, identity, problem: row.problem };
    let plan: Plan;
    try {
      plan = op.plan(row.values, now);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return { line: row.line, identity, problem: error.message };
    }
    const key = op.key(plan);
    const earlier = firstLine.get(key);
    if (earlier !== undefined) return { line: row.line, identity, problem: `duplicate of line ${earlier} (${op.sameWhat})` };
    firstLine.set(key, row.line);
    return { line: row.line, identity, plan };
  });
}

interface RunState<Plan> {
  rows: CheckedRow<Plan>[];
  todo: Array<{ index: number; line: number; plan: Plan }>;
  api: Api | undefined;
  source: string;
  output: Awaited<ReturnType<Session['output']>>;
  messages: Awaited<ReturnType<Session['messages']>>;
}

async function apply<Plan>(
  session: Session, op: BulkOperation<Plan>, options: BulkOptions, hooks: BulkHooks, state: RunState<Plan>,
): Promise<BulkReport> {
  const { io, globals } = session;
  const { rows, todo, api, output, messages } = state;
  const results: Array<BulkRowOutcome | undefined> = rows.map((row) =>
    row.problem === undefined ? undefined : { line: row.line, ...row.identity, result: 'failed', message: `invalid row: ${row.problem}`, reason: options.reason });

  const started = performance.now();
  let stopping = false;
  let interrupted = false;
  let fatal: unknown;
  let settled = false;
  const wake = new Wake();

  const removers: Array<(() => void) | undefined> = [];
  const removeListeners = () => removers.splice(0).forEach((remove) => remove?.());
  const onSignal = () => {
    if (stopping) return;
    stopping = interrupted = true;
    // A second Ctrl-C finds no handler of ours: the process quits at once.
    removeListeners();
    messages.notice('Stopping: finishing the rows in flight (Ctrl-C again to quit at once; their results would then be unknown)…');
  };
  removers.push(io.onInterrupt(onSignal), io.onTerminate?.(onSignal));

  const progress = await messages.progress(todo.length);
  const context: RowContext | undefined = api && {
    api, cache: new Map() as StudentCache, queue: new KeyedQueue(), dryRun: options.dryRun, reason: options.reason,
  };
  const pool = runPool(todo.length, options.concurrency, async (i) => {
    const row = todo[i] as (typeof todo)[number];
    const outcome = await applyRow(op, context as RowContext, row.plan, rows[row.index]?.identity);
    results[row.index] = { line: row.line, ...outcome };
    if (outcome.result === 'failed' && isFatal(outcome.error)) {
      fatal ??= outcome.error;
      stopping = true;
    }
    progress.tick();
    wake.notify();
  }, () => stopping).finally(() => {
    settled = true;
    // Before any table reaches the terminal.
    progress.stop();
    wake.notify();
  });

  async function* inOrder(): AsyncGenerator<JsonRecord> {
    for (let i = 0; i < results.length; i++) {
      while (results[i] === undefined && !settled) await wake.next();
      const result = results[i];
      if (result) yield printed(result);
    }
  }

  try {
    // On a terminal, results wait for the end rather than tear the progress bar.
    if (io.stdout.isTTY && !globals.out) await pool;
    await output.list(inOrder(), op.view);
    await pool;
  } catch (error) {
    stopping = true;
    await pool;
    removeListeners();
    await output.abort();
    throw error;
  }
  removeListeners();
  await output.close();

  const outcomes = results.filter((result): result is BulkRowOutcome => result !== undefined);
  const applied = todo.filter((row) => results[row.index] !== undefined).length;
  const summary: BulkSummary = {
    rows: rows.length,
    processed: outcomes.length,
    counts: countResults(outcomes),
    seconds: (performance.now() - started) / 1000,
    interrupted: interrupted && applied < todo.length,
    dryRun: options.dryRun,
  };
  messages.notice(summaryLine(op, summary));
  const report: BulkReport = { command: op.command, source: state.source, reason: options.reason, dryRun: options.dryRun, outcomes, summary };
  await hooks.onFinish?.(report);

  if (fatal !== undefined) throw fatal;
  if (summary.interrupted) {
    throw new InterruptedError(
      `interrupted after ${summary.processed} of ${plural(summary.rows, 'row')}; run the same file again to apply the rest (rows already applied come back skipped)`,
    );
  }
  const failed = summary.counts.failed;
  if (failed > 0) {
    throw new BulkFailedError(
      `${failed} of ${plural(summary.rows, 'row')} failed (result "failed" in the output, with the reason); fix the cause and run the same file again: rows already applied come back skipped`,
    );
  }
  return report;
}

/** One row, never rejecting: a failure becomes a `failed` result with the reason. */
async function applyRow<Plan>(
  op: BulkOperation<Plan>, context: RowContext, plan: Plan, identity: Pick<BulkResult, 'student' | 'product_id'> | undefined,
): Promise<Omit<BulkRowOutcome, 'line'>> {
  try {
    return await op.apply(context, plan);
  } catch (error) {
    return {
      student: identity?.student ?? '', product_id: identity?.product_id ?? '', result: 'failed',
      message: failureMessage(error), reason: context.reason, error,
    };
  }
}

/** One line (a table cell, a csv cell): the server's field errors come on lines of their own. */
function failureMessage(error: unknown): string {
  if (!(error instanceof CliError)) return `unexpected error: ${(error as Error)?.message ?? String(error)}`;
  const message = error.message.replace(/\s*\n\s*/g, ' ');
  // Re-running is safe: every row checks the state before changing it.
  return error instanceof TransientError ? `${message}; running the same file again retries only what is missing` : message;
}

/** A refused token fails every row alike, and a bug is a bug: stop taking rows. */
const isFatal = (error: unknown) => error instanceof AuthError || !(error instanceof CliError);

/** The printed record: exactly the contract's fields, in its order. */
const printed = ({ line, student, product_id, result, message }: BulkResult): JsonRecord => ({ line, student, product_id, result, message });

const SAMPLE_RESULT: JsonRecord = { line: 2, student: '', product_id: '', result: 'skipped', message: '' };

function countResults(outcomes: BulkRowOutcome[]): Record<BulkResultKind, number> {
  const counts: Record<BulkResultKind, number> = { granted: 0, revoked: 0, created: 0, skipped: 0, failed: 0 };
  for (const outcome of outcomes) counts[outcome.result]++;
  return counts;
}

/** `1000 rows: 990 granted, 8 skipped, 2 failed in 12.3s` */
export function summaryLine(op: Pick<BulkOperation<unknown>, 'done'>, summary: BulkSummary): string {
  const { counts } = summary;
  const rows = summary.processed === summary.rows ? plural(summary.rows, 'row') : `${summary.processed} of ${plural(summary.rows, 'row')}`;
  const notes = [summary.interrupted ? 'interrupted' : '', summary.dryRun ? 'dry run: nothing was sent' : ''].filter(Boolean);
  return `${rows}: ${counts[op.done]} ${op.done}, ${counts.skipped} skipped, ${counts.failed} failed in ${summary.seconds.toFixed(1)}s`
    + (notes.length > 0 ? ` (${notes.join('; ')})` : '');
}

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

/** Wakes whoever waits in next() whenever notify() is called. */
class Wake {
  private resolve: () => void = () => undefined;
  private promise = this.renew();

  private renew(): Promise<void> {
    return new Promise<void>((resolve) => (this.resolve = resolve));
  }

  next(): Promise<void> {
    return this.promise;
  }

  notify(): void {
    this.resolve();
    this.promise = this.renew();
  }
}
