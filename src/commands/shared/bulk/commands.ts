/**
 * `members students grant --file F`, `members students revoke --file F`,
 * `members students import F`: the bulk forms (contract §9.1). Each returns the
 * run's report, or throws after printing the results and the summary (exit 7
 * when a row failed, 130 when interrupted); `hooks.onFinish` receives the
 * report in every case where something was sent. Each applied row is
 * recorded as it is applied, intent first (commands/shared/bulk/run.ts).
 */
import type { Session } from '../../../session/session.js';
import { bulkSettings, type BulkFlags } from './flags.js';
import { grantOperation, importOperation, revokeOperation } from '../../../domain/bulk/operations.js';
import { runBulk, type BulkHooks, type BulkReport } from './run.js';

export type { BulkHooks, BulkReport, BulkSummary } from './run.js';
export type { BulkRowOutcome, BulkResult, BulkResultKind } from '../../../domain/bulk/operations.js';

export interface BulkCommandFlags extends BulkFlags {
  reason?: string;
  /** grant --file --renew: renew every row whose subscription exists without access. */
  renew?: boolean;
  /** grant --file: a renewal may reset a status (else such a row is skipped). */
  includeStatusChanges?: boolean;
}

export function bulkGrant(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, grantOperation, { file, ...bulkSettings(flags), reason: flags.reason, renew: flags.renew, includeStatusChanges: flags.includeStatusChanges }, hooks);
}

export function bulkRevoke(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, revokeOperation, { file, ...bulkSettings(flags), reason: flags.reason }, hooks);
}

export function importStudents(session: Session, file: string, flags: BulkCommandFlags, hooks?: BulkHooks): Promise<BulkReport> {
  return runBulk(session, importOperation, { file, ...bulkSettings(flags), reason: flags.reason }, hooks);
}
