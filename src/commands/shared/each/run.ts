/**
 * `members each FILE [--] COMMAND ARGS…` (contract, `members each`): a
 * members command once per row of a file, as one run.
 *
 * 1. The file is read (CSV, `;`-separated, `-` for stdin) and the command
 *    line compiled against its header: a placeholder naming no column is
 *    exit 2 before any row is read.
 * 2. Every row is expanded and run in `check` mode through the same program
 *    as the command line (rows.ts): its arguments, flags, keys and values are
 *    checked as the command checks them, up to where it would reach the
 *    server; the product and course names of every row are then resolved,
 *    each once (names.ts). Bad rows are listed with their lines, exit 2,
 *    nothing sent.
 * 3. One question for the whole run on a terminal (the row count typed above
 *    20 rows), --yes off one; read-only commands never ask.
 * 4. The rows run in a bounded pool, in sessions sharing the run's client
 *    (one pacer), its cache of student lookups and its record: every change
 *    carries the run's id and the row's line, so `members undo RUN` reverses
 *    the run, and a re-run after a kill leaves out what was done (resume.ts).
 * 5. Results in input order, each printed as soon as it and the rows
 *    before it are done (printResults): the input's columns, `result`,
 *    `message` and the command's own fields; a summary line; exit 7 when a
 *    row failed.
 */
import { BulkFailedError, InterruptedError, UsageError } from '../../../lib/errors.js';
import { plural } from '../../../lib/values.js';
import { quitAtOnce } from '../../../lib/io.js';
import { auditBaseUrl } from '../../../audit/stamp.js';
import { openRun, type RunJournal } from '../../../audit/journal.js';
import { readCsvRows, tellRepeatedHeaders, readCsvSource, type CsvInput } from '../../../domain/bulk/csv.js';
import { InOrder, runPool } from '../../../domain/bulk/pool.js';
import { StudentCache } from '../../../domain/resolve.js';
import { monotonicMs } from '../../../lib/time/monotonic.js';
import type { JsonRecord, View } from '../../../output/view.js';
import type { Output } from '../../../output/index.js';
import type { Messages } from '../../../output/messages.js';
import type { Session } from '../../../session/session.js';
import type { ChangeRecord } from '../../../audit/record.js';
import { FIRST_FAILURES, TYPE_TO_CONFIRM_ABOVE } from '../bulk/run.js';
import { refuseOutputOverInput } from '../input-output.js';
import { compileTemplate, type Template } from './template.js';
import { runRow } from './rows.js';
import { checkNames } from './names.js';
import type { NameRequest } from '../../../domain/names.js';
import { knownFields, type RowKind } from './policy.js';
import { inputKey, resumeRun, type DoneRow } from './resume.js';
import { takeLease } from '../lease.js';
import { DRY_RUN_VIEW, eachView } from './view.js';

export const HALT = ['now', 'soon', 'never'] as const;
export type Halt = (typeof HALT)[number];

export interface EachOptions {
  file: string;
  /** The command line with its placeholders, or how to make it from the file's header (magic-link --file: shorthand.ts). */
  args: readonly string[] | ((headers: readonly string[]) => string[]);
  concurrency: number;
  dryRun: boolean;
  /** Run this many rows (a canary), show them, and stop. */
  first?: number;
  /** Refuse a file with more rows. */
  maxRows?: number;
  /** Only the rows whose `result` is `failed` (a results file fed back). */
  onlyFailed: boolean;
  halt: Halt;
  /** How long to wait for another run of the same command on the same file to end (`--wait`); 0 or none: exit 10 at once. */
  waitMs?: number;
}

/** A data row of the input: its line and its cells by header as written. */
interface InputRow {
  line: number;
  values: Record<string, string>;
  problem?: string;
}

/** The result of one row, as printed. */
type RowResult = 'done' | 'failed' | 'skipped';

interface Outcome {
  row: CheckedRow;
  result: RowResult;
  message: string;
  fields: Record<string, unknown>;
}

export async function runEach(session: Session, options: EachOptions): Promise<void> {
  const messages = await session.messages();
  const source = options.file === '-' ? 'stdin' : options.file;
  refuseOutputOverInput(session.io.cwd, options.file, [['--out', session.globals.out]]);
  if (options.file === '-' && session.io.stdin.isTTY) messages.notice('Reading the rows from the terminal; end them with Ctrl-D…');
  const input = await readCsvSource(session.io, options.file);
  const { headers, rows: all } = await readRows(input, source, (text) => messages.notice(text));
  const rows = options.onlyFailed ? onlyFailed(all, headers, source) : all;
  if (options.maxRows !== undefined && rows.length > options.maxRows) {
    throw new UsageError(`${source} has ${plural(rows.length, 'row')}, more than --max-rows ${options.maxRows}; nothing was sent`);
  }
  const args = typeof options.args === 'function' ? options.args(headers) : options.args;
  if (args.length === 0) throw new UsageError('no command to run: `members each FILE -- COMMAND ARGS…`, e.g. members each turma.csv -- magic-link {E-mail}');
  const template = compileTemplate(args, headers, source);

  // Every row checked before anything is sent.
  const checked = await checkRows(session, template, rows);
  await checkNames(session, checked);
  const invalid = checked.filter((row) => row.problem !== undefined);
  if (invalid.length > 0) {
    for (const row of invalid) messages.error(`line ${row.line}: ${row.problem}`);
    throw new UsageError(`${plural(invalid.length, 'invalid row')} in ${source}; nothing was sent. Fix ${invalid.length === 1 ? 'it' : 'them'} and run again`);
  }
  const kind: RowKind = checked.some((row) => row.kind === 'changes') ? 'changes' : 'reads';

  if (options.dryRun) {
    const output = await session.output({}, { growing: false });
    await output.list(checked.map((row) => ({ line: row.line, command: `members ${quoted(row.argv ?? [])}` })), DRY_RUN_VIEW);
    await output.close();
    messages.notice(`${plural(checked.length, 'row')} of ${source}: \`${template.text}\` checked (dry run: nothing was sent)`);
    return;
  }

  // The client first: a profile without a token fails here, once, not on every row.
  await session.api();
  const settings = await session.settings();
  const command = `each ${checked[0]?.path ?? ''}`.trim();
  const key = await inputKey([auditBaseUrl(settings.baseUrl), ...args], input);
  const record = await session.changeRecord();
  // Who last did the file, before any wait: a run of it that did every row meanwhile leaves this one nothing to do.
  const seen = kind === 'changes' ? (await record.runKeys.read(key)).finished : undefined;
  // One run of the command on the file at a time, on every machine of the team: before its runs are read.
  const lease = kind === 'changes' ? await takeLease(session, { runKey: key, command, waitMs: options.waitMs ?? 0 }) : undefined;
  try {
    await runRows(session, { options, source, template, checked, kind, key, command, messages, record, seen });
  } finally {
    await lease?.release().catch(() => undefined);
  }
}

/** The run itself, under its lease: what earlier runs did, the question, the rows, the summary and how the run ends. */
async function runRows(session: Session, run: {
  options: EachOptions; source: string; template: Template; checked: CheckedRow[]; kind: RowKind; key: string; command: string; messages: Messages;
  record: ChangeRecord;
  /** The run that had last done the file when this one started. */
  seen?: string;
}): Promise<void> {
  const { options, source, template, checked, kind, key, command, messages, record } = run;
  // The key's last run goes on under its id until it records its end (every row done): one job, one run to undo.
  const earlier = await resumeRun(record, await session.configDir(), key);
  if (kind === 'changes' && earlier.finished !== undefined && earlier.finished !== run.seen) {
    messages.notice(`run ${earlier.finished} of the same command on the same file did every row while this one waited for it: nothing left to do, nothing was sent (run it again to run every row again)`);
    return;
  }
  // Results as rows finish: a kill leaves the rows done printed.
  const output = await session.output({}, { growing: true });
  const { runs, continued, rows: done } = earlier;
  const doneBefore = earlier.before.size;
  const pending = checked.filter((row) => !done.has(row.line));
  const todo = options.first === undefined ? pending : pending.slice(0, options.first);

  if (kind === 'changes' && todo.length > 0) {
    const question = `Run \`${template.text}\` for ${plural(todo.length, 'row')} of ${source}?`;
    if (options.file === '-' && !session.globals.yes) throw new UsageError(`${question.replace(/\?$/, '')}: confirmation needed but the rows come from stdin; pass --yes to proceed`);
    await session.announceChange();
    await session.confirm(question, todo.length > TYPE_TO_CONFIRM_ABOVE ? String(todo.length) : undefined);
  }
  if (done.size > 0) {
    const by = continued ? `run ${continued}, continued now` : runs.join(', ');
    messages.notice(`${plural(checked.length - pending.length, 'row')} done by an earlier run of the same command on the same file (${by}): left out`);
  }

  const journal = kind === 'changes' ? await openRun(session, { command, source }, { runId: continued }) : undefined;
  // Before the run's first change: a kill from then on is continued by the next run of it, on any machine of the record.
  if (journal && todo.length > 0 && continued === undefined) await record.runKeys.add(key, journal.runId);
  const started = monotonicMs();
  const running = await startRows(session, { checked, todo, done, journal, options, messages });
  const undelivered = await printResults(session, output, running, (fields) => eachView(template.columns, fields));
  // Results that could not be delivered stop the run as a signal does.
  const interrupted = running.interrupted || undelivered !== undefined;
  const results = running.results.known();

  const counts = { done: 0, skipped: 0, failed: 0 };
  for (const outcome of results) counts[outcome.result]++;
  const left = checked.length - results.length;
  const seconds = ((monotonicMs() - started) / 1000).toFixed(1);
  // A row whose change from the killed attempt is still in flight is not done yet: the run stays open, and the
  // next run of the same command does the row if the check on the server finds it not applied.
  const inFlight = [...done.values()].filter((row) => row.result === 'in flight').length;
  const finished = left === 0 && counts.failed === 0 && !interrupted && inFlight === 0;
  // The run's own record counts the rows it did in every attempt as done; written once, when every row is done.
  const runCounts = { ...counts, done: counts.done + doneBefore, skipped: counts.skipped - doneBefore };
  const runId = await journal?.finish({ counts: runCounts, interrupted, earlier: doneBefore, open: !finished });
  session.runSummary = {
    ...(runId ? { run_id: runId } : {}), counts, ...(continued ? { run_counts: runCounts } : {}),
    failures: results.filter((outcome) => outcome.result === 'failed').slice(0, FIRST_FAILURES).map(({ row, message }) => ({ line: row.line, message })),
  };
  const notes = [
    runId ? `run ${runId}: members undo ${runId}` : '',
    left > 0 && !interrupted ? `${left} not run: ${counts.failed > 0 && options.halt !== 'never' ? `--halt ${options.halt} after a failed row` : `--first ${options.first}`}; run the same command again for the rest` : '',
    inFlight > 0 ? `${plural(inFlight, 'row')} in flight at a kill: run the same command again once checked, for the rest` : '',
    interrupted ? 'interrupted' : '',
  ].filter(Boolean);
  const rowsSaid = results.length === checked.length ? plural(checked.length, 'row') : `${results.length} of ${plural(checked.length, 'row')}`;
  messages.notice(`${rowsSaid}: ${counts.done} done, ${counts.skipped} skipped, ${counts.failed} failed in ${seconds}s${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
  if (finished && journal) await record.runKeys.finish(key, runId ?? journal.runId);

  if (undelivered !== undefined) throw undelivered;
  if (interrupted) throw new InterruptedError(`interrupted after ${results.length} of ${plural(checked.length, 'row')}; run the same command again for the rest (the rows done are left out)`);
  if (counts.failed > 0) {
    throw new BulkFailedError(`${counts.failed} of ${plural(checked.length, 'row')} failed (result "failed", with the reason); run the same command again to retry them (the rows done are left out), or feed --out's file back with --only-failed`);
  }
  // Not done, and not known to be: a script must run the command again, as for a failed row.
  if (inFlight > 0) {
    throw new BulkFailedError(`${plural(inFlight, 'row')} of ${plural(checked.length, 'row')} ${inFlight === 1 ? 'was' : 'were'} in flight at a kill and ${inFlight === 1 ? 'is' : 'are'} not known to be applied yet; run the same command again once its change is checked (the next command checks it), for the rest`);
  }
}

async function readRows(input: CsvInput, source: string, notice: (text: string) => void): Promise<{ headers: string[]; rows: InputRow[] }> {
  const rows: InputRow[] = [];
  const reading = await readCsvRows(input, { required: [], optional: [] }, source, (row) => void rows.push(row), { anyColumns: true, onRepeatedHeader: tellRepeatedHeaders(source, notice) });
  return { headers: reading.columns.map((column) => column.header), rows };
}

function onlyFailed(rows: InputRow[], headers: readonly string[], source: string): InputRow[] {
  if (!headers.includes('result')) throw new UsageError(`--only-failed reads a results file (--out of an earlier run), but ${source} has no "result" column`);
  return rows.filter((row) => row.values.result === 'failed');
}

interface CheckedRow {
  line: number;
  values: Record<string, string>;
  argv?: string[];
  path?: string;
  kind?: RowKind;
  /** The product and course names its command resolves (names.ts). */
  names?: NameRequest[];
  problem?: string;
}

async function checkRows(session: Session, template: Template, rows: readonly InputRow[]): Promise<CheckedRow[]> {
  const checked: CheckedRow[] = [];
  for (const row of rows) {
    if (row.problem !== undefined) {
      checked.push({ line: row.line, values: row.values, problem: row.problem });
      continue;
    }
    const expanded = template.expand(row);
    if (expanded.problem !== undefined) {
      checked.push({ line: row.line, values: row.values, problem: expanded.problem });
      continue;
    }
    const run = await runRow(session, expanded.argv, { mode: 'check' });
    checked.push(run.ok
      ? { line: row.line, values: row.values, argv: expanded.argv, path: run.path, kind: run.kind, names: run.names }
      : { line: row.line, values: row.values, argv: expanded.argv, problem: run.message });
  }
  return checked;
}

/** The rows of a run under way. */
interface RowsRun {
  /** Every row's result in input order: a row done by an earlier run at once, the others as they finish. */
  results: InOrder<Outcome>;
  /** The columns of the command's own fields: known for the command (policy.ts), else the first row done's; no row done: none. */
  fields: Promise<string[]>;
  /** Settles when no row is in flight any more. */
  settled: Promise<void>;
  /** No new row starts; the rows in flight finish. */
  stop(): void;
  readonly interrupted: boolean;
}

/** Starts the rows to do in a bounded pool, with one cache of student lookups for the whole run. */
async function startRows(session: Session, run: {
  checked: CheckedRow[]; todo: CheckedRow[]; done: ReadonlyMap<number, DoneRow>; journal?: RunJournal; options: EachOptions; messages: Messages;
}): Promise<RowsRun> {
  const { checked, todo, done, journal, options, messages } = run;
  const results = new InOrder<Outcome>(checked.length);
  const position = new Map(checked.map((row, index) => [row.line, index]));
  checked.forEach((row, index) => {
    const earlier = done.get(row.line);
    if (earlier) results.set(index, doneEarlier(row, earlier));
  });
  const known = new Set(checked.map((row) => row.path)).size === 1 ? knownFields(checked[0]?.path ?? '') : undefined;
  let firstDone: ((fields: string[]) => void) | undefined;
  // A field named like an input column (a student's `email`) or one of the run's never replaces it: --only-failed reads them back.
  const taken = new Set(['line', 'result', 'message', ...Object.keys(checked[0]?.values ?? {})]);
  const fields = (known ? Promise.resolve([...known]) : new Promise<string[]>((resolve) => (firstDone = resolve)))
    .then((names) => names.filter((name) => !taken.has(name)));
  const lookups = new StudentCache();
  let stopping = false;
  let interrupted = false;
  const removers: Array<(() => void) | undefined> = [];
  const onSignal = (signal?: string) => {
    interrupted = stopping = true;
    removers.splice(0).forEach((remove) => remove?.());
    messages.notice(`Stopping: finishing the rows in flight (${quitAtOnce(signal)})…`);
  };
  removers.push(session.io.onInterrupt(onSignal), session.io.onTerminate?.(onSignal));
  const progress = await messages.progress(todo.length);
  const settled = runPool(todo.length, options.concurrency, async (index) => {
    const row = todo[index] as CheckedRow;
    const result = await runRow(session, row.argv ?? [], { mode: 'run', journal: journal?.with({ line: row.line }), lookups });
    if (result.ok) firstDone?.(Object.keys(result.fields));
    else if (options.halt !== 'never') stopping = true;
    progress.tick();
    results.set(position.get(row.line) as number, result.ok
      ? { row, result: 'done', message: result.message, fields: result.fields }
      : { row, result: 'failed', message: result.message, fields: {} });
  }, () => stopping).finally(() => {
    progress.stop();
    removers.splice(0).forEach((remove) => remove?.());
    firstDone?.([]);
    results.end();
  });
  return {
    results, fields, settled,
    stop: () => void (stopping = true),
    get interrupted() {
      return interrupted;
    },
  };
}

/**
 * Prints each row's result as soon as it and the rows before it are done
 * (csv, ndjson and a piped table a line each, to stdout or, csv and ndjson,
 * a growing --out file; -o json one array; xlsx and a table into --out at
 * the end): a log shows the run's progress, and a kill loses no result
 * printed. On a terminal the results wait for the end, as the
 * bulk runs', rather than tear the progress bar. What could not be delivered
 * (stdout closed by its reader, a full disk) stops the run and is returned.
 */
async function printResults(session: Session, output: Output, rows: RowsRun, view: (fields: string[]) => View): Promise<unknown> {
  try {
    if (session.io.stdout.isTTY && !session.globals.out) await rows.settled;
    const fields = await rows.fields;
    await output.list(records(rows.results, fields), view(fields));
    await rows.settled;
    await output.close();
    return undefined;
  } catch (error) {
    rows.stop();
    await rows.settled;
    await output.abort();
    return error;
  }
}

async function* records(results: AsyncIterable<Outcome>, fields: readonly string[]): AsyncGenerator<JsonRecord> {
  for await (const outcome of results) yield record(outcome, fields);
}

/** A row left out: done by an earlier run of the same command on the same file, or its change still in flight. */
function doneEarlier(row: CheckedRow, earlier: DoneRow): Outcome {
  const how = earlier.result === 'in flight' ? 'its change from run ID is still in flight (checked by the next command)' : 'done by run ID';
  return { row, result: 'skipped', message: how.replace('ID', earlier.runId), fields: {} };
}

function record(outcome: Outcome, fields: readonly string[]): JsonRecord {
  return { line: outcome.row.line, ...outcome.row.values, result: outcome.result, message: outcome.message, ...Object.fromEntries(fields.map((field) => [field, outcome.fields[field] ?? ''])) };
}

const quoted = (argv: readonly string[]) => argv.map((arg) => (/^[\w@.,:/+=%-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');

