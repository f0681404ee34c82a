/**
 * A bulk run (contract §9): read and check EVERY row of the CSV
 * before the first request, confirm as the blast radius asks (contract §9.4),
 * then apply the rows with a bounded pool over the run's one keep-alive
 * connection pool, and print one result per row in INPUT order, then a
 * summary on stderr.
 *
 * Results are streamed: each is printed as soon as every row before it is
 * done, so a huge file's output flows (json, ndjson, csv) while memory holds
 * only one small record per row. When stdout is a terminal (and no --out) they
 * are printed at the end instead, so they do not tear the progress bar.
 *
 * Confirmation (contract §1.1 "confirmations scale with the blast radius" and
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
 *
 * Reads (issue 28): after the confirmation and before the first change, the
 * state is read the cheaper way, row by row or as one snapshot of the student
 * list (`--strategy`, domain/bulk/reads.ts); -v and the summary line say
 * which and why. Ctrl-C while the list is read stops the run, nothing sent.
 */
import { CliError, ExitCode, InterruptedError, StdoutClosedError, UsageError } from '../../../lib/errors.js';
import type { Api } from '../../../api/client.js';
import { chooseReads, type BulkReads } from '../../../domain/bulk/reads.js';
import type { StrategyChoice } from '../../../domain/read-plan.js';
import {
  RunPlanner, collapsedNotice, execute, resolveProducts, rowChecker, runError, summarize, summaryLine, type BulkSummary, type PlannedRun,
} from '../../../domain/bulk/engine.js';
import { readsProductList, resolveProduct, type Named } from '../../../domain/names.js';
import type { BulkOperation, BulkResult, BulkRowOutcome, RowContext } from '../../../domain/bulk/operations.js';
import { assertKnownFields } from '../../../output/fields.js';
import type { JsonRecord, Output, View } from '../../../output/index.js';
import type { Messages } from '../../../output/messages.js';
import type { RunSummaryFacts, Session } from '../../../session/session.js';
import { plural } from '../../../lib/values.js';
import { quitAtOnce } from '../../../lib/io.js';
import { bulkResultView } from '../views/bulk.js';
import { describeHeader, tellRepeatedHeaders, readCsvRows, readCsvSource, type CsvInput, type CsvOptions } from '../../../domain/bulk/csv.js';
import { monotonicMs } from '../../../lib/time/monotonic.js';
import { openRun } from '../../../audit/journal.js';
import { refuseOutputOverInput } from '../input-output.js';
import type { HeldLease } from '../../../audit/leases.js';
import { takeLease } from '../lease.js';
import { auditBaseUrl } from '../../../audit/stamp.js';
import { inputKey, resumeRun, type DoneRow } from '../each/resume.js';

export type { BulkSummary } from '../../../domain/bulk/engine.js';

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
  renew?: boolean;
  /** grant --file --include-status-changes: a renewal may reset a status. */
  includeStatusChanges?: boolean;
  /** How the state is read before the changes (`--strategy`). */
  strategy: StrategyChoice;
  /** `--ignore-extra-columns`: columns of the file that are no bulk column are left out, and listed. */
  ignoreExtra?: boolean;
  /** `--wait`: how long to wait for another run's lease on the same products (ms); none: 0. */
  waitMs?: number;
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
  /** Called after onFinish with the run's audit id, when any of its changes was recorded (`members sync` names it). */
  onRecorded?(runId: string): void | Promise<void>;
}

/** Reads, checks, confirms, applies and prints; returns the report, or throws after printing (exit 7, 130, …). */
export async function runBulk<Plan>(
  session: Session, op: BulkOperation<Plan>, options: BulkOptions, hooks: BulkHooks = {},
): Promise<BulkReport> {
  const { io, globals } = session;
  const view = bulkResultView(op);
  if (globals.fields) assertKnownFields(SAMPLE_RESULT, globals.fields, view);
  const source = options.file === '-' ? 'stdin' : options.file;
  refuseOutputOverInput(io.cwd, options.file, [['--out', globals.out]]);
  const messages = await session.messages();
  if (options.file === '-' && io.stdin.isTTY) messages.notice('Reading the CSV from the terminal; end it with Ctrl-D…');
  const input = await readCsvSource(io, options.file);
  const now = new Date();
  let told = false;
  const csv: CsvOptions = {
    ignoreExtra: options.ignoreExtra,
    onRepeatedHeader: tellRepeatedHeaders(source, (notice) => messages.notice(notice)),
    // Which column was read as what, when the file names them its own way (a spreadsheet export): said once, before any row's error.
    onHeader: (header) => {
      const described = told ? undefined : describeHeader(header, source);
      told = true;
      if (described) messages.notice(described);
    },
  };
  const refusal = (invalid: number, sent: string) => new UsageError(
    `${plural(invalid, 'invalid row')} in ${source}; ${sent}. Fix ${invalid === 1 ? 'it' : 'them'}, or pass --skip-invalid to apply the other rows`,
  );
  // First pass: every row checked as it is read, holding only the duplicate check's compact keys, so
  // that a huge file with one bad row is refused in the memory of a small one.
  if (!options.skipInvalid) {
    const check = rowChecker(op, now);
    let invalid = 0;
    const collapsed: number[] = [];
    await readCsvRows(input, op.columns, source, (row) => {
      const checked = check(row);
      if (checked.sameAs !== undefined) collapsed.push(checked.line);
      if (checked.problem === undefined) return;
      invalid++;
      messages.error(`line ${checked.line}: ${checked.problem}`);
    }, csv);
    if (invalid > 0) {
      const notice = collapsedNotice({ collapsed });
      if (notice) messages.notice(notice);
      throw refusal(invalid, 'nothing was sent');
    }
  }
  // Second pass: the file again, each row planned as it is read (its cells are never all held beside their plans).
  const planner = new RunPlanner(op, now);
  await readCsvRows(input, op.columns, source, (row) => planner.add(row), csv);
  const offline = planner.done();
  const collapsed = collapsedNotice(offline);
  if (collapsed) messages.notice(collapsed);
  const products = op.products;
  // A dry run checks ids too, and a question names the products by title: both read the product list.
  const ask = !options.dryRun && offline.todo.length > 0 && (op.destructive || offline.todo.length > TYPE_TO_CONFIRM_ABOVE);
  const readList = options.dryRun || (ask && !globals.yes);
  const needsProductList = products !== undefined && offline.todo.some((row) => readsProductList(products.of(row.plan), readList));
  const refuseInvalid = (checked: PlannedRun<Plan>, sent: string) => {
    if (checked.invalid.length === 0 || options.skipInvalid) return;
    for (const row of checked.invalid) messages.error(`line ${row.line}: ${row.problem}`);
    throw refusal(checked.invalid.length, sent);
  };

  // Everything that can refuse the run does so before any request.
  if (ask && !globals.yes && (options.file === '-' || !io.stdin.isTTY)) {
    const where = options.file === '-' ? 'the rows come from stdin' : 'stdin is not a terminal';
    throw new UsageError(`${op.question(offline.todo.length, source).replace(/\?$/, '')}: confirmation needed but ${where}; pass --yes to proceed`);
  }
  const api = offline.todo.length > 0 ? await session.api() : undefined;
  // Product titles become ids (a dry run checks ids too) before anything changes: only GETs so far.
  const named = new Map<string, Named>();
  const run = api
    ? await resolveProducts(op, offline, async (cell) => {
      const product = await resolveProduct(api, cell, { argument: 'product_id', check: readList });
      named.set(product.id, product);
      return product;
    })
    : offline;
  refuseInvalid(run, 'nothing was changed');
  const { todo } = run;
  const question = op.question(todo.length, source, products && [...new Set(todo.map((row) => products.of(row.plan)))].map((id) => named.get(id) ?? { id, title: '' }));
  const output = await session.output();
  let printing = false;
  let lease: HeldLease | undefined;
  try {
    if (ask) {
      await session.announceChange();
      await session.confirm(question, todo.length > TYPE_TO_CONFIRM_ABOVE ? String(todo.length) : undefined);
    } else if (!options.dryRun && todo.length > 0) {
      await session.announceChange();
    }
    // Before the state is read, on the products the rows may change (an import: the platform's students, every product).
    if (api && todo.length > 0 && !options.dryRun) {
      const scope = products ? todo.map((row) => products.of(row.plan)) : 'all';
      lease = await takeLease(session, { products: scope, command: bulkCommand(op.command), waitMs: options.waitMs ?? 0 });
    }
    const started = monotonicMs();
    const reads = api && todo.length > 0 ? await readState(session, { api, op, run, strategy: options.strategy, needsProductList, messages }) : undefined;
    printing = true;
    // A dry run gets a client that refuses anything but GET: read-only by construction, not by care.
    const context = api && {
      api: options.dryRun ? api.reading() : api, renew: options.renew, includeStatusChanges: options.includeStatusChanges, snapshot: reads?.snapshot, spelling: { value: reads?.spelling },
    };
    const titles = new Map([...named.values()].map((product) => [product.id, product.title]));
    const resumed = api && todo.length > 0 && !options.dryRun ? await resumeBulk(session, op.command, options, input) : undefined;
    if (resumed?.runId !== undefined) messages.notice(`run ${resumed.runId} of the same command on the same file was cut short: continued now under its id (the rows it applied come back skipped)`);
    return await applyRun(session, {
      op, run, context, concurrency: options.concurrency, dryRun: options.dryRun, reason: options.reason, hooks,
      terminal: { source, output, messages, started }, presentation: bulkPresentation(op, titles), reads, resumed,
    });
  } catch (error) {
    // Once results are being printed, the output is kept: it says what was done.
    if (!printing) await output.abort();
    throw error;
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

/**
 * A bulk run killed before it recorded itself (SIGKILL, a crash) is continued by the same command on the same
 * file: its id goes on, so one `members undo RUN` reverses both attempts. The rows it applied come back
 * `skipped` (the state is read first); its own record counts them as it did them. A run that recorded its end
 * (done, failed rows, Ctrl-C) is not continued: the re-run is a new run.
 */
async function resumeBulk(session: Session, command: string, options: BulkOptions, input: CsvInput): Promise<BulkResume> {
  const [settings, record] = await Promise.all([session.settings(), session.changeRecord()]);
  const flags = [options.renew && '--renew', options.includeStatusChanges && '--include-status-changes', options.skipInvalid && '--skip-invalid', options.reason !== undefined && `--reason=${options.reason}`];
  const key = await inputKey([auditBaseUrl(settings.baseUrl), bulkCommand(command), ...flags.filter((flag) => typeof flag === 'string')], input);
  const resumed = await resumeRun(record, await session.configDir(), key);
  return {
    runId: resumed.continued,
    before: resumed.before,
    begun: async (runId) => {
      if (runId !== resumed.continued) await record.runKeys.add(key, runId);
    },
    ended: (runId) => record.runKeys.finish(key, runId),
  };
}

/** How applyRun continues a killed run of the same command on the same file (resumeBulk). */
export interface BulkResume {
  /** The run this one continues. */
  runId?: string;
  /** The rows it applied, by line. */
  before: ReadonlyMap<number, DoneRow>;
  /** The run's id is known, before its first change: kept under the key in the record's home. */
  begun(runId: string): Promise<void>;
  /** The run recorded its end (its id): the next run of the file is a new one. */
  ended(runId: string): Promise<void>;
}

/** The run's counts with the rows an earlier attempt applied counted as it applied them, not as skipped now. */
function withEarlier(counts: Readonly<Record<string, number>>, outcomes: readonly BulkRowOutcome[], before: ReadonlyMap<number, DoneRow>): Record<string, number> {
  const merged = { ...counts };
  for (const { line, result } of outcomes) {
    const earlier = before.get(line);
    if (earlier === undefined || result !== 'skipped') continue;
    merged.skipped = (merged.skipped ?? 0) - 1;
    merged[earlier.result] = (merged[earlier.result] ?? 0) + 1;
  }
  return merged;
}

/** The read plan, carried out under a spinner; Ctrl-C (or SIGTERM) stops it with exit 130, nothing changed. */
async function readState<Plan>(session: Session, { api, op, run, strategy, needsProductList, messages }: {
  api: Api; op: BulkOperation<Plan>; run: PlannedRun<Plan>; strategy: BulkOptions['strategy']; needsProductList: boolean; messages: Messages;
}): Promise<BulkReads> {
  const { io, globals } = session;
  const abort = new AbortController();
  const stop = () => abort.abort(new InterruptedError('interrupted while reading the student list; nothing was changed'));
  const removers = [io.onInterrupt(stop), io.onTerminate?.(stop)];
  const plans = run.todo.map((row) => row.plan);
  const needs = { ...op.reads.needs(plans), needsProductList };
  const spinner = await messages.spinner('Reading the state of the rows…');
  try {
    const reads = await chooseReads(api, needs, {
      choice: strategy, subscriptions: op.reads.subscriptions, keep: op.reads.keep(plans), signal: abort.signal,
      onPage: (pages) => {
        io.onPage?.();
        spinner.update(`Reading the student list: ${plural(pages, 'page')}…`);
      },
    });
    // A forced plan's reason names its strategy already.
    if (globals.verbose) messages.notice(`reads: ${strategy === 'auto' ? `${reads.plan.strategy}, ` : ''}${reads.plan.reason}`);
    return reads;
  } finally {
    spinner.stop();
    removers.forEach((remove) => remove?.());
  }
}

export interface Terminal {
  source: string;
  output: Output;
  messages: Messages;
  /** When the run started reading (the summary's time counts the reads too). */
  started: number;
}

/** `students grant --file`: the bulk forms of grant and revoke, as the contract writes them. */
const bulkCommand = (command: string) => (command === 'students grant' || command === 'students revoke' ? `${command} --file` : command);

/** How a run's results look: their view, each printed record, the summary line, and the error it ends with. */
export interface RunPresentation {
  view: View;
  printed(outcome: BulkRowOutcome): JsonRecord;
  summaryLine(summary: BulkSummary): string;
  /** How a finished run ends (engine.ts runError for the bulk forms). */
  runError(summary: BulkSummary, fatal: unknown): unknown;
}

function bulkPresentation(op: Pick<BulkOperation<unknown>, 'done'>, titles: ReadonlyMap<string, string>): RunPresentation {
  return { view: bulkResultView(op, titles), printed, summaryLine: (summary) => summaryLine(op, summary), runError };
}

/**
 * Applies the planned rows and prints their results (`members sync` applies
 * its plan here too): progress, Ctrl-C and SIGTERM, results in input order,
 * the summary, the hooks (the audit log), and the run's error.
 */
/** What applyRun needs besides the session: the run, how it reads, prints and records. */
export interface ApplyRunOptions<Plan> {
  op: Pick<BulkOperation<Plan>, 'apply' | 'command'>;
  run: PlannedRun<Plan>;
  /** What the rows need to reach the platform; none for an operation that sends nothing. */
  context?: Omit<RowContext, 'cache' | 'queue' | 'dryRun' | 'reason' | 'journal'>;
  concurrency: number;
  dryRun: boolean;
  reason?: string;
  hooks: BulkHooks;
  terminal: Terminal;
  presentation: RunPresentation;
  reads?: BulkReads;
  /** The bulk forms: a killed run of the same command on the same file, continued. */
  resumed?: BulkResume;
}

export async function applyRun<Plan>(session: Session, options: ApplyRunOptions<Plan>): Promise<BulkReport> {
  const { op, run, context, hooks, presentation, reads, terminal: { source, output, messages, started } } = options;
  const { io, globals } = session;
  let interrupted = false;

  const progress = await messages.progress(run.todo.length);
  // Every applied row is recorded, intent first, under the run's id; a dry run records nothing.
  const { resumed } = options;
  const journal = options.dryRun || !context ? undefined : await openRun(session, { command: bulkCommand(op.command), reason: options.reason, source }, { runId: resumed?.runId });
  if (journal && run.todo.length > 0) await resumed?.begun(journal.runId);
  const execution = execute(op, run, context && { ...context, journal }, {
    concurrency: options.concurrency, dryRun: options.dryRun, reason: options.reason, onRow: () => progress.tick(),
  });
  // Before any table reaches the terminal.
  const settled = execution.settled.finally(() => progress.stop());

  const removers: Array<(() => void) | undefined> = [];
  const removeListeners = () => removers.splice(0).forEach((remove) => remove?.());
  const onSignal = (signal?: string) => {
    if (interrupted) return;
    interrupted = true;
    execution.stop();
    // A second Ctrl-C finds no handler of ours: the process quits at once.
    removeListeners();
    messages.notice(`Stopping: finishing the rows in flight (${quitAtOnce(signal)}; their results would then be unknown)…`);
  };
  removers.push(io.onInterrupt(onSignal), io.onTerminate?.(onSignal));

  async function* printedInOrder(): AsyncGenerator<JsonRecord> {
    for await (const outcome of execution.inOrder()) yield presentation.printed(outcome);
  }

  /** The results could not all be delivered: stdout closed by its reader, or --out failed late (a full disk). */
  let undelivered: Error | undefined;
  try {
    // On a terminal, results wait for the end rather than tear the progress bar.
    if (io.stdout.isTTY && !globals.out) await settled;
    await output.list(printedInOrder(), presentation.view);
    await settled;
  } catch (error) {
    execution.stop();
    await settled;
    removeListeners();
    await output.abort();
    // The rows never throw (each failure is its row's result): this is the results' delivery failing (stdout
    // closed by its reader, a full disk under --out). What was applied must still be summed up and recorded.
    undelivered = error as Error;
  }
  removeListeners();
  if (!undelivered) {
    try {
      await output.close();
    } catch (error) {
      await output.abort();
      undelivered = error as Error;
    }
  }

  const summary = summarize(run, execution, {
    seconds: (monotonicMs() - started) / 1000, interrupted: interrupted || undelivered !== undefined, dryRun: options.dryRun, reads: reads?.plan,
  });
  messages.notice(presentation.summaryLine(summary));
  const report: BulkReport = { command: op.command, source, reason: options.reason, dryRun: options.dryRun, outcomes: execution.outcomes(), summary };
  await hooks.onFinish?.(report);
  const counts = resumed ? withEarlier(summary.counts, report.outcomes, resumed.before) : summary.counts;
  const runId = await journal?.finish({ counts, interrupted: summary.interrupted, earlier: resumed?.before.size });
  if (journal) await resumed?.ended(runId ?? journal.runId);
  session.runSummary = { ...runSummaryFacts(report.outcomes, summary.counts, runId), ...(resumed ? { run_counts: counts } : {}) };
  if (runId !== undefined) await hooks.onRecorded?.(runId);

  if (undelivered) throw undeliveredError(undelivered, summary, globals.out);
  const error = presentation.runError(summary, execution.fatal);
  if (error !== undefined) throw error;
  return report;
}

/** The rows applied are recorded in the audit log whatever happened to their results: say so, and what to do. */
function undeliveredError(cause: Error, summary: BulkSummary, out: string | undefined): CliError {
  const applied = `${summary.processed} of ${plural(summary.rows, 'row')} processed, and the changes made are in the audit log (\`members history\`)`;
  if (cause instanceof StdoutClosedError) {
    return new StdoutClosedError(`stdout was closed by its reader; ${applied}. Run the same file again to apply the rest (rows already applied come back skipped)`);
  }
  const why = (cause as NodeJS.ErrnoException).code ?? cause.message;
  const where = out === undefined ? 'the results to stdout' : `--out ${out}`;
  return new CliError(`could not write ${where} (${why}); ${applied}, but their results were not saved. Free the space or pick another path, then run the same file again: the rows already applied come back skipped (with their results), the others are applied`, ExitCode.internal, undefined, { cause });
}

/** For --summary FILE: rows by result and by product, and the first failures. */
function runSummaryFacts(outcomes: readonly BulkRowOutcome[], counts: Readonly<Record<string, number>>, runId: string | undefined): RunSummaryFacts {
  const byProduct: Record<string, Record<string, number>> = {};
  for (const { product_id: product, result } of outcomes) {
    if (!product) continue;
    const tally = (byProduct[product] ??= {});
    tally[result] = (tally[result] ?? 0) + 1;
  }
  const failures = outcomes.filter((outcome) => outcome.result === 'failed').slice(0, FIRST_FAILURES)
    .map(({ line, student, product_id, message }) => ({ line, student, product_id, message }));
  return { ...(runId ? { run_id: runId } : {}), counts, by_product: byProduct, failures };
}

/** How many failed rows a run summary names (the rest are in the results). */
export const FIRST_FAILURES = 10;

/** The printed record: exactly the contract's fields, in its order. */
const printed = ({ line, student, product_id, result, message }: BulkResult): JsonRecord => ({ line, student, product_id, result, message });

const SAMPLE_RESULT: JsonRecord = { line: 2, student: '', product_id: '', result: 'skipped', message: '' };
