/**
 * Erasure in a team record (issue 36): the same rules as this machine's log
 * (forget.ts) — the records about the student lose its personal data and
 * say so in `forgotten`, any record loses the values it quotes — applied to
 * the team's rows, each replaced in place. The forget's own record keeps no
 * personal value either: its reason is erased the same way.
 */
import { Person, forgetRecord, type ForgetOptions } from './forget.js';
import type { AuditEntry, AuditRecord } from './log.js';
import type { ChangeRecord } from './record.js';
import { stamper, type AuditContext } from './stamp.js';

/** A record whose rows can be rewritten by id (the team's). */
export type ErasableRecord = ChangeRecord & { replace(records: readonly AuditRecord[]): Promise<void> };

export interface TeamForgetOutcome {
  records: number;
  /** The forget's own record, when anything was erased. */
  id?: string;
}

/** Every key and value the records know the student by, a snapshot of it under another id included (forget.ts learnFromLog). */
export function learnPerson(person: Person, records: readonly AuditRecord[]): void {
  // Each pass learns the records of an id or a snapshot it knows, which may name another: until one learns nothing.
  let others: readonly AuditRecord[] = records;
  for (let found = true; found;) {
    const rest = others.filter((record) => !person.holdsSnapshotOf(record) && !person.is(record.student_id));
    found = rest.length < others.length;
    for (const record of others) if (!rest.includes(record)) person.learn(record);
    others = rest;
  }
}

export async function forgetInTeam(context: AuditContext, team: ErasableRecord, id: string, options: ForgetOptions): Promise<TeamForgetOutcome> {
  const records = await team.records();
  const person = new Person(id);
  if (options.known) person.learnSnapshot(options.known);
  learnPerson(person, records);
  const at = new Date().toISOString();
  const changed = records.flatMap((record) => forgetRecord(record, person, at) ?? []);
  if (changed.length === 0) return { records: 0 };
  await team.replace(changed);
  const stamp = await stamper(context);
  const own = stamp({
    command: options.command, action: 'forget', student_id: id, result: 'forgotten',
    reason: options.reason === undefined ? undefined : person.erase(options.reason, true), counts: { records: changed.length, intents: 0 },
  } as AuditEntry);
  await team.append([own]);
  return { records: changed.length, id: own.id };
}
