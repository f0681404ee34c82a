/**
 * What `members sync` reads and writes: the rows of its file (domain/sync/rows.ts,
 * with the bulk engine's RunPlanner), a planned change as a record and back
 * (records.ts), and a saved plan with its hash and its base URL (saved-plan.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { PlanRecord as PlanRecordSchema } from '../../../src/domain/sync/records.js';
import { RunPlanner, resolveProducts } from '../../../src/domain/bulk/engine.js';
import { desiredRowReader, desiredRows, productsInScope, refuseEmpty, refuseProductColumn, syncColumns } from '../../../src/domain/sync/rows.js';
import { changeOf, planRecord, type PlanRecord } from '../../../src/domain/sync/records.js';
import { checkPlanTarget, parseSavedPlan, planHash, savedPlanText, type SavedPlan } from '../../../src/domain/sync/saved-plan.js';
import type { PlannedChange } from '../../../src/domain/sync/plan.js';
import { UsageError } from '../../../src/lib/errors.js';

const NOW = new Date(2025, 5, 30);

function read(productsGiven: boolean, ...rows: Array<Record<string, string>>) {
  const planner = new RunPlanner(desiredRowReader(productsGiven), NOW);
  rows.forEach((values, index) => planner.add({ line: index + 2, values }));
  return planner.done();
}

describe('the rows of a sync file', () => {
  it('needs product_id unless --product names the products', () => {
    expect(syncColumns(false)).toEqual({ required: ['student', 'product_id'], optional: ['accession_date', 'expiration_date'] });
    expect(syncColumns(true)).toEqual({ required: ['student'], optional: ['product_id', 'accession_date', 'expiration_date'] });
  });

  it('reads a student key, a product cell and the dates given (an empty cell is not given)', () => {
    const run = read(false,
      { student: 'Maria@Example.com', product_id: ' Python Pro ', accession_date: '2025-01-02', expiration_date: '' },
      { student: 'doc:123', product_id: 'p1', accession_date: '', expiration_date: '2026-01-01' });
    expect(run.invalid).toEqual([]);
    expect(run.todo.map((row) => row.plan)).toStrictEqual([
      { student: 'Maria@Example.com', key: { kind: 'email', value: 'Maria@Example.com' }, product: 'Python Pro', accession: '2025-01-02' },
      { student: 'doc:123', key: { kind: 'document', value: '123' }, product: 'p1', expiration: '2026-01-01' },
    ]);
    expect(run.rows[0]?.identity).toEqual({ student: 'Maria@Example.com', product_id: ' Python Pro ' });
    expect(desiredRowReader(false).identify({})).toEqual({ student: '', product_id: '' });
  });

  it('checks each cell, and no order of the dates (the plan does, for rows that change)', () => {
    const run = read(false,
      { student: '', product_id: 'p1' },
      { student: 'a@example.com', product_id: '' },
      { student: 'a@example.com', product_id: 'p1', accession_date: '2025-02-30' },
      { student: 'a@example.com', product_id: 'p1', expiration_date: 'next week' },
      { student: 'b@example.com', product_id: 'p1', accession_date: '2026-01-01', expiration_date: '2025-01-01' },
      { student: 'doc:', product_id: 'p1' });
    expect(run.invalid.map((row) => [row.line, row.problem])).toEqual([
      [2, 'student is empty'],
      [3, 'empty product_id; give the id of a product (see `members products list`)'],
      [4, 'invalid accession_date "2025-02-30": expected a real calendar date as YYYY-MM-DD'],
      [5, 'invalid expiration_date "next week": expected a date as DD/MM/YYYY or YYYY-MM-DD'],
      [7, 'student "doc:" is not a student key: give an id, an e-mail, doc:DOCUMENT or ref:REFERENCE'],
    ]);
    expect(run.todo.map((row) => row.line)).toEqual([6]);
  });

  it('a row naming the same student (e-mails without case) and product again is a duplicate', () => {
    const run = read(false, { student: 'A@example.com', product_id: 'p1' }, { student: 'a@example.com', product_id: 'p1' }, { student: 'a@example.com', product_id: 'p2' });
    expect(run.invalid.map((row) => [row.line, row.problem])).toEqual([[3, 'duplicate of line 2 (the same student and product_id)']]);
    const given = read(true, { student: 'a@example.com' }, { student: 'A@example.com' });
    expect(given.invalid.map((row) => [row.line, row.problem])).toEqual([[3, 'duplicate of line 2 (the same student)']]);
    expect(given.todo[0]?.plan.product).toBe('');
  });

  it('product cells resolve to ids, and two cells naming one product make a duplicate', async () => {
    const reader = desiredRowReader(false);
    const run = read(false, { student: 'a@example.com', product_id: 'Python' }, { student: 'a@example.com', product_id: 'p1' }, { student: 'b@example.com', product_id: 'Yoga' });
    const resolved = await resolveProducts(reader, run, async (cell) => ({ id: cell === 'Python' ? 'p1' : cell === 'Yoga' ? 'p2' : cell, title: '' }));
    expect(resolved.invalid.map((row) => [row.line, row.problem])).toEqual([[3, 'duplicate of line 2 (the same student and product_id)']]);
    expect(desiredRows(resolved.todo)).toEqual([
      { line: 2, student: 'a@example.com', key: { kind: 'email', value: 'a@example.com' }, productId: 'p1' },
      { line: 4, student: 'b@example.com', key: { kind: 'email', value: 'b@example.com' }, productId: 'p2' },
    ]);
  });

  it('with --product, each row is for each product, and those products are in scope even without rows', () => {
    const run = read(true, { student: 'a@example.com', expiration_date: '2026-01-01' }, { student: 'b@example.com', accession_date: '2025-01-01' });
    const rows = desiredRows(run.todo, ['p1', 'p2']);
    expect(rows[0]).toStrictEqual({ line: 2, student: 'a@example.com', key: { kind: 'email', value: 'a@example.com' }, productId: 'p1', expiration: '2026-01-01' });
    expect(rows[2]).toStrictEqual({ line: 3, student: 'b@example.com', key: { kind: 'email', value: 'b@example.com' }, productId: 'p1', accession: '2025-01-01' });
    expect(rows.map((row) => [row.line, row.productId, row.accession, row.expiration])).toEqual([
      [2, 'p1', undefined, '2026-01-01'], [2, 'p2', undefined, '2026-01-01'], [3, 'p1', '2025-01-01', undefined], [3, 'p2', '2025-01-01', undefined],
    ]);
    expect(productsInScope(rows.slice(0, 1), ['p1', 'p2'])).toEqual(['p1', 'p2']);
    expect(productsInScope(desiredRows([{ line: 2, plan: { student: 'a', key: { kind: 'id', value: 'a' }, product: 'p2' } }, { line: 3, plan: { student: 'b', key: { kind: 'id', value: 'b' }, product: 'p1' } }, { line: 4, plan: { student: 'c', key: { kind: 'id', value: 'c' }, product: 'p2' } }]))).toEqual(['p2', 'p1']);
  });

  it('refuses a product_id column with --product, and an empty file', () => {
    expect(() => refuseProductColumn({ student: 'a', product_id: '' }, true, 'f.csv')).toThrow(new UsageError('f.csv has a product_id column and --product was given: name the products one way, not both; nothing was sent'));
    expect(() => refuseProductColumn({ student: 'a', product_id: 'p' }, false, 'f.csv')).not.toThrow();
    expect(() => refuseProductColumn({ student: 'a' }, true, 'f.csv')).not.toThrow();
    expect(() => refuseEmpty(0, 'f.csv')).toThrow(new UsageError('f.csv has no rows: a sync makes access match the file, so an empty file would revoke everyone in scope; nothing was sent'));
    expect(() => refuseEmpty(1, 'f.csv')).not.toThrow();
  });
});

const CHANGES: PlannedChange[] = [
  { action: 'grant', line: 2, student: 'a@example.com', productId: 'p1', accession: '2025-06-30', notes: ['not in the student list read: looked up when applied'] },
  {
    action: 'restore', line: 3, student: 'b', studentId: 'b', productId: 'p1', accession: '2024-01-01', expiration: '2026-01-01',
    from: { hasAccess: false, id: '77', status: 'canceled', accessionDate: '2024-01-01', expirationDate: '2025-01-01' }, notes: ['one', 'two'],
  },
  { action: 'revoke', student: 'c', studentId: 'c', productId: 'p1', from: { hasAccess: true }, notes: [] },
];

describe('plan records', () => {
  it('take dates as YYYY-MM-DD only', () => {
    const record = planRecord(CHANGES[1] as PlannedChange);
    expect(PlanRecordSchema.safeParse(record).success).toBe(true);
    for (const date of ['2025-01-01x', 'x2025-01-01', '2025-1-01']) expect(PlanRecordSchema.safeParse({ ...record, expiration_date: date }).success).toBe(false);
  });

  it('are flat, with null for what is absent', () => {
    expect(CHANGES.map(planRecord)).toEqual([
      {
        action: 'grant', line: 2, student: 'a@example.com', student_id: null, product_id: 'p1', accession_date: '2025-06-30', expiration_date: null,
        current_access: null, current_subscription_id: null, current_status: null, current_accession_date: null, current_expiration_date: null, note: 'not in the student list read: looked up when applied',
      },
      {
        action: 'restore', line: 3, student: 'b', student_id: 'b', product_id: 'p1', accession_date: '2024-01-01', expiration_date: '2026-01-01',
        current_access: false, current_subscription_id: '77', current_status: 'canceled', current_accession_date: '2024-01-01', current_expiration_date: '2025-01-01', note: 'one; two',
      },
      {
        action: 'revoke', line: null, student: 'c', student_id: 'c', product_id: 'p1', accession_date: null, expiration_date: null,
        current_access: true, current_subscription_id: null, current_status: null, current_accession_date: null, current_expiration_date: null, note: null,
      },
    ]);
  });

  it('give back the change they describe', () => {
    expect(CHANGES.map(planRecord).map(changeOf)).toEqual(CHANGES);
  });
});

describe('saved plans', () => {
  // Built inside the tests (a throw while the file is collected would pass for no test at all).
  const body = () => ({
    created: '2025-06-30T12:00:00.000Z', profile: 'prod', base_url: 'https://members.example.com', source: 'access.csv', mode: 'both' as const,
    products: ['p1'], in_sync: 12, changes: CHANGES.map(planRecord),
  });
  let text = '';
  beforeEach(() => {
    text = savedPlanText(body());
  });

  it('are written with their kind, version and a hash of everything else, and read back as they were', () => {
    const saved = JSON.parse(text) as SavedPlan;
    expect(Object.keys(saved)).toEqual(['kind', 'version', 'created', 'profile', 'base_url', 'source', 'mode', 'products', 'in_sync', 'changes', 'hash']);
    expect(saved.kind).toBe('members-sync-plan');
    expect(saved.version).toBe(1);
    expect(saved.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "kind": "members-sync-plan",\n');
    expect(parseSavedPlan(text, 'plan.json')).toEqual(saved);
  });

  it('the hash is sha256 of every field but itself, in a fixed order', () => {
    const saved = JSON.parse(text) as SavedPlan;
    const { hash, ...rest } = saved;
    const keys = Object.keys(PlanRecordSchema.shape) as Array<keyof PlanRecord>;
    const canonical = JSON.stringify([rest.kind, rest.version, rest.created, rest.profile, rest.base_url, rest.source, rest.mode, rest.products, rest.in_sync,
      rest.changes.map((change) => keys.map((key) => change[key]))]);
    expect(hash).toBe(`sha256:${createHash('sha256').update(canonical).digest('hex')}`);
    expect(planHash(rest)).toBe(hash);
  });

  it('the hash does not depend on the order of the keys in the file', () => {
    const saved = JSON.parse(text) as SavedPlan;
    const reordered = JSON.stringify({ hash: saved.hash, ...Object.fromEntries(Object.entries(saved).reverse()), changes: saved.changes.map((change) => Object.fromEntries(Object.entries(change).reverse())) });
    expect(parseSavedPlan(reordered, 'plan.json').changes).toEqual(saved.changes);
  });

  it.each([
    ['a change', (plan: SavedPlan) => ((plan.changes[2] as PlanRecord).student = 'someone-else')],
    ['a date', (plan: SavedPlan) => ((plan.changes[1] as PlanRecord).expiration_date = '2027-01-01')],
    ['the products', (plan: SavedPlan) => plan.products.push('p2')],
    ['the base URL', (plan: SavedPlan) => (plan.base_url = 'https://other.example.com')],
    ['a change left out', (plan: SavedPlan) => plan.changes.pop()],
    ['the count in sync', (plan: SavedPlan) => (plan.in_sync = 13)],
    ['the creation time', (plan: SavedPlan) => (plan.created = '2025-07-01T12:00:00.000Z')],
    ['the profile', (plan: SavedPlan) => (plan.profile = 'other')],
    ['the source', (plan: SavedPlan) => (plan.source = 'x.csv')],
    ['the mode', (plan: SavedPlan) => (plan.mode = 'add-only')],
  ])('an edit of %s is refused', (_, edit) => {
    const saved = JSON.parse(text) as SavedPlan;
    edit(saved);
    expect(() => parseSavedPlan(JSON.stringify(saved), 'plan.json')).toThrow(new UsageError(
      'plan.json was changed after it was written (its hash does not match); nothing was sent. A plan is applied as it was made: plan again with --plan-out',
    ));
  });

  it('a plan whose hash was computed again is taken (the hash finds edits; it is no signature)', () => {
    const saved = JSON.parse(text) as SavedPlan;
    saved.in_sync = 13;
    const { hash: _old, ...rest } = saved;
    expect(parseSavedPlan(JSON.stringify({ ...rest, hash: planHash(rest) }), 'p.json').in_sync).toBe(13);
  });

  it('what is not a plan is refused, saying what is wrong', () => {
    const how = 'make one with `members sync --file FILE --plan-out p.json`';
    expect(() => parseSavedPlan('{', 'p.json')).toThrow(new UsageError(`p.json is not a sync plan (not JSON); ${how}`));
    expect(() => parseSavedPlan('[]', 'p.json')).toThrow(new UsageError(`p.json is not a sync plan members can apply (Invalid input: expected object, received array); ${how}`));
    const saved = JSON.parse(text) as Record<string, unknown>;
    expect(() => parseSavedPlan(JSON.stringify({ ...saved, version: 2 }), 'p.json')).toThrow(/^p\.json is not a sync plan members can apply \(.+ at version\); make one/);
    const changes = (saved.changes as PlanRecord[]).map((change, index) => (index === 1 ? { ...change, action: 'delete' } : change));
    expect(() => parseSavedPlan(JSON.stringify({ ...saved, changes }), 'p.json')).toThrow(/ at changes\.1\.action\); make one/);
    expect(() => parseSavedPlan(JSON.stringify({ ...saved, extra: 1 }), 'p.json')).toThrow(/^p\.json is not a sync plan members can apply/);
    expect(() => parseSavedPlan(JSON.stringify({ ...saved, mode: 'sideways' }), 'p.json')).toThrow(/ at mode\); make one/);
    expect(() => parseSavedPlan(JSON.stringify({ ...saved, mode: '' }), 'p.json')).toThrow(/ at mode\); make one/);
  });

  it('a plan for another base URL, or made with another profile, is refused, saying what differs and what to do', () => {
    expect(() => checkPlanTarget(body(), { baseUrl: 'https://members.example.com', profile: 'prod' }, 'p.json')).not.toThrow();
    const replan = 'plan again here: `members sync --file access.csv --plan-out p.json`';
    expect(() => checkPlanTarget(body(), { baseUrl: 'http://127.0.0.1:8787', profile: 'sandbox' }, 'p.json')).toThrow(new UsageError(
      'p.json was made for https://members.example.com (profile prod), but the base URL in force is http://127.0.0.1:8787 (profile sandbox); nothing was sent. '
        + `A plan applies only to the server it was planned from: apply it there (--profile prod), or ${replan}`,
    ));
    // The same profile: the base URL was given otherwise (--base-url, MEMBERS_BASE_URL); --profile would change nothing.
    expect(() => checkPlanTarget(body(), { baseUrl: 'http://127.0.0.1:8787', profile: 'prod' }, 'p.json'))
      .toThrow('but the base URL in force is http://127.0.0.1:8787 (profile prod); nothing was sent. A plan applies only to the server it was planned from: apply it there (--base-url https://members.example.com), or');
    expect(() => checkPlanTarget(body(), { baseUrl: '', profile: 'prod' }, 'p.json')).toThrow(/the base URL in force is none \(profile prod\)/);
    expect(() => checkPlanTarget(body(), { baseUrl: 'https://members.example.com', profile: 'other' }, 'p.json')).toThrow(new UsageError(
      'p.json was made with profile prod, but the profile in force is other (the same base URL, https://members.example.com); nothing was sent. '
        + `A plan is applied with the profile it was made with (its credentials, its name in the audit log): run with --profile prod, or ${replan}`,
    ));
    expect(() => checkPlanTarget({ ...body(), source: 'stdin' }, { baseUrl: 'https://members.example.com', profile: 'other' }, 'p.json')).toThrow('`members sync --file - --plan-out p.json`');
  });
});
