/** `members record status`: one record, a card on a terminal. */
import type { RecordStatus } from '../../audit/record.js';
import type { JsonRecord, View } from '../../output/view.js';

export const RECORD_STATUS_VIEW: View = {
  noun: 'change records',
  columns: [
    { header: 'profile', path: 'profile' },
    { header: 'home', path: 'home' },
    { header: 'source', path: 'source' },
    { header: 'where', path: 'where' },
    { header: 'answers', path: 'answers' },
    { header: 'schema', path: 'schema' },
    { header: 'changes', path: 'changes' },
    { header: 'problem', path: 'problem' },
  ],
};

export function statusRecord(profile: string, source: string, status: RecordStatus): JsonRecord {
  return { profile, home: status.home, source, where: status.where, answers: status.answers, schema: status.schema, changes: status.changes, problem: status.problem ?? null };
}
