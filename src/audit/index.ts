/**
 * The change record as commands use it: the journal (intent first, then the
 * outcome; journal.ts), the snapshots undo needs, and the bulk runs' records.
 * docs/audit-and-undo.md says how a new command records its changes.
 */
import type { Subscription } from '../api/endpoints/schemas.js';
import { subscriptionSnapshot } from './snapshots.js';
import { newAuditId, type AuditEntry } from './log.js';
import { stamper, write, type AuditContext } from './stamp.js';

export * from './log.js';
export * from './journal.js';
export { auditBaseUrl, osUser, type AuditContext } from './stamp.js';
export { studentSnapshot, subscriptionSnapshot } from './snapshots.js';

/** Records one change; resolves to its audit id (also when the write failed: the record was then printed). */
export async function recordChange(session: AuditContext, entry: AuditEntry): Promise<string> {
  const record = (await stamper(session))(entry);
  await write(session, [record]);
  return record.id;
}

/** One row of a bulk run, as the bulk commands report it (their BulkRowOutcome fits). */
export interface BulkRowOutcome {
  /** The row's line in the file, the header being line 1. */
  line: number;
  student: string;
  student_id?: string;
  /** Empty for `students import` rows. */
  product_id?: string;
  /** Only `granted`, `revoked`, `renewed` and `created` are changes; the others are not recorded. */
  result: string;
  requestId?: string;
  /** granted: the new subscription; revoked: the one removed (here, or in `change`, the grant/revoke core's outcome). */
  subscription?: Subscription;
  change?: { subscription?: Subscription; replaced?: Subscription };
  /** Rows of a dry run are never recorded. */
  dryRun?: boolean;
}

/** A bulk run as the bulk commands report it (their BulkReport fits). */
export interface BulkRun {
  /** `students grant`, `students revoke`, `students import`. */
  command: string;
  /** The file as given, or `stdin`. */
  source?: string;
  reason?: string;
  dryRun?: boolean;
  outcomes: readonly BulkRowOutcome[];
  /** `counts`: rows by result, e.g. `{ granted: 3, skipped: 1, failed: 0 }`, kept as the run record's `counts`. */
  summary: { counts: Readonly<Record<string, number>>; interrupted?: boolean };
}

const ROW_ACTIONS: Record<string, AuditEntry['action']> = { granted: 'grant', revoked: 'revoke', renewed: 'renew', created: 'create' };

/** `students grant --file`: the bulk forms of grant and revoke, as the contract writes them. */
const bulkCommand = (command: string) => (command === 'students grant' || command === 'students revoke' ? `${command} --file` : command);

export interface BulkRecorder {
  /** Records one row as soon as it is applied (a row that changed nothing, or a dry run's, is not recorded). */
  row(outcome: BulkRowOutcome): Promise<void>;
  /** Records the run itself, if any row was recorded; resolves to the run's audit id. */
  finish(summary: BulkRun['summary']): Promise<string | undefined>;
}

/**
 * A bulk run's records, written as the rows are applied: a run killed
 * halfway (SIGKILL, a power cut) leaves every applied row in the log, so
 * that history, undo and the next run's `skipped` agree with the server.
 */
export async function bulkRecorder(session: AuditContext, run: Omit<BulkRun, 'outcomes' | 'summary'>): Promise<BulkRecorder> {
  const stamp = await stamper(session);
  const runId = newAuditId();
  const command = bulkCommand(run.command);
  let recorded = 0;
  return {
    async row(outcome) {
      const action = ROW_ACTIONS[outcome.result];
      if (run.dryRun || outcome.dryRun || action === undefined) return;
      const subscription = outcome.subscription ?? outcome.change?.subscription;
      const snapshot = subscription ? subscriptionSnapshot(subscription) : undefined;
      recorded++;
      await write(session, [stamp({
        command, action, student: outcome.student, student_id: outcome.student_id, product_id: outcome.product_id || undefined,
        result: outcome.result, request_id: outcome.requestId, reason: run.reason, run_id: runId, line: outcome.line,
        before: action === 'revoke' ? snapshot : outcome.change?.replaced ? subscriptionSnapshot(outcome.change.replaced) : undefined,
        after: action === 'grant' || action === 'renew' ? snapshot : undefined,
      })]);
    },
    async finish(summary) {
      if (recorded === 0) return undefined;
      const failed = summary.counts.failed ?? 0;
      const result = summary.interrupted ? 'interrupted' : failed > 0 ? 'partial' : 'completed';
      await write(session, [stamp({ command, action: 'bulk', result, reason: run.reason, source: run.source, counts: { ...summary.counts } }, runId)]);
      return runId;
    },
  };
}
