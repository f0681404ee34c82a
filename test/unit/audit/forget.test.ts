/**
 * LGPD erasure in the audit log (src/audit/forget.ts): no record keeps the
 * person's data, ids, actions, times and reasons stay, each record says what
 * it lost, the intents of interrupted runs are rewritten, those of live runs
 * are left and counted.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORGOTTEN_TEXT, Person, forgetRecord, forgetStudent } from '../../../src/audit/forget.js';
import { auditLine, type AuditRecord } from '../../../src/audit/log.js';
import type { Intent } from '../../../src/audit/intents.js';
import type { AuditContext } from '../../../src/audit/stamp.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'members-forget-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const context = (running: number[] = []): AuditContext => ({
  io: { env: {}, stderr: { write: () => true }, pid: 1000, isRunning: (pid) => running.includes(pid) },
  settings: async () => ({ profile: 'production', baseUrl: 'https://members.example.com', token: undefined }),
  configDir: async () => dir,
});

const MARIA = {
  id: 's-maria', first_name: 'Maria', last_name: 'Silva', email: 'Maria.Silva@example.com', phone: '+55 (11) 91234-5678',
  birth: '1990-05-01', document: '070.692.055-46', reference_id: 'crm-77812',
};
/** Every personal value of Maria's, as any record or line might quote it. */
const PERSONAL = ['Maria Silva', 'maria.silva@example.com', '070.692.055-46', '07069205546', 'crm-77812', '91234-5678', '1990-05-01'];

let clock = 0;
const record = (fields: Partial<AuditRecord>): AuditRecord => ({
  id: `m${String(clock).padStart(7, '0')}-00000000000${clock % 10}`, time: `2026-01-0${1 + (clock++ % 9)}T10:00:00.000Z`, user: 'ana', profile: 'production',
  base_url: 'https://members.example.com', command: 'students grant', action: 'grant', result: 'granted', ...fields,
});

const RECORDS = [
  record({ command: 'students create', action: 'create', result: 'created', student: MARIA.email, student_id: MARIA.id, after: { ...MARIA } }),
  record({ student: 'doc:070.692.055-46', student_id: MARIA.id, product_id: 'p1', reason: 'ticket 4411', after: { id: 'sub1', product_id: 'p1', accession_date: '2026-01-01', expiration_date: null, status: 'active', active: 1 } }),
  record({ command: 'students grant --file', student: '07069205546', student_id: MARIA.id, product_id: 'p2', run_id: 'run1', line: 2 }),
  record({ command: 'students revoke', action: 'revoke', result: 'revoked', student: MARIA.id, student_id: MARIA.id, product_id: 'p1', reason: 'refund for maria.silva@EXAMPLE.com' }),
  // Another student's change whose reason quotes Maria's e-mail and name.
  record({ student: 'joao@example.com', student_id: 's-joao', product_id: 'p1', reason: 'moved from Maria Silva <maria.silva@example.com>' }),
  // Not applied: no id, only the key.
  record({ command: 'students create', action: 'create', result: 'not applied', student: 'MARIA.SILVA@example.com' }),
  record({ command: 'students delete', action: 'delete', result: 'deleted', student: 'ref:crm-77812', student_id: MARIA.id, before: { ...MARIA } }),
  record({ student: 'ana@example.com', student_id: 's-ana', product_id: 'p3', reason: 'unrelated' }),
];
const TORN = '{"id":"m9999999-000000000000","time":"2026-01-09T10:00:00.000Z","student":"maria.silva@example.com","bef';

function writeLog(lines: string[]): void {
  writeFileSync(join(dir, 'audit.jsonl'), lines.join(''), { mode: 0o600 });
}
const logText = () => readFileSync(join(dir, 'audit.jsonl'), 'utf8');
const logRecords = () => logText().split('\n').filter(Boolean).flatMap((line) => {
  try {
    return [JSON.parse(line) as AuditRecord];
  } catch {
    return [];
  }
});

describe('forgetStudent', () => {
  it('leaves none of the person\'s data in the log; ids, actions, times and reasons stay; each record says what it lost', async () => {
    writeLog([...RECORDS.map(auditLine), `${TORN}\n`]);
    const outcome = await forgetStudent(context(), MARIA.id, { command: 'history --forget', reason: 'LGPD request 12' });
    const text = logText();
    for (const value of PERSONAL) expect(text.toLowerCase()).not.toContain(value.toLowerCase());
    expect(outcome).toMatchObject({ records: 7, intents: 0, inFlight: 0 });
    const after = logRecords();
    // Every record is still there, in order, with its id, time, action and result; then the forget's own.
    expect(after.map((r) => [r.id, r.time, r.action, r.result])).toEqual([...RECORDS.map((r) => [r.id, r.time, r.action, r.result]), [outcome.id, expect.any(String), 'forget', 'forgotten']]);
    const [create, byDoc, byCpf, revoke, joao, notApplied, deleted, ana] = after as [AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord];
    expect(create).toMatchObject({ student_id: MARIA.id, after: { id: MARIA.id }, forgotten: { fields: ['student', 'after.first_name', 'after.last_name', 'after.email', 'after.phone', 'after.birth', 'after.document', 'after.reference_id'] } });
    expect(create.student).toBeUndefined();
    expect(byDoc).toMatchObject({ student_id: MARIA.id, reason: 'ticket 4411', after: RECORDS[1]!.after, forgotten: { fields: ['student'] } });
    expect(byCpf).toMatchObject({ run_id: 'run1', line: 2, forgotten: { fields: ['student'] } });
    // Given by id: the id stays; the reason loses the e-mail it quoted, and keeps the rest.
    expect(revoke).toMatchObject({ student: MARIA.id, reason: `refund for ${FORGOTTEN_TEXT}`, forgotten: { fields: ['reason'] } });
    expect(joao).toMatchObject({ student: 'joao@example.com', reason: `moved from ${FORGOTTEN_TEXT} <${FORGOTTEN_TEXT}>`, forgotten: { fields: ['reason'] } });
    expect(notApplied.student).toBeUndefined();
    expect(deleted).toMatchObject({ before: { id: MARIA.id }, student_id: MARIA.id });
    expect(Object.keys(deleted.before ?? {})).toEqual(['id']);
    expect(after[8]).toMatchObject({ command: 'history --forget', action: 'forget', student_id: MARIA.id, reason: 'LGPD request 12', counts: { records: 7, intents: 0 }, profile: 'production' });
    // A record about no one forgotten is the same line, byte for byte; the torn line keeps its shape without the e-mail.
    expect(text.split('\n')).toContain(auditLine(ana).trimEnd());
    expect(ana.forgotten).toBeUndefined();
    expect(text).toContain(`"student":"${FORGOTTEN_TEXT}","bef\n`);
    expect(statSync(join(dir, 'audit.jsonl')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual([]);
  });

  it('what the server knew of the student counts too, when the log never saw its fields', async () => {
    writeLog([auditLine(record({ student: 'ref:crm-77812', student_id: MARIA.id, reason: 'asked by phone +55 (11) 91234-5678' }))]);
    await forgetStudent(context(), MARIA.id, { command: 'students delete --forget', known: MARIA });
    expect(logText()).not.toContain('91234-5678');
    expect(logText()).not.toContain('crm-77812');
  });

  it('the forget\'s own record keeps no personal value of the request: the person\'s, and any e-mail, CPF or phone its reason quotes', async () => {
    writeLog(RECORDS.map(auditLine));
    const reason = 'LGPD request of Maria Silva (maria.silva@example.com), filed by her lawyer Rui Costa <rui@costa.adv.br>, CPF 529.982.247-25, tel. +55 (21) 3456-7890, 52998224725';
    await forgetStudent(context(), MARIA.id, { command: 'students delete --forget', reason, known: MARIA });
    const forget = logRecords().at(-1) as AuditRecord;
    expect(forget).toMatchObject({ action: 'forget', student_id: MARIA.id });
    expect(forget.reason).toBe(`LGPD request of ${FORGOTTEN_TEXT} (${FORGOTTEN_TEXT}), filed by her lawyer Rui Costa <${FORGOTTEN_TEXT}>, CPF ${FORGOTTEN_TEXT}, tel. ${FORGOTTEN_TEXT}, ${FORGOTTEN_TEXT}`);
    for (const value of [...PERSONAL, 'rui@costa.adv.br', '529.982.247-25', '3456-7890', '52998224725']) expect(logText(), value).not.toContain(value);
  });

  it('a record about the person loses any e-mail, CPF or phone in its free text; another student\'s record keeps what is not the person\'s', async () => {
    writeLog([
      auditLine(record({ command: 'students delete', action: 'delete', result: 'deleted', student: MARIA.email, student_id: MARIA.id, reason: 'asked via rui@costa.adv.br, ticket 2211, on 2026-01-05' })),
      auditLine(record({ student: 'joao@example.com', student_id: 's-joao', product_id: 'p1', reason: 'ticket from joao@example.com' })),
    ]);
    await forgetStudent(context(), MARIA.id, { command: 'students delete --forget', known: MARIA });
    const [del, joao] = logRecords();
    expect(del?.reason).toBe(`asked via ${FORGOTTEN_TEXT}, ticket 2211, on 2026-01-05`);
    expect(joao?.reason).toBe('ticket from joao@example.com');
  });

  it('finds nothing about the student: writes nothing, records nothing', async () => {
    const lines = [auditLine(RECORDS[7]!)];
    writeLog(lines);
    await expect(forgetStudent(context(), 's-nobody', { command: 'history --forget' })).resolves.toEqual({ records: 0, intents: 0, inFlight: 0 });
    expect(logText()).toBe(lines.join(''));
  });

  it('rewrites the intents of runs that are gone (unclaimed again, for the next run to check), and leaves those of live runs', async () => {
    writeLog([auditLine(RECORDS[0]!)]);
    const folder = join(dir, 'audit-intents');
    mkdirSync(folder, { mode: 0o700 });
    const intent = (id: string, pid: number, host = hostname()): Intent => ({
      record: record({ id, student: MARIA.email, student_id: MARIA.id, action: 'delete', result: 'deleted', before: { ...MARIA } }), pid, host, log_offset: 0,
    });
    writeFileSync(join(folder, 'a0000001-000000000001.json'), JSON.stringify(intent('a0000001-000000000001', 77)));
    writeFileSync(join(folder, 'a0000002-000000000002.json'), JSON.stringify(intent('a0000002-000000000002', 88)));
    // Claimed by a resolver that died.
    writeFileSync(join(folder, 'a0000003-000000000003.99.claim'), JSON.stringify(intent('a0000003-000000000003', 66)));
    const outcome = await forgetStudent(context([88]), MARIA.id, { command: 'history --forget' });
    expect(outcome).toMatchObject({ records: 1, intents: 2, inFlight: 1 });
    expect(readdirSync(folder).sort()).toEqual(['a0000001-000000000001.json', 'a0000002-000000000002.json', 'a0000003-000000000003.json']);
    const rewritten = readFileSync(join(folder, 'a0000001-000000000001.json'), 'utf8');
    for (const value of PERSONAL) expect(rewritten.toLowerCase()).not.toContain(value.toLowerCase());
    expect(JSON.parse(rewritten)).toMatchObject({ pid: 77, record: { id: 'a0000001-000000000001', student_id: MARIA.id, forgotten: { fields: expect.arrayContaining(['student', 'before.email']) } } });
    expect(readFileSync(join(folder, 'a0000003-000000000003.json'), 'utf8')).not.toContain('crm-77812');
    // The live run's intent is as it was: it will record its outcome itself.
    expect(readFileSync(join(folder, 'a0000002-000000000002.json'), 'utf8')).toContain('crm-77812');
  });
});

describe('forgetStudent, the student under an id it had before', () => {
  const OTILIA = {
    id: 's-old', first_name: 'Otília', last_name: 'Brandão', email: 'otilia@example.com', phone: '(61) 95591-2284', birth: '1977-07-07',
    document: '346.719.699-39', reference_id: null,
  };
  const values = ['Otília', 'Brandão', '1977-07-07', 'otilia@example.com', '95591-2284', '346.719.699-39', '34671969939'];

  it('a delete undone (a new id), then the new id forgotten: the first delete, its grants and reasons lose every personal field too', async () => {
    const old = record({ command: 'students delete', action: 'delete', result: 'deleted', student: 'otilia@example.com', student_id: 's-old', before: { ...OTILIA }, reason: 'Otília asked, born 1977-07-07' });
    writeLog([
      auditLine(record({ student: 's-old', student_id: 's-old', product_id: 'p1', reason: 'ticket of Otília' })),
      auditLine(old),
      auditLine(record({ command: 'undo', action: 'undo', result: 'created', undoes: old.id, student_id: 's-new', after: { ...OTILIA, id: 's-new' } })),
      auditLine(record({ command: 'students delete', action: 'delete', result: 'deleted', student: 's-new', student_id: 's-new', before: { ...OTILIA, id: 's-new' } })),
      // Someone else, whose record quotes only a first name: it stays (a first name alone could be anyone's).
      auditLine(record({ student: 'joao@example.com', student_id: 's-joao', reason: 'Otília is his aunt' })),
    ]);
    const outcome = await forgetStudent(context(), 's-new', { command: 'students delete --forget' });
    expect(outcome.records).toBe(4);
    const [grant, first, undo, second, joao] = logRecords() as [AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord];
    for (const one of [grant, first, undo, second]) for (const value of values) expect(JSON.stringify(one), value).not.toContain(value);
    expect(first).toMatchObject({ student_id: 's-old', reason: `${FORGOTTEN_TEXT} asked, born ${FORGOTTEN_TEXT}`, before: { id: 's-old' } });
    expect(first.student).toBeUndefined();
    expect(first.forgotten?.fields).toEqual(['student', 'reason', 'before.first_name', 'before.last_name', 'before.email', 'before.phone', 'before.birth', 'before.document']);
    expect(grant).toMatchObject({ student: 's-old', reason: `ticket of ${FORGOTTEN_TEXT}` });
    expect(joao.reason).toBe('Otília is his aunt');
  });

  it('personal fields nested in a snapshot go too', () => {
    const person = new Person('s-old');
    person.learnSnapshot(OTILIA);
    const nested = record({ action: 'delete', result: 'deleted', student_id: 's-old', before: { ...OTILIA, source: { name: 'Otília Brandão', birth: '1977-07-07', kept: 'x' } } as never });
    const out = forgetRecord(nested, person, '2026-01-01T00:00:00.000Z')!;
    expect(out.before).toEqual({ id: 's-old', reference_id: null, source: { kept: 'x' } });
    expect(out.forgotten?.fields).toContain('before.source.name');
  });
});

describe('forgetRecord', () => {
  const person = new Person(MARIA.id);
  person.learnSnapshot(MARIA);

  it('merges a second forget\'s fields into the marker, with the later time', () => {
    const once = forgetRecord(record({ student: MARIA.email, student_id: MARIA.id }), person, '2026-02-01T00:00:00.000Z')!;
    const other = new Person('s-joao');
    other.learnSnapshot({ email: 'joao@example.com' });
    const twice = forgetRecord({ ...once, reason: 'with joao@example.com' }, other, '2026-03-01T00:00:00.000Z');
    expect(twice?.forgotten).toEqual({ at: '2026-03-01T00:00:00.000Z', fields: ['student', 'reason'] });
  });

  it('short values are erased only where they stand whole', () => {
    const shortRef = new Person('s-x');
    shortRef.learnSnapshot({ reference_id: '42', email: 'x@ex.io' });
    const out = forgetRecord(record({ student: 'ref:42', student_id: 's-y', reason: 'row 42 of x@ex.io' }), shortRef, '2026-01-01T00:00:00.000Z');
    expect(out).toMatchObject({ student: 'ref:42', reason: `row 42 of ${FORGOTTEN_TEXT}` });
  });

  it('leaves a record that names no one forgotten as undefined', () => {
    expect(forgetRecord(RECORDS[7]!, person, '2026-01-01T00:00:00.000Z')).toBeUndefined();
  });
});
