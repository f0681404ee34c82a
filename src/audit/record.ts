/**
 * The change record behind one interface (issue 36), with two homes: the
 * local files of the config directory (audit.jsonl, audit-intents/, leases/, each-runs/:
 * a person alone, the embedded default) and a team's PostgreSQL
 * (audit/postgres-record.ts), chosen per profile by `members record use` or
 * for one run by MEMBERS_RECORD_URL. Commands reach it through the session;
 * neither home is a fallback for the other.
 */
import { auditLogPath } from '../config/paths.js';
import { readAllAudit, readAudit, type AuditRecord } from './log.js';
import type { Intent } from './intents.js';
import { LocalSnapshots, type SnapshotRows } from './count-snapshots.js';
import type { LeaseHome } from './leases.js';
import { LocalLeases } from './local-leases.js';
import type { SharedBudget } from '../api/transport/shared-budget.js';
import { LocalRateBudget } from './rate-budget.js';
import { LocalRunKeys, type RunKeys } from './run-keys.js';

export type RecordHome = 'local' | 'postgres';

/** What `members record status` says of a record. */
export interface RecordStatus {
  home: RecordHome;
  /** The log file, or the URL without its password. */
  where: string;
  answers: boolean;
  /** The schema's migration number (PostgreSQL), or null. */
  schema: number | null;
  /** The changes it holds; null when it does not answer. */
  changes: number | null;
  /** Why it does not answer. */
  problem?: string;
}

/**
 * The intents of a team record: rows written before their change is sent
 * (the local home keeps them as files, audit/intents.ts). Each method throws
 * RecordUnavailableError (exit 11) when the database cannot be written. A
 * record appended (ChangeRecord.append) concludes its intent: the row goes with it.
 */
export interface IntentRows {
  write(intent: Intent): Promise<void>;
  remove(id: string): Promise<void>;
  /** The intents no run is checking now. */
  list(): Promise<Intent[]>;
  /** Takes an intent to check it (atomically: of two machines, one wins); false when another run has it. */
  claim(id: string, by: string): Promise<boolean>;
  /** Gives a claimed intent back: it could not be concluded yet. */
  release(id: string): Promise<void>;
  /** Whether the outcome of change `id` is recorded already. */
  recorded(id: string): Promise<boolean>;
  /** The records from `time` on, in the order written. */
  since(time: string): Promise<AuditRecord[]>;
}

export interface ChangeRecord {
  readonly home: RecordHome;
  /** A team record's intents; the local home's are files (journal.ts writes them itself). */
  readonly intents?: IntentRows;
  /** For messages: `the local record (~/.config/members/audit.jsonl)`, `the team record postgres://ana@db:5432/members`. */
  readonly name: string;
  readonly leases: LeaseHome;
  /** The rate limit the runs on one token share (issue 36, item 6): their paced request starts, one timeline per token. */
  readonly budget: SharedBudget;
  /** The subscriber counts `products snapshot` keeps (issue 38); no personal data, so --forget leaves them. */
  readonly snapshots: SnapshotRows;
  /** The runs of each command on each file so far (run-keys.ts): where any machine of the team continues a run cut short. */
  readonly runKeys: RunKeys;
  status(): Promise<RecordStatus>;
  /** Adds finished records; one already there (same id) is left as it is (a push twice adds nothing). Resolves to how many were added. */
  append(records: readonly AuditRecord[]): Promise<number>;
  /** Every record, in the order it was written. */
  records(): Promise<AuditRecord[]>;
  /** The records of the runs `ids`, in the order written: their changes (`run_id`) and their own records (`id`). */
  runs(ids: readonly string[]): Promise<AuditRecord[]>;
  close(): Promise<void>;
}

/** The local home: the files every version of members wrote (audit/log.ts, intents.ts), and leases between the processes of one machine. */
export class LocalRecord implements ChangeRecord {
  readonly home = 'local';
  readonly name: string;
  readonly leases: LeaseHome;
  readonly budget: SharedBudget;
  readonly snapshots: SnapshotRows;
  readonly runKeys: RunKeys;

  constructor(private readonly dir: string) {
    this.name = `the local record (${auditLogPath(dir)})`;
    this.leases = new LocalLeases(dir);
    this.budget = new LocalRateBudget(dir);
    this.snapshots = new LocalSnapshots(dir);
    this.runKeys = new LocalRunKeys(dir);
  }

  async status(): Promise<RecordStatus> {
    const where = auditLogPath(this.dir);
    try {
      return { home: 'local', where, answers: true, schema: null, changes: (await this.records()).length };
    } catch (error) {
      return { home: 'local', where, answers: false, schema: null, changes: null, problem: (error as Error).message };
    }
  }

  async append(records: readonly AuditRecord[]): Promise<number> {
    const { appendAudit } = await import('./log.js');
    const known = new Set((await this.records()).map((record) => record.id));
    const fresh = records.filter((record) => !known.has(record.id));
    appendAudit(this.dir, fresh);
    return fresh.length;
  }

  records(): Promise<AuditRecord[]> {
    return readAllAudit(this.dir);
  }

  /** Read as a stream: only the runs' records are kept, however long the log. */
  async runs(ids: readonly string[]): Promise<AuditRecord[]> {
    const wanted = new Set(ids);
    const found: AuditRecord[] = [];
    for await (const record of readAudit(this.dir)) {
      if (wanted.has(record.id) || (record.run_id !== undefined && wanted.has(record.run_id))) found.push(record);
    }
    return found;
  }

  async close(): Promise<void> {}
}
