/** Undo's rules for one change (src/domain/undo.ts): the plan read from the audit log, its refusals, and what changed on the server since. */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src/api/endpoints/schemas.js';
import type { AuditRecord } from '../../../src/audit/log.js';
import { UsageError } from '../../../src/lib/errors.js';
import { changesSince, dateOnly, planUndo, UndoConflictError, undoQuestion, undoCaveat } from '../../../src/domain/undo.js';
import { DELETE, GRANT, REVOKE, SNAPSHOT, rec } from '../../helpers/audit-records.js';

/** The message planUndo refuses `target` with, as a usage error (exit 2). */
function refusal(target: AuditRecord, records: readonly AuditRecord[] = [target]): string {
  try {
    planUndo(target, records);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`planUndo did not refuse ${target.id}`);
}

describe('planUndo', () => {
  it('an undo can itself be undone: an undone revoke (a grant) is revoked, an undone grant (a revoke) granted again', () => {
    const undoneRevoke = rec('u1', { command: 'undo', action: 'undo', undoes: 'r1', result: 'granted', after: SNAPSHOT });
    expect(planUndo(undoneRevoke, [REVOKE, undoneRevoke])).toEqual({ kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT });
    const undoneGrant = rec('u2', { command: 'undo', action: 'undo', undoes: 'g1', result: 'revoked', before: { ...SNAPSHOT, expiration_date: null } });
    expect(planUndo(undoneGrant, [GRANT, undoneGrant])).toEqual({ kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01', expiration: undefined });
  });

  it('a grant is undone by revoking the subscription it granted', () => {
    expect(planUndo(GRANT, [GRANT])).toEqual({ kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT });
  });

  it('a revoke is undone by granting again with the recorded dates, without their time', () => {
    const revoke = rec('r2', { action: 'revoke', result: 'revoked', before: { ...SNAPSHOT, accession_date: '2024-01-01 00:00:00', expiration_date: '2025-01-01 23:59:59' } });
    expect(planUndo(revoke, [revoke])).toEqual({ kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01', expiration: '2025-01-01' });
  });

  it('refuses a change already undone, by an undo of that very id', () => {
    const undone = rec('u1', { command: 'undo', action: 'undo', undoes: 'g1', result: 'revoked', time: '2025-03-02T00:00:00.000Z' });
    expect(refusal(GRANT, [GRANT, undone])).toBe('change g1 was already undone by u1 (2025-03-02T00:00:00.000Z by ana); see `members history`');
    // Another record naming the id, or an undo of another change, does not count.
    const other = rec('x1', { action: 'grant', undoes: 'g1' } as Partial<AuditRecord>);
    const undoOfOther = rec('u2', { action: 'undo', undoes: 'r1', result: 'granted' });
    expect(planUndo(GRANT, [GRANT, other, undoOfOther])).toMatchObject({ kind: 'revoke' });
  });

  describe('a renewal', () => {
    const renew = (before: AuditRecord['before']) => rec('n1', { action: 'renew', result: 'renewed', before, after: { ...SNAPSHOT, id: 78 } });

    it('is undone by revoking the new subscription and granting the former one again when it had access', () => {
      for (const active of [1, '1', true]) {
        expect(planUndo(renew({ ...SNAPSHOT, active, accession_date: '2023-05-01 00:00:00', expiration_date: '2024-05-01' }), [])).toEqual({
          kind: 'revoke', studentId: 's1', productId: 'p1', granted: { ...SNAPSHOT, id: 78 },
          restore: { accession: '2023-05-01', expiration: '2024-05-01' },
        });
      }
    });

    it('restores no expiration when the former one had none', () => {
      expect(planUndo(renew({ ...SNAPSHOT, expiration_date: null }), [])).toMatchObject({ restore: { accession: '2024-01-01', expiration: undefined } });
    });

    it('restores nothing when the former subscription had no access, or no accession date', () => {
      for (const active of [0, '0', false, null]) {
        expect(planUndo(renew({ ...SNAPSHOT, active }), [])).toEqual({
          kind: 'revoke', studentId: 's1', productId: 'p1', granted: { ...SNAPSHOT, id: 78 }, restore: undefined, lost: { ...SNAPSHOT, active },
        });
      }
      expect(planUndo(renew({ ...SNAPSHOT, accession_date: null }), [])).toMatchObject({ restore: undefined });
    });

    it('needs the replaced and the renewed subscriptions', () => {
      expect(refusal(rec('n1', { action: 'renew', result: 'renewed', after: SNAPSHOT }))).toBe('change n1 cannot be undone: its record has no replaced subscription');
      expect(refusal(rec('n1', { action: 'renew', result: 'renewed', before: SNAPSHOT }))).toBe('change n1 cannot be undone: its record has no renewed subscription');
      expect(refusal(rec('n1', { action: 'renew', result: 'renewed', before: SNAPSHOT, after: SNAPSHOT, student_id: undefined })))
        .toBe('change n1 cannot be undone: its record has no student id');
      expect(refusal(rec('n1', { action: 'renew', result: 'renewed', before: SNAPSHOT, after: SNAPSHOT, product_id: undefined })))
        .toBe('change n1 cannot be undone: its record has no product id');
    });

    it('that was not made is not undone', () => {
      expect(refusal(rec('n2', { action: 'renew', result: 'skipped', before: SNAPSHOT, after: SNAPSHOT }))).toBe('change n2 (renew, skipped) cannot be undone');
    });
  });

  it('a grant needs its student, its product and the subscription granted', () => {
    expect(refusal(rec('g2', { student_id: undefined, after: SNAPSHOT }))).toBe('change g2 cannot be undone: its record has no student id');
    expect(refusal(rec('g2', { product_id: undefined, after: SNAPSHOT }))).toBe('change g2 cannot be undone: its record has no product id');
    expect(refusal(rec('g2', {}))).toBe('change g2 cannot be undone: its record has no granted subscription');
  });

  it('a revoke needs its student, its product, the subscription revoked and its accession date', () => {
    const revoke = (fields: Partial<AuditRecord>) => rec('r2', { action: 'revoke', result: 'revoked', before: SNAPSHOT, ...fields });
    expect(refusal(revoke({ student_id: undefined }))).toBe('change r2 cannot be undone: its record has no student id');
    expect(refusal(revoke({ product_id: undefined }))).toBe('change r2 cannot be undone: its record has no product id');
    expect(refusal(revoke({ before: undefined }))).toBe('change r2 cannot be undone: its record has no revoked subscription');
    expect(refusal(revoke({ before: { ...SNAPSHOT, accession_date: null } }))).toBe('change r2 cannot be undone: its record has no accession date');
  });

  it('only a change that was made is undone: a skipped grant or revoke, or a revoke that granted, is not', () => {
    expect(refusal(rec('g3', { result: 'skipped', after: SNAPSHOT }))).toBe('change g3 (grant, skipped) cannot be undone');
    expect(refusal(rec('r3', { action: 'revoke', result: 'skipped', before: SNAPSHOT }))).toBe('change r3 (revoke, skipped) cannot be undone');
    expect(refusal(rec('r4', { action: 'revoke', result: 'granted', after: SNAPSHOT }))).toBe('change r4 (revoke, granted) cannot be undone');
    expect(refusal(rec('g4', { action: 'grant', result: 'revoked', before: SNAPSHOT }))).toBe('change g4 (grant, revoked) cannot be undone');
  });

  describe('a score', () => {
    const set = (fields: Partial<AuditRecord>) => rec('k1', { action: 'scores.set', result: 'updated', product_id: undefined, before: { score: 7 }, ...fields });

    it('is set back to the score before, from the score the change left', () => {
      expect(planUndo(set({ after: { score: 12 }, score: 99 }), [])).toEqual({ kind: 'score', studentId: 's1', previous: 7, set: 12 });
      expect(planUndo(set({ score: 12 }), [])).toEqual({ kind: 'score', studentId: 's1', previous: 7, set: 12 });
      expect(planUndo(set({ before: { score: 0 }, after: { score: 'x' }, score: 3 }), [])).toEqual({ kind: 'score', studentId: 's1', previous: 0, set: 3 });
    });

    it('needs the score set and the student', () => {
      expect(refusal(set({}))).toBe('change k1 cannot be undone: its record has no score set');
      expect(refusal(set({ score: 12, student_id: undefined }))).toBe('change k1 cannot be undone: its record has no student id');
    });

    it('set before scores were recorded for undo, or not set, cannot be undone', () => {
      const byHand = 'change k1 set a score before scores were recorded for undo; it cannot be undone. Set it by hand with `members scores set maria@example.com SCORE`';
      expect(refusal(set({ before: undefined, score: 12 }))).toBe(byHand);
      expect(refusal(set({ before: { score: '7' }, score: 12 }))).toBe(byHand);
      expect(refusal(set({ result: 'skipped', score: 12 }))).toBe(byHand);
      expect(refusal(set({ before: undefined, score: 12, student: undefined })))
        .toBe('change k1 set a score before scores were recorded for undo; it cannot be undone. Set it by hand with `members scores set STUDENT SCORE`');
    });
  });

  describe('a delete', () => {
    const deleted = (before: AuditRecord['before'], fields: Partial<AuditRecord> = {}) => rec('d2', { ...DELETE, id: 'd2', before, ...fields });

    it('is undone by creating the student again from its recorded fields, the date of birth without its time', () => {
      expect(planUndo(DELETE, [DELETE])).toEqual({
        kind: 'recreate', oldId: 's1',
        body: { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com', birth: '1990-04-12', document: '123' },
      });
      const full = { first_name: 'João', last_name: 'Souza', email: 'joao@example.com', phone: '+55 11 91234-5678', birth: '1990-04-12', document: '123', reference_id: 'crm-1' };
      expect(planUndo(deleted(full, { student_id: undefined }), [])).toEqual({ kind: 'recreate', oldId: undefined, body: full });
    });

    it('leaves out the fields that were empty', () => {
      const empty = { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com', phone: '', birth: null, document: '', reference_id: '' };
      expect(planUndo(deleted(empty), [])).toEqual({ kind: 'recreate', oldId: 's1', body: { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' } });
    });

    it("needs the deleted student's fields, its names and its e-mail", () => {
      const maria = { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' };
      expect(refusal(deleted(undefined))).toBe("change d2 cannot be undone: its record has no deleted student's fields");
      expect(refusal(deleted({ ...maria, first_name: '' }))).toBe('change d2 cannot be undone: its record has no first name');
      expect(refusal(deleted({ ...maria, last_name: null }))).toBe('change d2 cannot be undone: its record has no last name');
      expect(refusal(deleted({ ...maria, email: 3 }))).toBe('change d2 cannot be undone: its record has no e-mail');
    });

    it('that was not made is not undone', () => {
      expect(refusal(deleted(DELETE.before, { result: 'skipped' }))).toBe('change d2 (delete, skipped) cannot be undone');
    });

    it('whose personal data was erased since cannot be recreated', () => {
      expect(refusal(deleted(DELETE.before, { forgotten: { at: '2025-04-01T00:00:00.000Z' } } as Partial<AuditRecord>)))
        .toBe("change d2 deleted a student whose personal data was then erased from this machine's audit log (2025-04-01T00:00:00.000Z): "
          + 'undo cannot recreate the person. If they ask to come back, create them again with `members students create`');
    });
  });

  describe('what cannot be undone says what to do instead', () => {
    it('a create: delete the student', () => {
      const create = (fields: Partial<AuditRecord>) => rec('c1', { action: 'create', result: 'created', ...fields });
      const deleteIt = (student: string) => `change c1 created a student; creating cannot be undone. If it was a mistake, delete the student: \`members students delete ${student}\``;
      expect(refusal(create({}))).toBe(deleteIt('s1'));
      expect(refusal(create({ student_id: undefined }))).toBe(deleteIt('maria@example.com'));
      expect(refusal(create({ student_id: undefined, student: undefined }))).toBe(deleteIt('STUDENT'));
    });

    it('a magic link expires by itself', () => {
      expect(refusal(rec('m1', { action: 'magic-link', result: 'created', expire_in: 3600 })))
        .toBe('change m1 created a magic link; a link cannot be withdrawn, it expires by itself 3600s after 2025-03-01T10:00:00.000Z');
      expect(refusal(rec('m1', { action: 'magic-link', result: 'created' }))).toBe('change m1 created a magic link; a link cannot be withdrawn, it expires by itself');
    });

    it('an erasure: what was erased is gone', () => {
      expect(refusal(rec('f1', { action: 'forget', result: 'forgotten', student_id: 's7' } as Partial<AuditRecord>)))
        .toBe("change f1 erased the personal data of student s7 from this machine's audit log; what was erased is gone");
      expect(refusal(rec('f1', { action: 'forget', result: 'forgotten', student_id: undefined } as Partial<AuditRecord>)))
        .toBe("change f1 erased the personal data of student  from this machine's audit log; what was erased is gone");
    });

    it('an undo that created a deleted student again: delete it', () => {
      const recreated = (fields: Partial<AuditRecord>) => rec('u3', { action: 'undo', undoes: 'd1', result: 'created', ...fields });
      const deleteIt = (student: string) => `change u3 created a deleted student again; to remove it, \`members students delete ${student}\``;
      expect(refusal(recreated({ student_id: 's9' }))).toBe(deleteIt('s9'));
      expect(refusal(recreated({ student_id: undefined }))).toBe(deleteIt('maria@example.com'));
      expect(refusal(recreated({ student_id: undefined, student: undefined }))).toBe(deleteIt('STUDENT'));
      expect(refusal(rec('u4', { action: 'undo', result: 'updated' }))).toBe('change u4 cannot be undone');
    });
  });
});

describe('changesSince', () => {
  const held = (fields: Partial<Subscription>) => ({ ...SNAPSHOT, ...fields }) as Subscription;

  it('is empty while the subscription is as it was granted (dates compared without their time, ids as text)', () => {
    expect(changesSince(SNAPSHOT, held({}))).toEqual([]);
    expect(changesSince(SNAPSHOT, held({ id: '77', accession_date: '2024-01-01 00:00:00', expiration_date: '2025-01-01 12:00:00' } as Partial<Subscription>))).toEqual([]);
  });

  it('names each date that changed, none for a missing one', () => {
    expect(changesSince(SNAPSHOT, held({ accession_date: '2024-02-01', expiration_date: null }))).toEqual([
      'accession 2024-01-01 → 2024-02-01', 'expiration 2025-01-01 → none',
    ]);
    expect(changesSince({ ...SNAPSHOT, expiration_date: null }, held({ expiration_date: '2026-01-01' }))).toEqual(['expiration none → 2026-01-01']);
  });

  it('names a subscription granted again since, when both ids are known', () => {
    expect(changesSince(SNAPSHOT, held({ id: 78 } as Partial<Subscription>))).toEqual(['subscription 77 → 78 (granted again since)']);
    expect(changesSince({ ...SNAPSHOT, id: null }, held({ id: 78 } as Partial<Subscription>))).toEqual([]);
    const { id: _id, ...withoutId } = SNAPSHOT;
    expect(changesSince(withoutId, held({ id: 78 } as Partial<Subscription>))).toEqual([]);
    expect(changesSince(SNAPSHOT, held({ id: undefined }))).toEqual([]);
    expect(changesSince(SNAPSHOT, held({ id: null } as Partial<Subscription>))).toEqual([]);
  });
});

describe('dateOnly', () => {
  it('keeps the date of a date-time, and any other text as it is', () => {
    expect(dateOnly('2024-03-05 00:00:00')).toBe('2024-03-05');
    expect(dateOnly('2024-03-05T10:00:00Z')).toBe('2024-03-05');
    expect(dateOnly('on 2024-03-05')).toBe('on 2024-03-05');
    expect(dateOnly('')).toBe('');
  });

  it('is null when there is no date', () => {
    expect(dateOnly(null)).toBeNull();
    expect(dateOnly(undefined)).toBeNull();
    expect(dateOnly(20240305)).toBeNull();
  });
});

describe('UndoConflictError', () => {
  it('is exit 5, as a server refusal: nothing was sent', () => {
    const error = new UndoConflictError('cannot undo g1');
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe('cannot undo g1');
    expect(error.name).toBe('UndoConflictError');
  });
});

describe('undoQuestion', () => {
  it('says what the undo will send, for each kind of plan', () => {
    expect(undoQuestion('g1', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT }, 'maria@example.com'))
      .toBe('Undo g1: revoke product p1 from maria@example.com?');
    expect(undoQuestion('n1', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT, restore: { accession: '2023-05-01' } }, 'maria@example.com'))
      .toBe('Undo n1: revoke the renewed product p1 of maria@example.com and grant it with its former dates (accession 2023-05-01, expiration none)?');
    expect(undoQuestion('n2', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT, lost: { status: 'canceled', accession_date: '2023-05-01 00:00:00', expiration_date: null } }, 'maria@example.com'))
      .toBe('Undo n2: revoke the renewed product p1 from maria@example.com (the subscription is removed: the one it replaced (without access; status canceled, accession 2023-05-01, expiration none) '
        + 'cannot be recreated through the API, which creates no subscription without access; its status and dates stay in the audit record n2)?');
    expect(undoCaveat('n2', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT, lost: {} })).toBe('the subscription is removed: the one it replaced (without access; accession none, expiration none) '
      + 'cannot be recreated through the API, which creates no subscription without access; its status and dates stay in the audit record n2');
    expect(undoCaveat('g1', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT })).toBeUndefined();
    expect(undoCaveat('r1', { kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01' })).toBeUndefined();
    expect(undoQuestion('r1', { kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01', expiration: '2025-01-01' }, 'maria@example.com'))
      .toBe('Undo r1: grant product p1 to maria@example.com again (accession 2024-01-01, expiration 2025-01-01)?');
    expect(undoQuestion('k1', { kind: 'score', studentId: 's1', previous: 7, set: 12 }, 'maria@example.com'))
      .toBe('Undo k1: set the score of maria@example.com back from 12 to 7?');
    expect(undoQuestion('d1', { kind: 'recreate', body: { first_name: 'Maria', last_name: 'Silva', email: 'maria@example.com' } }, 'maria@example.com'))
      .toBe('Undo d1: create student Maria Silva <maria@example.com> again, with a new id?');
  });

  it('names the product by title with its id when the titles know it, by id alone otherwise', () => {
    const titles = new Map([['p1', 'Python Pro']]);
    expect(undoQuestion('g1', { kind: 'revoke', studentId: 's1', productId: 'p1', granted: SNAPSHOT }, 'maria@example.com', titles))
      .toBe('Undo g1: revoke product "Python Pro" (p1) from maria@example.com?');
    expect(undoQuestion('r1', { kind: 'grant', studentId: 's1', productId: 'p1', accession: '2024-01-01' }, 'maria@example.com', titles))
      .toBe('Undo r1: grant product "Python Pro" (p1) to maria@example.com again (accession 2024-01-01, expiration none)?');
    expect(undoQuestion('r2', { kind: 'grant', studentId: 's1', productId: 'p2', accession: '2024-01-01' }, 'maria@example.com', titles))
      .toBe('Undo r2: grant product p2 to maria@example.com again (accession 2024-01-01, expiration none)?');
  });
});
