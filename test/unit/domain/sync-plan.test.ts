/**
 * The sync planner (domain/sync/plan.ts): desired rows × the platform's
 * state → the plan, with every kind of change, the modes, the status rule,
 * the dates rule, duplicates, the caps and the summary.
 */
import { describe, expect, it } from 'vitest';
import { parseStudentKey } from '../../../src/api/endpoints/student-key.js';
import { Snapshot, type SnapshotStudent, type SnapshotSubscription } from '../../../src/domain/snapshot.js';
import {
  capMessage, countActions, overCap, parseRevokeCap, planSummary, planSync, revokeCap,
  type DesiredRow, type SyncOptions, type SyncState,
} from '../../../src/domain/sync/plan.js';

const NOW = new Date(2025, 5, 30, 12);
const TODAY = '2025-06-30';
const P = 'p1';
const Q = 'p2';

function state(students: SnapshotStudent[], subscriptions: SnapshotSubscription[]): SyncState {
  return {
    findStudent: (key) => students.find((student) => (key.kind === 'id' ? student.id === key.value
      : key.kind === 'email' ? student.email?.toLowerCase() === key.value.toLowerCase()
        : key.kind === 'reference' ? student.reference === key.value : student.document === key.value)),
    subscription: (studentId, productId) => subscriptions.find((held) => held.studentId === studentId && held.productId === productId),
    holders: (productId) => subscriptions.filter((held) => held.productId === productId),
  };
}

const student = (n: number): SnapshotStudent => ({ id: `s${n}`, email: `s${n}@example.com`, name: `S ${n}` });
const held = (n: number, productId: string, fields: Partial<SnapshotSubscription> = {}): SnapshotSubscription => ({
  studentId: `s${n}`, productId, hasAccess: true, status: 'active', accessionDate: '2024-01-01', ...fields,
});
const row = (line: number, key: string, productId = P, dates: Partial<Pick<DesiredRow, 'accession' | 'expiration'>> = {}): DesiredRow => ({
  line, student: key, key: parseStudentKey(key), productId, ...dates,
});
const options = (more: Partial<SyncOptions> = {}): SyncOptions => ({ mode: 'both', includeStatusChanges: false, now: NOW, ...more });
const students = Array.from({ length: 40 }, (_, i) => student(i));

describe('planSync', () => {
  it('plans every kind of change, in file order then the revokes, and counts the rows in sync', () => {
    const platform = state(students, [
      held(1, P),
      held(2, P, { hasAccess: false, status: 'inactive', expirationDate: '2024-12-31' }),
      held(3, P, { expirationDate: '2025-12-31' }),
      held(4, P, { expirationDate: '2025-12-31' }),
      held(5, P),
      held(6, Q),
    ]);
    const plan = planSync([
      row(2, 's0@example.com'),
      row(3, 's1@example.com'),
      row(4, 's2', P, { expiration: '2026-01-31' }),
      row(5, 's3@example.com', P, { expiration: '2026-06-30' }),
      row(6, 's4@example.com', P, { expiration: '2025-12-31' }),
    ], [P], platform, options());
    expect(plan.changes).toStrictEqual([
      { action: 'grant', line: 2, student: 's0@example.com', studentId: 's0', productId: P, accession: TODAY, expiration: undefined, notes: [] },
      {
        action: 'restore', line: 4, student: 's2', studentId: 's2', productId: P, accession: '2024-01-01', expiration: '2026-01-31',
        from: { hasAccess: false, status: 'inactive', accessionDate: '2024-01-01', expirationDate: '2024-12-31' },
        notes: ["status inactive becomes active (the server's default for a grant)"],
      },
      {
        action: 'change-expiration', line: 5, student: 's3@example.com', studentId: 's3', productId: P, accession: '2024-01-01', expiration: '2026-06-30',
        from: { hasAccess: true, status: 'active', accessionDate: '2024-01-01', expirationDate: '2025-12-31' }, notes: [],
      },
      { action: 'revoke', student: 's5@example.com', studentId: 's5', productId: P, from: { hasAccess: true, status: 'active', accessionDate: '2024-01-01' }, notes: [] },
    ]);
    expect(plan.inSync).toBe(2);
    expect(plan.products).toEqual([P]);
    expect(plan.problems).toEqual([]);
    expect(plan.statusChanges).toEqual([]);
    expect(plan.leftOut).toEqual({ additions: 0, revocations: 0 });
    expect(countActions(plan.changes)).toEqual({ grant: 1, restore: 1, 'change-expiration': 1, revoke: 1, 'not-found': 0 });
  });

  it('never looks at products out of scope, nor at holders without access', () => {
    const platform = state(students, [held(1, Q), held(2, P, { hasAccess: false }), held(3, P)]);
    const plan = planSync([row(2, 's3')], [P], platform, options());
    expect(plan.changes).toEqual([]);
    expect(plan.inSync).toBe(1);
    expect(plan.caps).toEqual([]);
  });

  it('an accession date alone is never a reason to change; a row without expiration leaves it alone', () => {
    const platform = state(students, [held(1, P, { expirationDate: '2025-12-31' })]);
    expect(planSync([row(2, 's1', P, { accession: '2020-01-01' })], [P], platform, options()).inSync).toBe(1);
    expect(planSync([row(2, 's1', P, { accession: '2020-01-01', expiration: '2025-12-31' })], [P], platform, options()).inSync).toBe(1);
  });

  it('compares dates by day (a server that sends times)', () => {
    const platform = state(students, [held(1, P, { expirationDate: '2025-12-31 00:00:00' })]);
    expect(planSync([row(2, 's1', P, { expiration: '2025-12-31' })], [P], platform, options()).inSync).toBe(1);
  });

  it('a restore keeps the accession unless the file gives one, and takes the old expiration while it has not passed', () => {
    const platform = state(students, [
      held(1, P, { hasAccess: false, expirationDate: '2026-01-01', status: undefined }),
      held(2, P, { hasAccess: false, expirationDate: '2025-01-01', status: undefined, accessionDate: undefined }),
    ]);
    const plan = planSync([row(2, 's1', P, { accession: '2025-02-01' }), row(3, 's2')], [P], platform, options());
    expect(plan.changes.map(({ action, accession, expiration, notes }) => ({ action, accession, expiration, notes }))).toEqual([
      { action: 'restore', accession: '2025-02-01', expiration: '2026-01-01', notes: [] },
      { action: 'restore', accession: TODAY, expiration: undefined, notes: [] },
    ]);
    expect(plan.changes[0]?.from).toStrictEqual({ hasAccess: false, expirationDate: '2026-01-01', accessionDate: '2024-01-01' });
    expect(plan.changes[1]?.from).toStrictEqual({ hasAccess: false, expirationDate: '2025-01-01' });
  });

  it('a student without access whose expiration also differs is one restore, with the file\'s expiration', () => {
    const platform = state(students, [held(1, P, { hasAccess: false, expirationDate: '2024-01-01' })]);
    const plan = planSync([row(2, 's1', P, { expiration: '2027-01-01' })], [P], platform, options());
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ action: 'restore', expiration: '2027-01-01' });
  });

  it('a student the snapshot does not hold (the whole platform) is not-found: listed, never sent, counted; it never matches a holder', () => {
    const platform = state(students, [held(1, P)]);
    const plan = planSync([row(2, 'new@example.com', P, { expiration: '2020-01-01' }), row(3, 's1')], [P], platform, options());
    expect(plan.changes).toEqual([
      {
        action: 'not-found', line: 2, student: 'new@example.com', studentId: undefined, productId: P,
        notes: ['no student new@example.com on the platform: never sent (exit 7 when applied); import the student first (members students import), then sync again'],
      },
    ]);
    expect(countActions(plan.changes)['not-found']).toBe(1);
    expect(planSummary(plan, 'both', new Map([[P, 'Python Pro']]))).toBe(`Plan for product "Python Pro" (${P}): 0 to grant, 0 to restore, 0 to change expiration, 0 to revoke, 1 already in sync, `
      + '1 row naming a student not on the platform (not-found: never sent).');
    // An addition: --remove-only leaves it out.
    expect(planSync([row(2, 'new@example.com')], [P], platform, options({ mode: 'remove-only', maxRevoke: { count: 1 } })).leftOut.additions).toBe(1);
  });

  it('keeps the subscription\'s id as text (undo and a saved plan tell a subscription granted again since by it)', () => {
    const platform = state(students, [held(1, P, { id: 42 }), held(2, P, { id: 'u-2', hasAccess: false })]);
    const plan = planSync([row(2, 's2')], [P], platform, options());
    expect(plan.changes.map((change) => change.from?.id)).toEqual(['u-2', '42']);
  });

  it('a revoke names the student by e-mail, else by id (also a holder whose student the state does not hold)', () => {
    const platform = state([{ id: 's9', name: '' }, ...students], [held(9, P), held(1, P), held(77, P)]);
    const plan = planSync([row(2, 's1')], [P], platform, options({ maxRevoke: { count: 5 } }));
    expect(plan.changes.map((change) => change.student)).toEqual(['s9', 's77']);
  });

  it('an expiration change that would reset a status is left out, unless includeStatusChanges (then noted)', () => {
    const platform = state(students, [held(1, P, { status: 'canceled', expirationDate: '2025-12-31' })]);
    const rows = [row(2, 's1', P, { expiration: '2026-12-31' })];
    const left = planSync(rows, [P], platform, options());
    expect(left.changes).toEqual([]);
    expect(left.statusChanges).toHaveLength(1);
    expect(left.statusChanges[0]).toMatchObject({ action: 'change-expiration', line: 2, notes: ["status canceled becomes active (the server's default for a grant)"] });
    expect(left.inSync).toBe(0);
    const made = planSync(rows, [P], platform, options({ includeStatusChanges: true }));
    expect(made.changes).toEqual(left.statusChanges);
    expect(made.statusChanges).toEqual([]);
  });

  it('a restore is never left out for its status, and a subscription without a status resets nothing', () => {
    const platform = state(students, [held(1, P, { hasAccess: false, status: 'canceled' }), held(2, P, { status: undefined, expirationDate: '2025-12-31' })]);
    const plan = planSync([row(2, 's1'), row(3, 's2', P, { expiration: '2026-12-31' })], [P], platform, options());
    expect(plan.changes.map((change) => [change.action, change.notes])).toEqual([
      ['restore', ["status canceled becomes active (the server's default for a grant)"]],
      ['change-expiration', []],
    ]);
  });

  it('flags an expiration already past', () => {
    const platform = state(students, [held(1, P, { expirationDate: '2025-12-31' })]);
    const plan = planSync([row(2, 's1', P, { expiration: '2025-06-29' }), row(3, 's2', P, { accession: '2025-01-01', expiration: TODAY })], [P], platform, options({ mode: 'add-only' }));
    expect(plan.changes.map((change) => change.notes)).toEqual([['expiration 2025-06-29 has already passed'], []]);
  });

  describe('dates: the expiration cannot precede the accession, for rows that need a change only', () => {
    const platform = state(students, [held(1, P, { expirationDate: '2020-01-01' }), held(2, P, { accessionDate: '2025-03-01', expirationDate: '2025-12-31' })]);

    it('a row in sync is never refused for a past date', () => {
      const plan = planSync([row(2, 's1', P, { accession: '2021-01-01', expiration: '2020-01-01' })], [P], platform, options());
      expect(plan.problems).toEqual([]);
      expect(plan.inSync).toBe(1);
    });

    it('a grant: today is the accession when the file gives none', () => {
      const plan = planSync([row(2, 's3', P, { expiration: '2025-06-29' })], [P], platform, options());
      expect(plan.problems).toEqual([{ line: 2, message: 'expiration_date 2025-06-29 is before today (2025-06-30), the accession of a grant when accession_date is empty; the expiration cannot precede the accession' }]);
      expect(plan.changes.filter((change) => change.action !== 'revoke')).toEqual([]);
    });

    it('the file\'s accession', () => {
      const plan = planSync([row(2, 's3', P, { accession: '2025-01-02', expiration: '2025-01-01' })], [P], platform, options());
      expect(plan.problems).toEqual([{ line: 2, message: 'expiration_date 2025-01-01 is before accession_date 2025-01-02; the expiration cannot precede the accession' }]);
    });

    it('the subscription\'s own accession, kept', () => {
      const plan = planSync([row(2, 's2', P, { expiration: '2025-02-01' })], [P], platform, options());
      expect(plan.problems).toEqual([{ line: 2, message: "expiration_date 2025-02-01 is before the subscription's accession date (2025-03-01), kept when accession_date is empty; the expiration cannot precede the accession" }]);
    });

    it('the same day is fine', () => {
      const plan = planSync([row(2, 's3', P, { expiration: TODAY })], [P], platform, options({ mode: 'add-only' }));
      expect(plan.problems).toEqual([]);
      expect(plan.changes).toHaveLength(1);
    });

    it('--remove-only never plans additions, so never refuses their dates', () => {
      const plan = planSync([row(2, 's3', P, { expiration: '2020-01-01' })], [P], platform, options({ mode: 'remove-only', maxRevoke: { count: 9 } }));
      expect(plan.problems).toEqual([]);
      expect(plan.leftOut.additions).toBe(1);
    });
  });

  it('a phone two students share is a problem naming both, never a not-found', () => {
    const snapshot = new Snapshot();
    for (const n of [1, 2]) snapshot.add({ id: `s${n}`, email: `s${n}@example.com`, phone: '+55 61 93986-2924' });
    const plan = planSync([row(2, '(61) 93986-2924')], [P], snapshot, options());
    expect(plan.problems).toEqual([{ line: 2, message: "2 students have the phone (61) 93986-2924; give one's e-mail or id (s1, s2)" }]);
    expect(plan.changes).toEqual([]);
  });

  it('two rows naming one student by different keys are a problem; the first one counts', () => {
    const platform = state(students, [held(1, P)]);
    const plan = planSync([row(2, 's1@example.com'), row(3, 's1'), row(4, 's1', Q)], [P, Q], platform, options());
    expect(plan.problems).toEqual([{ line: 3, message: 'names the same student as line 2 (s1) for the same product; keep one row per student and product' }]);
    expect(plan.inSync).toBe(1);
    expect(plan.changes).toMatchObject([{ action: 'grant', line: 4, productId: Q }]);
  });

  it('--add-only never revokes (and counts what it leaves out); --remove-only never grants', () => {
    const platform = state(students, [held(1, P, { hasAccess: false }), held(2, P), held(3, P), held(4, P, { expirationDate: '2025-12-31' })]);
    const rows = [row(2, 's1'), row(3, 's0'), row(4, 's4', P, { expiration: '2026-12-31' })];
    const addOnly = planSync(rows, [P], platform, options({ mode: 'add-only' }));
    expect(countActions(addOnly.changes)).toEqual({ grant: 1, restore: 1, 'change-expiration': 1, revoke: 0, 'not-found': 0 });
    expect(addOnly.leftOut).toEqual({ additions: 0, revocations: 2 });
    expect(addOnly.caps).toEqual([]);
    const removeOnly = planSync(rows, [P], platform, options({ mode: 'remove-only', maxRevoke: { count: 2 } }));
    expect(countActions(removeOnly.changes)).toEqual({ grant: 0, restore: 0, 'change-expiration': 0, revoke: 2, 'not-found': 0 });
    expect(removeOnly.leftOut).toEqual({ additions: 3, revocations: 0 });
    expect(removeOnly.inSync).toBe(0);
  });

  it('--remove-only also leaves status changes out of the list', () => {
    const platform = state(students, [held(1, P, { status: 'canceled', expirationDate: '2025-12-31' })]);
    const plan = planSync([row(2, 's1', P, { expiration: '2026-12-31' })], [P], platform, options({ mode: 'remove-only' }));
    expect(plan.statusChanges).toEqual([]);
    expect(plan.leftOut.additions).toBe(1);
  });

  it('checks the revocations of each product against its cap', () => {
    const subscriptions = [...Array.from({ length: 30 }, (_, i) => held(i, P)), ...Array.from({ length: 5 }, (_, i) => held(i, Q)), held(35, Q, { hasAccess: false })];
    const platform = state(students, subscriptions);
    const rows = Array.from({ length: 26 }, (_, i) => row(i + 2, `s${i}`));
    const plan = planSync(rows, [P, Q], platform, options());
    expect(plan.caps).toEqual([
      { productId: P, holders: 30, revokes: 4, cap: 3, explicit: false },
      { productId: Q, holders: 5, revokes: 5, cap: 0, explicit: false },
    ]);
    expect(overCap(plan)).toEqual(plan.caps);
    expect(overCap(planSync(rows, [P, Q], platform, options({ maxRevoke: { count: 5 } })))).toEqual([]);
    expect(overCap(planSync(rows, [P, Q], platform, options({ maxRevoke: { percent: 100 } })))).toEqual([]);
    expect(overCap(planSync(rows, [P, Q], platform, options({ maxRevoke: { count: 4 } })))).toEqual([{ productId: Q, holders: 5, revokes: 5, cap: 4, explicit: true }]);
  });
});

describe('revokeCap and parseRevokeCap', () => {
  it('defaults to a tenth of the holders, rounded down, never more than 50', () => {
    expect([0, 9, 10, 19, 20, 499, 500, 510, 10_000].map((holders) => revokeCap(holders))).toEqual([0, 0, 1, 1, 2, 49, 50, 50, 50]);
  });

  it('takes a count as it is, and a percentage of the holders rounded down, without the ceiling', () => {
    expect(revokeCap(10, { count: 3 })).toBe(3);
    expect(revokeCap(10_000, { count: 700 })).toBe(700);
    expect(revokeCap(10_000, { percent: 5 })).toBe(500);
    expect(revokeCap(19, { percent: 10 })).toBe(1);
    expect(revokeCap(20, { percent: 10 })).toBe(2);
  });

  it('reads N and N%', () => {
    expect(parseRevokeCap('25')).toEqual({ count: 25 });
    expect(parseRevokeCap(' 0 ')).toEqual({ count: 0 });
    expect(parseRevokeCap('5%')).toEqual({ percent: 5 });
    expect(parseRevokeCap('100%')).toEqual({ percent: 100 });
    expect(parseRevokeCap('101')).toEqual({ count: 101 });
  });

  it.each(['', '-1', '1.5', '5 %', '%', '101%', 'ten', '1e3', '99999999999999999999'])('refuses %j', (text) => {
    expect(() => parseRevokeCap(text)).toThrow(`invalid --max-revoke ${JSON.stringify(text)}: expected a number of revocations per product (25) or a percentage of its holders (5%, at most 100%)`);
  });
});

describe('planSummary and capMessage', () => {
  const platform = state(students, [held(1, P), held(2, P, { status: 'refunded', expirationDate: '2025-12-31' }), held(3, P, { status: 'canceled', expirationDate: '2025-12-31' })]);

  it('reads like the issue says, with thousands separated', () => {
    const rows = Array.from({ length: 1204 }, (_, i) => row(i + 2, `s${i}`));
    const everyone = Array.from({ length: 41 }, (_, i) => student(i));
    const big = planSync([], [P, Q, 'p3'], state([], []), options());
    big.inSync = 1204;
    big.changes = planSync(rows.slice(0, 41), [P], state(everyone, []), options()).changes;
    expect(planSummary(big, 'both')).toBe('Plan for 3 products: 41 to grant, 0 to restore, 0 to change expiration, 0 to revoke, 1,204 already in sync.');
  });

  it('says what was left out and why', () => {
    const rows = [row(2, 's2', P, { expiration: '2026-12-31' })];
    expect(planSummary(planSync(rows, [P], platform, options({ mode: 'add-only' })), 'add-only')).toBe(
      `Plan for product ${P}: 0 to grant, 0 to restore, 0 to change expiration, 0 to revoke, 0 already in sync. `
      + '1 expiration change left out: it would reset a status (--include-status-changes to make it). --add-only leaves out 2 revocations.',
    );
    const two = [...rows, row(3, 's3', P, { expiration: '2026-12-31' }), row(4, 's1')];
    expect(planSummary(planSync(two, [P], platform, options({ mode: 'add-only' })), 'add-only')).toBe(
      `Plan for product ${P}: 0 to grant, 0 to restore, 0 to change expiration, 0 to revoke, 1 already in sync. `
      + '2 expiration changes left out: they would reset a status (--include-status-changes to make them).',
    );
    const removeOnly = planSync([row(2, 's0'), row(3, 's9'), row(4, 's1')], [P], platform, options({ mode: 'remove-only', maxRevoke: { count: 5 } }));
    expect(planSummary(removeOnly, 'remove-only')).toBe(
      `Plan for product ${P}: 0 to grant, 0 to restore, 0 to change expiration, 2 to revoke, 1 already in sync. --remove-only leaves out 2 grants, restores and expiration changes.`,
    );
    const one = planSync([row(2, 's0'), row(3, 's1'), row(4, 's2'), row(5, 's3')], [P], platform, options({ mode: 'remove-only' }));
    expect(planSummary(one, 'remove-only')).toBe(
      `Plan for product ${P}: 0 to grant, 0 to restore, 0 to change expiration, 0 to revoke, 3 already in sync. --remove-only leaves out 1 grant, restore or expiration change.`,
    );
    expect(planSummary(planSync([row(2, 's1')], [P], platform, options({ mode: 'add-only' })), 'both')).not.toContain('leaves out');
    expect(planSummary(removeOnly, 'both')).not.toContain('leaves out');
    expect(planSummary(planSync([row(2, 's1'), row(3, 's2'), row(4, 's3')], [P], platform, options({ mode: 'remove-only' })), 'remove-only')).not.toContain('leaves out');
  });

  it('names the product, the count, the holders and the cap', () => {
    expect(capMessage([{ productId: P, holders: 120, revokes: 17, cap: 12, explicit: false }, { productId: Q, holders: 1, revokes: 1, cap: 0, explicit: true }])).toBe(
      'product p1 would lose 17 of its 120 holders, over the cap of 12 (the default: 10 % of its holders, at most 50); '
      + 'product p2 would lose 1 of its 1 holder, over the cap of 0 (--max-revoke); nothing was changed. '
      + 'If the file is right, pass --max-revoke with a higher number or percentage; if it is not (a truncated export?), fix the export',
    );
  });
});
