/**
 * The changes made to one student (by this machine, or by the whole team when
 * the profile uses a team record), newest first, with the titles
 * of their products: what `students show` lists below the card, and what the
 * assistant's show-student tool answers with.
 */
import type { Api } from '../../api/client.js';
import { productTitles } from '../../domain/names.js';
import type { StudentOverview } from '../../domain/student-view.js';
import type { JsonRecord } from '../../output/index.js';
import type { Session } from '../../session/session.js';
import { historyRecord } from './views/history.js';
import { recordSource } from './records.js';

/** The `limit` newest records about the student `input` names (any of its keys), as `members history` shows them. */
export async function recentChanges(session: Session, api: Api, input: string, overview: StudentOverview, limit = 20): Promise<JsonRecord[]> {
  const { student, subscriptions } = overview;
  const messages = await session.messages();
  const [found, { selectHistory }] = await Promise.all([recordSource(session, messages).catch((error: Error) => error), import('../../audit/select.js')]);
  // A team record that does not answer: the student is still shown, without the changes.
  if (found instanceof Error) {
    messages.warn(`the changes to this student are not shown: ${found.message}`);
    return [];
  }
  const { source } = found;
  const selected = await selectHistory(source, { student: input, limit }, student);
  // Titles of the products in the history, those no longer held too: one read of the products list, only when needed.
  const held = () => new Map(subscriptions.map((subscription) => [subscription.product_id ?? '', subscription.product?.title ?? '']));
  const titles = selected.some((record) => record.product_id) ? await productTitles(api).catch(held) : undefined;
  return selected.map((record) => historyRecord(record, titles));
}
