/**
 * The changes this machine made to one student, newest first, with the titles
 * of their products: what `students show` lists below the card, and what the
 * assistant's show-student tool answers with.
 */
import type { Api } from '../../api/client.js';
import { productTitles } from '../../domain/names.js';
import type { StudentOverview } from '../../domain/student-view.js';
import type { JsonRecord } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import { historyRecord } from './views/history.js';

/** The `limit` newest records about the student `input` names (any of its keys), as `members history` shows them. */
export async function recentChanges(session: Session, api: Api, input: string, overview: StudentOverview, limit = 20): Promise<JsonRecord[]> {
  const { student, subscriptions } = overview;
  const [dir, messages, { auditSource }, { selectHistory }] = await Promise.all([
    session.configDir(), session.messages(), import('../../audit/log.js'), import('../../audit/select.js'),
  ]);
  const source = auditSource(dir, ({ line }) => messages.warn(`skipped line ${line} of the audit log: not a valid audit record`));
  const selected = await selectHistory(source, { student: input, limit }, student);
  // Titles of the products in the history, those no longer held too: one read of the products list, only when needed.
  const held = () => new Map(subscriptions.map((subscription) => [subscription.product_id ?? '', subscription.product?.title ?? '']));
  const titles = selected.some((record) => record.product_id) ? await productTitles(api).catch(held) : undefined;
  return selected.map((record) => historyRecord(record, titles));
}
