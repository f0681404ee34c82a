/**
 * The change record as commands use it: the log's format (log.ts), the
 * journal (intent first, then the outcome; journal.ts) and the snapshots undo
 * needs. docs/audit-and-undo.md says how a new command records its changes.
 */
export * from './log.js';
export * from './journal.js';
export { auditBaseUrl, osUser, type AuditContext } from './stamp.js';
export { studentSnapshot, subscriptionSnapshot } from './snapshots.js';
