/**
 * `members students grant --file F`, `members students revoke --file F`,
 * `members students import F`: the bulk forms (contract §5). Each returns the
 * run's report, or throws after printing the results and the summary (exit 7
 * when a row failed, 130 when interrupted); `hooks.onFinish` receives the
 * report in every case where something was sent (the audit log's hook).
 */
import { bulkRecorder, type BulkRecorder } from '../../audit/index.js';
import type { Session } from '../session.js';
import { bulkSettings, type BulkFlags } from './flags.js';
import { grantOperation, importOperation, revokeOperation } from '../../domain/bulk/operations.js';
import { runBulk, type BulkHooks, type BulkReport } from './run.js';

export type { BulkHooks, BulkReport, BulkSummary } from './run.js';
export type { BulkRowOutcome, BulkResult, BulkResultKind } from '../../domain/bulk/operations.js';

export interface BulkCommandFlags extends BulkFlags {
  reason?: string;
  /** grant --file --renew: renew every row whose subscription exists without access. */
  renew?: boolean;
}

/** Records the run in the audit log: each applied row as it is applied, then one record for the run, after the caller's own hook. */
function audited(session: Session, hooks: BulkHooks = {}): BulkHooks {
  let recorder: Promise<BulkRecorder> | undefined;
  const recorderFor = (run: Parameters<typeof bulkRecorder>[1]) => (recorder ??= bulkRecorder(session, run));
  return {
    async onRow(outcome, run) {
      await (await recorderFor(run)).row(outcome);
    },
    async onFinish(report) {
      await hooks.onFinish?.(report);
      await (await recorderFor(report)).finish(report.summary);
    },
  };
}

export function bulkGrant(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, grantOperation, { file, ...bulkSettings(flags), reason: flags.reason, renew: flags.renew }, audited(session, hooks));
}

export function bulkRevoke(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, revokeOperation, { file, ...bulkSettings(flags), reason: flags.reason }, audited(session, hooks));
}

export function importStudents(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, importOperation, { file, ...bulkSettings(flags), reason: flags.reason }, audited(session, hooks));
}
