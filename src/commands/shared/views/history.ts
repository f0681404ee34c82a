/** How audit records look: the same leading keys on every record, and the table's columns. */
import type { AuditRecord } from '../../../audit/log.js';
import type { JsonRecord, View } from '../../../output/view.js';

/** The same leading keys on every record, null when absent, so csv columns line up. */
const LEADING_KEYS = [
  'id', 'time', 'user', 'profile', 'base_url', 'command', 'action', 'student', 'student_id', 'product_id', 'result', 'request_id', 'reason',
] as const;

export function historyRecord(record: AuditRecord, titles?: ReadonlyMap<string, string>): JsonRecord {
  const out: JsonRecord = {};
  for (const key of LEADING_KEYS) out[key] = record[key] ?? null;
  if (titles && record.product_id) out.product_title = titles.get(record.product_id) ?? null;
  for (const [key, value] of Object.entries(record)) if (!(key in out)) out[key] = value;
  return out;
}

export const HISTORY_VIEW: View = {
  noun: 'audit records',
  columns: [
    { header: 'time', path: 'time', format: 'datetime' },
    // Who, on which machine (a team record holds every machine's changes), and through an assistant (members mcp)
    // and which client asked: `ana@desk-3 via mcp (Claude Desktop 1.2)`.
    { header: 'user', path: 'user', format: (value, record) => `${String(value ?? '')}${record.host ? `@${String(record.host)}` : ''}`
      + (record.via ? ` via ${String(record.via)}${record.client ? ` (${String(record.client)})` : ''}` : '') },
    { header: 'profile', path: 'profile' },
    // On a narrow terminal these go after user and profile: the result says what was done, the title to what.
    { header: 'command', path: 'command', dropLate: true },
    // A record whose student was forgotten (LGPD) names it by id. On a narrow terminal it goes before the audit id (`history --student` says whose).
    { header: 'student', path: 'student', format: (value, record) => String(value ?? record.student_id ?? ''), dropLate: 'later' },
    { header: 'product', path: 'product_title' },
    { header: 'product id', path: 'product_id', dropLate: true },
    { header: 'result', path: 'result' },
    // Why a change was made is what a history is read for: it shrinks with the titles, it is never dropped.
    { header: 'reason', path: 'reason', kind: 'text' },
    // The id is for `members undo ID`: it goes only when the table cannot fit with every other column at its narrowest.
    { header: 'id', path: 'id', dropLate: 'last' },
  ],
};

/** The changes of a run as they are undone, one record each. */
export const RUN_UNDO_VIEW: View = {
  noun: 'changes',
  columns: [
    { header: 'id', path: 'id' },
    { header: 'action', path: 'action' },
    { header: 'student', path: 'student' },
    { header: 'product', path: 'product_title' },
    { header: 'product id', path: 'product_id', dropLate: true },
    { header: 'result', path: 'result' },
    { header: 'message', path: 'message' },
  ],
};
