import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../src/audit/log.js';
import { planRunUndo, planUndo, refusalCounts, withNewIds } from '../../../src/domain/undo.js';

const rec = (id: string, fields: Partial<AuditRecord>): AuditRecord => ({
  id, time: `2026-01-01T10:00:0${id.length % 10}.000Z`, user: 'ana', profile: 'default', base_url: 'https://members.example.com',
  command: 'students transfer', action: 'grant', result: 'granted', ...fields,
});
const SUB = { id: 9, product_id: 'p1', accession_date: '2026-01-01', expiration_date: '2026-12-31', status: 'active', active: 1 };
const RUN = rec('run', { action: 'bulk', result: 'completed', counts: { granted: 1, revoked: 1, deleted: 1 } });
const TRANSFER = [
  rec('g1', { run_id: 'run', student: 'to@example.com', student_id: 'to', product_id: 'p1', after: SUB }),
  rec('r1', { run_id: 'run', action: 'revoke', result: 'revoked', student: 'from@example.com', student_id: 'from', product_id: 'p1', before: SUB }),
  rec('d1', { run_id: 'run', action: 'delete', result: 'deleted', student: 'from@example.com', student_id: 'from', before: { id: 'from', first_name: 'Ana', last_name: 'Lima', email: 'from@example.com' } }),
  RUN,
];

describe('planRunUndo', () => {
  it('plans the changes of the run newest first: the delete, the revoke, then the grant', () => {
    const steps = planRunUndo(RUN, TRANSFER);
    expect(steps.map((step) => [step.record.id, step.plan?.kind])).toEqual([['d1', 'recreate'], ['r1', 'grant'], ['g1', 'revoke']]);
  });

  it('keeps a change the log refuses, with the reason, and the others planned', () => {
    const undone = rec('u1', { action: 'undo', undoes: 'g1', result: 'revoked' });
    const steps = planRunUndo(RUN, [...TRANSFER, undone, rec('x', { run_id: 'other', action: 'revoke', result: 'revoked', before: SUB })]);
    expect(steps.map((step) => [step.record.id, step.plan?.kind, step.refusal])).toEqual([
      ['d1', 'recreate', undefined], ['r1', 'grant', undefined], ['g1', undefined, expect.stringContaining('change g1 was already undone by u1')],
    ]);
  });

  it('refuses (exit 2) a record that is not a run, a run without changes, and a run nothing of which can be undone', () => {
    expect(() => planRunUndo(TRANSFER[0]!, TRANSFER)).toThrow('change g1 is not a run');
    expect(() => planRunUndo(RUN, [RUN])).toThrow('run run (students transfer) recorded no change; there is nothing to undo');
    const created = [rec('c1', { run_id: 'run', action: 'create', result: 'created', student_id: 's1' }), rec('c2', { run_id: 'run', action: 'create', result: 'created', student_id: 's2' }), RUN];
    expect(() => planRunUndo(RUN, created)).toThrow('nothing of run run (students transfer, 2 changes) can be undone: created a student; creating cannot be undone.');
  });
});

describe('refusalCounts', () => {
  it('names each reason once, with how many changes it refuses, without what differs per change', () => {
    const refused = (refusal?: string) => ({ record: rec('x', {}), refusal });
    expect(refusalCounts([
      refused('change a1 was not applied; there is nothing to undo'),
      refused('change a2 was already undone by u1 (2026-01-01 by ana); see `members history`'),
      refused(),
      refused('change a3 was not applied; there is nothing to undo'),
      refused('change a4 was already undone by u2 (2026-01-02 by rui); see `members history`'),
      refused('change a5 created a student; creating cannot be undone. If it was a mistake, delete the student: `members students delete s1`'),
      refused('change a6 was never known to have been applied (it could not be checked); there is nothing to undo'),
      refused('change a7 cannot be undone: its record has no student id'),
      refused('change a8 set a score before scores were recorded for undo; it cannot be undone. Set it by hand'),
      refused('change a9 (bulk, completed) cannot be undone'),
    ])).toBe('not applied (2), already undone (2), created a student (1), never known to have been applied (1), cannot be undone (1), '
      + 'set a score before scores were recorded for undo (1), (bulk, completed) cannot be undone (1)');
    expect(refusalCounts([refused()])).toBe('');
  });
});

describe('withNewIds', () => {
  it('names the student a step before created again by its new id; leaves the others', () => {
    const renamed = new Map([['from', 'from-2']]);
    expect(withNewIds({ kind: 'grant', studentId: 'from', productId: 'p1', accession: '2026-01-01' }, renamed)).toMatchObject({ studentId: 'from-2' });
    expect(withNewIds({ kind: 'grant', studentId: 'to', productId: 'p1', accession: '2026-01-01' }, renamed)).toMatchObject({ studentId: 'to' });
    const recreate = { kind: 'recreate' as const, body: { first_name: 'A', last_name: 'B', email: 'a@b.c' } };
    expect(withNewIds(recreate, renamed)).toBe(recreate);
  });
});

describe('planUndo', () => {
  it('undoes a sync\'s restore and expiration change, and an extension, as renewals', () => {
    for (const result of ['renewed', 'restored', 'expiration-changed']) {
      const renew = rec('n1', { action: 'renew', result, student_id: 's1', product_id: 'p1', before: { ...SUB, expiration_date: '2026-06-30' }, after: SUB });
      expect(planUndo(renew, [renew])).toMatchObject({ kind: 'revoke', restore: { accession: '2026-01-01', expiration: '2026-06-30' } });
    }
  });

  it('refuses a change never applied, or never known to be', () => {
    expect(() => planUndo(rec('n1', { result: 'not applied' }), [])).toThrow('change n1 was not applied; there is nothing to undo');
    expect(() => planUndo(rec('n1', { result: 'unknown' }), [])).toThrow('never known to have been applied');
  });
});
