/**
 * The bulk engine on its own, with an operation of the test's making: which
 * rows are invalid or duplicates, product resolution, input order, the
 * circuit breaker, fatal errors, the summary and how a run ends.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  AuthError, BulkFailedError, CliError, ExitCode, InterruptedError, RejectedError, TransientError, UsageError,
} from '../../../src/lib/errors.js';
import {
  RunPlanner, collapsedNotice, execute, oneLine, planRun, resolveProducts, runError, summarize, summaryLine, type BulkSummary, type ParsedRow,
} from '../../../src/domain/bulk/engine.js';
import type { Journal } from '../../../src/audit/journal.js';
import type { BulkOperation, BulkRowOutcome, RowContext } from '../../../src/domain/bulk/operations.js';

interface Plan { student: string; product: string }
const NOW = new Date(2025, 0, 1);
const REQUEST = { method: 'POST', path: '/api/v1/x' };

/** Grants `product` to `student`; `apply` decides each row's fate. */
function operation(apply: (plan: Plan) => Promise<Omit<BulkRowOutcome, 'line'>> = async (plan) => granted(plan)): BulkOperation<Plan> {
  return {
    command: 'students grant', columns: { required: ['student', 'product_id'], optional: [] }, done: 'granted', destructive: false,
    identify: (values) => ({ student: values.student ?? '', product_id: values.product_id ?? '' }),
    plan(values) {
      if (!values.student) throw new UsageError('student is empty');
      if (values.student === 'boom') throw new Error('not a usage error');
      return { student: values.student, product: values.product_id ?? '' };
    },
    key: (plan) => `${plan.student.toLowerCase()} ${plan.product}`,
    sameWhat: 'same student and product',
    apply: (_context, plan) => apply(plan),
    products: { of: (plan) => plan.product, with: (plan, product) => ({ ...plan, product: product.id }) },
    question: (count) => `grant ${count}?`,
    reads: { needs: (plans) => ({ distinctStudentKeys: plans.length, rows: plans.length }), subscriptions: true, keep: () => ({}) },
  };
}
const granted = (plan: Plan): Omit<BulkRowOutcome, 'line'> => ({ student: plan.student, product_id: plan.product, result: 'granted', message: 'ok' });
const rows = (...cells: Array<[string, string]>): ParsedRow[] => cells.map(([student, product], i) => ({ line: i + 2, values: { student, product_id: product } }));
const context = { api: {} as RowContext['api'] };

async function all(execution: ReturnType<typeof execute>): Promise<BulkRowOutcome[]> {
  const out: BulkRowOutcome[] = [];
  for await (const outcome of execution.inOrder()) out.push(outcome);
  return out;
}

describe('planRun', () => {
  it('keeps valid rows to do, and makes a row invalid for its own problem, a usage error of its cells, or a duplicate', () => {
    const parsed = [...rows(['a@x.com', 'p1'], ['', 'p1'], ['A@X.com', 'p1'], ['b@x.com', 'p1']), { line: 6, values: { student: 'c', product_id: 'p1' }, problem: '3 fields' }];
    const run = planRun(operation(), parsed, NOW);
    expect(run.todo).toEqual([
      { index: 0, line: 2, plan: { student: 'a@x.com', product: 'p1' } },
      { index: 3, line: 5, plan: { student: 'b@x.com', product: 'p1' } },
    ]);
    expect(run.invalid.map((row) => [row.line, row.problem])).toEqual([
      [3, 'student is empty'], [4, 'duplicate of line 2 (same student and product)'], [6, '3 fields'],
    ]);
    expect(run.rows).toHaveLength(5);
    expect(run.rows[3]).toEqual({ line: 5, identity: { student: 'b@x.com', product_id: 'p1' }, plan: { student: 'b@x.com', product: 'p1' } });
  });

  it('lets an error that is not a usage error through: a bug is not an invalid row', () => {
    expect(() => planRun(operation(), rows(['boom', 'p1']), NOW)).toThrow('not a usage error');
  });

  it('row by row (RunPlanner, as the CSV reader hands rows over) gives what planRun gives, duplicates across calls included', () => {
    const parsed = rows(['a@x.com', 'p1'], ['', 'p1'], ['A@X.com', 'p1'], ['b@x.com', 'p1']);
    const planner = new RunPlanner(operation(), NOW);
    for (const row of parsed) planner.add(row);
    expect(planner.done()).toEqual(planRun(operation(), parsed, NOW));
    expect(planner.done().invalid.map((row) => row.problem)).toEqual(['student is empty', 'duplicate of line 2 (same student and product)']);
  });
});

describe('resolveProducts', () => {
  it('resolves each distinct product cell once, names results by id, and finds the duplicates it reveals', async () => {
    const asked: string[] = [];
    const resolve = async (cell: string) => {
      asked.push(cell);
      if (cell === 'Nope') throw new UsageError('no product "Nope";\n  known: Yoga');
      return { id: cell === 'Yoga' ? 'p1' : cell, title: cell === 'Yoga' ? 'Yoga' : '' };
    };
    const run = planRun(operation(), rows(['a', 'Yoga'], ['a', 'p1'], ['b', 'Yoga'], ['c', 'Nope']), NOW);
    const resolved = await resolveProducts(operation(), run, resolve);
    expect(asked.sort()).toEqual(['Nope', 'Yoga', 'p1']);
    expect(resolved.todo.map((row) => [row.line, row.plan])).toEqual([[2, { student: 'a', product: 'p1' }], [4, { student: 'b', product: 'p1' }]]);
    expect(resolved.invalid.map((row) => [row.line, row.identity.product_id, row.problem])).toEqual([
      [3, 'p1', 'duplicate of line 2 (same student and product)'],
      [5, 'Nope', 'no product "Nope"; known: Yoga'],
    ]);
    expect(resolved.rows[0]?.identity).toEqual({ student: 'a', product_id: 'p1' });
  });

  it('lets an error that is not a usage error through', async () => {
    const run = planRun(operation(), rows(['a', 'Yoga']), NOW);
    await expect(resolveProducts(operation(), run, async () => {
      throw new TransientError('server unavailable (503)', ExitCode.transient, REQUEST, 503);
    })).rejects.toBeInstanceOf(TransientError);
  });

  it('leaves a run alone when the operation names no product', async () => {
    const op = { ...operation(), products: undefined };
    const run = planRun(op, rows(['a', 'Yoga']), NOW);
    expect(await resolveProducts(op, run, async () => ({ id: 'never', title: '' }))).toBe(run);
  });
});

describe('execute', () => {
  it('serves every outcome in input order, invalid rows as failed with their reason, whatever order rows finish in', async () => {
    const release: Record<string, () => void> = {};
    const op = operation((plan) => new Promise((resolve) => (release[plan.student] = () => resolve(granted(plan)))));
    const run = planRun(op, rows(['a', 'p1'], ['', 'p1'], ['b', 'p1'], ['c', 'p1']), NOW);
    const done: number[] = [];
    const execution = execute(op, run, context, { concurrency: 3, dryRun: false, reason: 'ticket 7', onRow: (outcome) => done.push(outcome.line) });
    const served = all(execution);
    await vi.waitFor(() => expect(Object.keys(release).sort()).toEqual(['a', 'b', 'c']));
    release.c?.();
    release.b?.();
    release.a?.();
    const outcomes = await served;
    expect(outcomes.map((outcome) => [outcome.line, outcome.result])).toEqual([[2, 'granted'], [3, 'failed'], [4, 'granted'], [5, 'granted']]);
    expect(outcomes[1]).toEqual({ line: 3, student: '', product_id: 'p1', result: 'failed', message: 'invalid row: student is empty', reason: 'ticket 7' });
    expect(done).toEqual([5, 4, 2]);
    expect(execution.outcomes()).toHaveLength(4);
    expect(execution.notStarted()).toBe(0);
    expect(execution.fatal).toBeUndefined();
  });

  it('turns a failure into a failed row of one line; a transient one says that running again is safe', async () => {
    const op = operation(async (plan) => {
      if (plan.student === 'a') throw new RejectedError('rejected:\n  product_id: taken', ExitCode.rejected, REQUEST, 422);
      throw new TransientError('server unavailable (503)', ExitCode.transient, REQUEST, 503);
    });
    const outcomes = await all(execute(op, planRun(op, rows(['a', 'p1'], ['b', 'p1']), NOW), context, { concurrency: 1, dryRun: false, reason: 'r' }));
    expect(outcomes.map(({ line, student, product_id, result, message, reason }) => ({ line, student, product_id, result, message, reason }))).toEqual([
      { line: 2, student: 'a', product_id: 'p1', result: 'failed', message: 'rejected: product_id: taken (POST /api/v1/x)', reason: 'r' },
      {
        line: 3, student: 'b', product_id: 'p1', result: 'failed', reason: 'r',
        message: 'server unavailable (503) (POST /api/v1/x); running the same file again retries only what is missing',
      },
    ]);
    expect(outcomes[0]?.error).toBeInstanceOf(RejectedError);
  });

  it('goes on after a row its operation reports failed without an error (a sync row naming nobody): no fatal error', async () => {
    const op = operation(async (plan) => (plan.student === 'a'
      ? { student: plan.student, product_id: plan.product, result: 'failed' as const, message: 'no student a on the platform' }
      : granted(plan)));
    const execution = execute(op, planRun(op, rows(['a', 'p1'], ['b', 'p1'], ['c', 'p1']), NOW), context, { concurrency: 1, dryRun: false });
    expect((await all(execution)).map((outcome) => outcome.result)).toEqual(['failed', 'granted', 'granted']);
    expect(execution.fatal).toBeUndefined();
    expect(execution.notStarted()).toBe(0);
  });

  it.each([
    ['a refused token', () => new AuthError('unauthenticated', ExitCode.auth, REQUEST, 401), 'unauthenticated (POST /api/v1/x)'],
    ['a bug', () => new TypeError('x is undefined'), 'unexpected error: x is undefined'],
  ])('stops taking rows after %s, keeps it as the fatal error, and leaves the rest not started', async (_what, error, message) => {
    const failure = error();
    const op = operation(async (plan) => {
      if (plan.student === 'b') throw failure;
      return granted(plan);
    });
    const execution = execute(op, planRun(op, rows(['a', 'p1'], ['b', 'p1'], ['c', 'p1'], ['d', 'p1']), NOW), context, { concurrency: 1, dryRun: false });
    const outcomes = await all(execution);
    expect(outcomes.map((outcome) => [outcome.line, outcome.result, outcome.message])).toEqual([[2, 'granted', 'ok'], [3, 'failed', message]]);
    expect(execution.fatal).toBe(failure);
    expect(execution.notStarted()).toBe(2);
    expect(execution.tripped).toBe(false);
  });

  it('a non-Error thrown is reported as it is', async () => {
    const op = operation(async () => {
      throw 'just a string';
    });
    const outcomes = await all(execute(op, planRun(op, rows(['a', 'p1']), NOW), context, { concurrency: 1, dryRun: false }));
    expect(outcomes[0]?.message).toBe('unexpected error: just a string');
  });

  it('trips after 8 transient failures in a row (at concurrency 1), not after 7 or after a success between them', async () => {
    const transient = () => new TransientError('server unavailable (503)', ExitCode.transient, REQUEST, 503);
    const fate = (fail: (student: string) => boolean) => operation(async (plan) => {
      if (fail(plan.student)) throw transient();
      return granted(plan);
    });
    const twenty = rows(...Array.from({ length: 20 }, (_, i): [string, string] => [`s${i}`, 'p1']));

    const down = fate(() => true);
    const tripped = execute(down, planRun(down, twenty, NOW), context, { concurrency: 1, dryRun: false });
    await tripped.settled;
    expect(tripped.tripped).toBe(true);
    expect(tripped.outcomes()).toHaveLength(8);
    expect(tripped.notStarted()).toBe(12);
    expect(tripped.fatal).toBeUndefined();

    // 7 failures, one success, 7 failures…: never 8 in a row.
    const flaky = fate((student) => Number(student.slice(1)) % 8 !== 7);
    const survived = execute(flaky, planRun(flaky, twenty, NOW), context, { concurrency: 1, dryRun: false });
    await survived.settled;
    expect(survived.tripped).toBe(false);
    expect(survived.outcomes()).toHaveLength(20);
  });

  it('at concurrency 6 the breaker waits for 12 transient failures in a row', async () => {
    const down = operation(async () => {
      throw new TransientError('server unavailable (503)', ExitCode.transient, REQUEST, 503);
    });
    const execution = execute(down, planRun(down, rows(...Array.from({ length: 40 }, (_, i): [string, string] => [`s${i}`, 'p1'])), NOW), context, { concurrency: 6, dryRun: false });
    await execution.settled;
    expect(execution.tripped).toBe(true);
    // The 12th trips it; the rows already in flight then finish.
    expect(execution.outcomes().length).toBeGreaterThanOrEqual(12);
    expect(execution.outcomes().length).toBeLessThan(12 + 6);
  });

  it('stop() lets the rows in flight finish and starts no other', async () => {
    const running: { execution?: ReturnType<typeof execute> } = {};
    const op = operation(async (plan) => {
      if (plan.student === 'b') running.execution?.stop();
      return granted(plan);
    });
    const execution = execute(op, planRun(op, rows(['a', 'p1'], ['b', 'p1'], ['c', 'p1']), NOW), context, { concurrency: 1, dryRun: false });
    running.execution = execution;
    const outcomes = await all(execution);
    expect(outcomes.map((outcome) => outcome.line)).toEqual([2, 3]);
    expect(execution.notStarted()).toBe(1);
  });

  it('with nothing to do, serves the invalid rows and settles', async () => {
    const op = operation();
    const execution = execute(op, planRun(op, rows(['', 'p1']), NOW), undefined, { concurrency: 4, dryRun: true });
    expect((await all(execution)).map((outcome) => outcome.result)).toEqual(['failed']);
    await execution.settled;
  });
});

describe('summarize, summaryLine and runError', () => {
  const base: BulkSummary = {
    rows: 10, processed: 10, counts: { granted: 7, revoked: 0, renewed: 0, created: 0, skipped: 2, failed: 1 },
    seconds: 12.345, interrupted: false, dryRun: false, transientOnly: false, tripped: false,
  };
  const line = (summary: Partial<BulkSummary>) => summaryLine({ done: 'granted' }, { ...base, ...summary });

  it('counts each result, and is interrupted only when rows were left unstarted', async () => {
    const op = operation(async (plan) => (plan.student === 'b' ? { ...granted(plan), result: 'skipped' } : granted(plan)));
    const run = planRun(op, rows(['a', 'p1'], ['b', 'p1'], ['', 'p1']), NOW);
    const execution = execute(op, run, context, { concurrency: 2, dryRun: false });
    await execution.settled;
    const summary = summarize(run, execution, { seconds: 1.5, interrupted: true, dryRun: false });
    expect(summary).toEqual({
      rows: 3, processed: 3, counts: { granted: 1, revoked: 0, renewed: 0, created: 0, skipped: 1, failed: 1 },
      seconds: 1.5, interrupted: false, dryRun: false, transientOnly: false, tripped: false,
    });
  });

  it('is transient-only when every failed row failed for a transient reason (and when none failed)', async () => {
    const op = operation(async (plan) => {
      if (plan.student === 'a') throw new TransientError('timeout', ExitCode.transient, REQUEST);
      return granted(plan);
    });
    const run = planRun(op, rows(['a', 'p1'], ['b', 'p1']), NOW);
    const execution = execute(op, run, context, { concurrency: 1, dryRun: true });
    await execution.settled;
    expect(summarize(run, execution, { seconds: 0, interrupted: false, dryRun: true })).toMatchObject({ transientOnly: true, dryRun: true, processed: 2 });
    const clean = planRun(operation(), rows(['a', 'p1']), NOW);
    const ok = execute(operation(), clean, context, { concurrency: 1, dryRun: false });
    await ok.settled;
    expect(summarize(clean, ok, { seconds: 0, interrupted: false, dryRun: false }).transientOnly).toBe(true);
  });

  it('writes the summary line with the counts, the renewals when any, and what stopped the run', () => {
    expect(line({})).toBe('10 rows: 7 granted, 2 skipped, 1 failed in 12.3s');
    expect(line({ rows: 1, processed: 1, counts: { ...base.counts, granted: 1, skipped: 0, failed: 0 } })).toBe('1 row: 1 granted, 0 skipped, 0 failed in 12.3s');
    expect(line({ counts: { ...base.counts, renewed: 3 } })).toBe('10 rows: 7 granted, 3 renewed, 2 skipped, 1 failed in 12.3s');
    expect(line({ processed: 4, interrupted: true })).toBe('4 of 10 rows: 7 granted, 2 skipped, 1 failed in 12.3s (interrupted)');
    expect(line({ processed: 4, interrupted: true, tripped: true })).toBe('4 of 10 rows: 7 granted, 2 skipped, 1 failed in 12.3s (stopped: the server kept failing)');
    expect(line({ dryRun: true, counts: { ...base.counts, renewed: 3 } })).toBe('10 rows: 7 to grant, 3 to renew, 2 skipped, 1 failed in 12.3s (dry run: nothing was sent)');
    expect(line({ processed: 4, interrupted: true, dryRun: true })).toBe('4 of 10 rows: 7 to grant, 2 skipped, 1 failed in 12.3s (interrupted; dry run: nothing was sent)');
    expect(summaryLine({ done: 'revoked' }, { ...base, counts: { ...base.counts, revoked: 5 } })).toBe('10 rows: 5 revoked, 2 skipped, 1 failed in 12.3s');
  });

  it('ends a run with its fatal error first, then an interruption, the breaker, transient failures, failures, or success', () => {
    const fatal = new Error('bug');
    expect(runError({ ...base, interrupted: true }, fatal)).toBe(fatal);

    const interrupted = runError({ ...base, processed: 4, interrupted: true, tripped: true }, undefined);
    expect(interrupted).toBeInstanceOf(InterruptedError);
    expect((interrupted as Error).message).toBe('interrupted after 4 of 10 rows; run the same file again to apply the rest (rows already applied come back skipped)');

    const tripped = runError({ ...base, processed: 4, tripped: true, transientOnly: true }, undefined) as CliError;
    expect(tripped).not.toBeInstanceOf(BulkFailedError);
    expect(tripped.exitCode).toBe(ExitCode.transient);
    expect(tripped.message).toMatch(/^stopped after 4 of 10 rows: the last rows all failed for a transient reason/);

    const transient = runError({ ...base, transientOnly: true }, undefined) as CliError;
    expect(transient.exitCode).toBe(ExitCode.transient);
    expect(transient.message).toMatch(/^1 of 10 rows failed, all for a transient reason \(429, 5xx, network, timeout\)/);

    const failed = runError(base, undefined) as CliError;
    expect(failed).toBeInstanceOf(BulkFailedError);
    expect(failed.exitCode).toBe(ExitCode.bulkFailed);
    expect(failed.message).toMatch(/^1 of 10 rows failed \(result "failed" in the output, with the reason\)/);

    expect(runError({ ...base, counts: { ...base.counts, failed: 0 }, transientOnly: true }, undefined)).toBeUndefined();
  });
});

describe('oneLine', () => {
  it('joins the lines of a message, ending a line that ends no sentence with a full stop', () => {
    expect(oneLine('student with e-mail a@b.c not found (GET /x)\nNo usual slip matches')).toBe('student with e-mail a@b.c not found (GET /x). No usual slip matches');
    expect(oneLine('not a valid CPF (a typo?)\n  Did you mean: 1?\n')).toBe('not a valid CPF (a typo?) Did you mean: 1?');
    expect(oneLine('ends.\nnext:\nlast')).toBe('ends. next: last');
    expect(oneLine('one line')).toBe('one line');
  });
});

describe('an export sent twice', () => {
  const cells = (student: string, product: string, date = '') => ({ student, product_id: product, date });

  it('leaves out a row that is an earlier one again cell for cell, and keeps a problem for one that disagrees', () => {
    const parsed: ParsedRow[] = [
      { line: 2, values: cells('a', 'p1') }, { line: 3, values: cells('b', 'p1') }, { line: 4, values: cells('a', 'p1') },
      { line: 5, values: cells('a', 'p1', '2026-01-01') }, { line: 6, values: cells('b', 'p1') }, { line: 7, values: cells('c', 'p1') },
    ];
    const run = planRun(operation(), parsed, NOW);
    expect(run.collapsed).toEqual([4, 6]);
    expect(run.rows.map((row) => row.line)).toEqual([2, 3, 5, 7]);
    expect(run.invalid.map((row) => [row.line, row.problem])).toEqual([[5, 'duplicate of line 2 (same student and product)']]);
    // Indexes into the rows kept, not the file's.
    expect(run.todo.map((row) => [row.index, row.line])).toEqual([[0, 2], [1, 3], [3, 7]]);
  });

  it('says nothing of collapsed rows when there are none', () => {
    const run = planRun(operation(), rows(['a', 'p1'], ['b', 'p1']), NOW);
    expect(run).not.toHaveProperty('collapsed');
    expect(collapsedNotice(run)).toBeUndefined();
    expect(collapsedNotice({ collapsed: [] })).toBeUndefined();
  });

  it('tells how many rows were ignored and lists their lines, the first ten of many', () => {
    expect(collapsedNotice({ collapsed: [5] })).toBe('1 duplicate row ignored (the same as an earlier row, cell for cell: line 5)');
    expect(collapsedNotice({ collapsed: [5, 9, 12] })).toBe('3 duplicate rows ignored (the same as an earlier row, cell for cell: lines 5, 9, 12)');
    const ten = Array.from({ length: 10 }, (_, i) => i + 2);
    expect(collapsedNotice({ collapsed: ten })).toBe('10 duplicate rows ignored (the same as an earlier row, cell for cell: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)');
    expect(collapsedNotice({ collapsed: [...ten, 12] })).toBe('11 duplicate rows ignored (the same as an earlier row, cell for cell: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11…)');
  });

  it('keeps the collapsed rows through product resolution, and invalid rows as they were', async () => {
    const parsed: ParsedRow[] = [{ line: 2, values: cells('a', 'Yoga') }, { line: 3, values: cells('a', 'Yoga') }, { line: 4, values: cells('', 'Yoga') }];
    const resolved = await resolveProducts(operation(), planRun(operation(), parsed, NOW), async () => ({ id: 'p1', title: 'Yoga' }));
    expect(resolved.collapsed).toEqual([3]);
    expect(resolved.todo.map((row) => [row.line, row.plan])).toEqual([[2, { student: 'a', product: 'p1' }]]);
    expect(resolved.invalid.map((row) => [row.line, row.problem])).toEqual([[4, 'student is empty']]);
    const plain = await resolveProducts(operation(), planRun(operation(), rows(['a', 'Yoga']), NOW), async () => ({ id: 'p1', title: 'Yoga' }));
    expect(plain).not.toHaveProperty('collapsed');
  });
});

describe('execute: what each row is given and what stops a run', () => {
  const transient = () => new TransientError('server unavailable (503)', ExitCode.transient, REQUEST, 503);

  it('binds each row\'s records to its line in the file (what a resumed run looks for), and runs without a context when none is given', async () => {
    const bound: unknown[] = [];
    const journal = { with: (fields: unknown) => (bound.push(fields), journal) } as unknown as Journal;
    const op = operation();
    const seen: Array<RowContext | undefined> = [];
    const spy: typeof op = { ...op, apply: async (given, plan) => (seen.push(given), granted(plan)) };
    await execute(spy, planRun(op, rows(['a', 'p1'], ['', 'p1'], ['b', 'p1']), NOW), { ...context, journal }, { concurrency: 1, dryRun: true, reason: 'r' }).settled;
    expect(bound).toEqual([{ line: 2 }, { line: 4 }]);
    expect(seen.map((given) => [given?.dryRun, given?.reason, given?.journal === journal])).toEqual([[true, 'r', true], [true, 'r', true]]);
    const alone = execute(op, planRun(op, rows(['a', 'p1']), NOW), undefined, { concurrency: 1, dryRun: true });
    expect((await all(alone)).map((outcome) => outcome.result)).toEqual(['granted']);
  });

  it('names a failed row by its cells, and reports a thrown undefined as it is', async () => {
    const op = operation(async () => {
      throw undefined;
    });
    const [outcome] = await all(execute(op, planRun(op, rows(['a', 'p1']), NOW), context, { concurrency: 1, dryRun: false }));
    expect(outcome).toMatchObject({ line: 2, student: 'a', product_id: 'p1', result: 'failed', message: 'unexpected error: undefined' });
  });

  it('trips the breaker on the 8th transient failure in a row at concurrency 1, the 12th at concurrency 6', async () => {
    for (const [concurrency, at] of [[1, 8], [6, 12]] as const) {
      const down = operation(async () => {
        throw transient();
      });
      const trippedAt: number[] = [];
      const running: { execution?: ReturnType<typeof execute> } = {};
      let done = 0;
      const execution = execute(down, planRun(down, rows(...Array.from({ length: 40 }, (_, i): [string, string] => [`s${i}`, 'p1'])), NOW), context, {
        concurrency, dryRun: false, onRow: () => void (++done, running.execution?.tripped && trippedAt.push(done)),
      });
      running.execution = execution;
      await execution.settled;
      expect(trippedAt[0]).toBe(at);
    }
  });

  it('counts only transient failures towards the breaker: rejected rows one after another do not stop the run', async () => {
    const op = operation(async () => {
      throw new RejectedError('rejected', ExitCode.rejected, REQUEST, 422);
    });
    const execution = execute(op, planRun(op, rows(...Array.from({ length: 12 }, (_, i): [string, string] => [`s${i}`, 'p1'])), NOW), context, { concurrency: 1, dryRun: false });
    await execution.settled;
    expect(execution.tripped).toBe(false);
    expect(execution.outcomes()).toHaveLength(12);
  });

  it('serves each outcome as soon as the rows before it are done, while later rows are still on their way', async () => {
    const release: Record<string, () => void> = {};
    // Rows that finish on a later turn of the event loop, as requests do.
    const op = operation((plan) => new Promise((resolve) => (release[plan.student] = () => setImmediate(() => resolve(granted(plan))))));
    const execution = execute(op, planRun(op, rows(['a', 'p1'], ['b', 'p1']), NOW), context, { concurrency: 2, dryRun: false });
    const served = execution.inOrder();
    const first = served.next();
    release.a?.();
    expect((await first).value).toMatchObject({ line: 2, result: 'granted' });
    release.b?.();
    expect((await served.next()).value).toMatchObject({ line: 3, result: 'granted' });
    expect((await served.next()).done).toBe(true);
  });
});

describe('summing up a run', () => {
  const base: BulkSummary = {
    rows: 10, processed: 10, counts: { granted: 7, revoked: 0, renewed: 0, created: 0, skipped: 2, failed: 1 },
    seconds: 12.345, interrupted: false, dryRun: false, transientOnly: false, tripped: false,
  };

  it('counts results beyond the usual ones (a sync\'s stale rows), is interrupted when rows were left unstarted, and keeps how it read', async () => {
    const running: { execution?: ReturnType<typeof execute> } = {};
    const op = operation(async (plan) => {
      if (plan.student === 'b') running.execution?.stop();
      return { ...granted(plan), result: 'stale' };
    });
    const run = planRun(op, rows(['a', 'p1'], ['b', 'p1'], ['c', 'p1']), NOW);
    const execution = execute(op, run, context, { concurrency: 1, dryRun: false });
    running.execution = execution;
    await execution.settled;
    const reads = { strategy: 'snapshot', reason: 'read 2 pages instead of 6 lookups', rowsCost: 6, pagesExact: true } as const;
    const summary = summarize(run, execution, { seconds: 2, interrupted: true, dryRun: false, reads });
    expect(summary).toMatchObject({ rows: 3, processed: 2, interrupted: true, reads: { strategy: 'snapshot', reason: 'read 2 pages instead of 6 lookups' } });
    expect(summary.reads).toEqual({ strategy: 'snapshot', reason: 'read 2 pages instead of 6 lookups' });
    expect(summary.counts).toEqual({ granted: 0, revoked: 0, renewed: 0, created: 0, skipped: 0, failed: 0, stale: 2 });
  });

  it('says how the run read the state, and its stale rows, in the summary line', () => {
    expect(summaryLine({ done: 'granted' }, { ...base, reads: { strategy: 'snapshot', reason: 'read 20 pages instead of 1,874 lookups' } }))
      .toBe('10 rows: 7 granted, 2 skipped, 1 failed in 12.3s (read 20 pages instead of 1,874 lookups)');
    expect(summaryLine({ done: 'granted' }, { ...base, counts: { ...base.counts, stale: 2 } })).toBe('10 rows: 7 granted, 2 skipped, 2 stale, 1 failed in 12.3s');
  });

  it('ends a run with stale rows in exit 7, saying nothing was sent for them, even when its failures were transient', () => {
    const one = runError({ ...base, counts: { ...base.counts, failed: 0, stale: 1 } }, undefined) as CliError;
    expect(one).toBeInstanceOf(BulkFailedError);
    expect(one.message).toBe('1 of 10 rows was stale: the subscription changed since the run read it, and nothing was sent for it '
      + '(result "stale" in the output, with the state now); look at them, then run the same file again if the change is still wanted');
    const two = runError({ ...base, counts: { ...base.counts, failed: 0, stale: 2 } }, undefined) as CliError;
    expect(two.message).toMatch(/^2 of 10 rows were stale: .* nothing was sent for them \(/);
    const mixed = runError({ ...base, transientOnly: true, counts: { ...base.counts, stale: 1 } }, undefined) as CliError;
    expect(mixed).toBeInstanceOf(BulkFailedError);
    expect(mixed.message).toMatch(/^1 of 10 rows failed \(result "failed"/);
  });
});
