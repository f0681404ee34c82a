/**
 * A planned change as printed (every output format: one flat record, so that
 * csv columns line up) and as saved in a plan file (--plan-out), and back.
 */
import * as z from 'zod';
import { SYNC_ACTIONS, type HeldState, type PlannedChange } from './plan.js';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One change of a plan: what it does, and the subscription it was planned from (`current_*`, null: none; its id tells a subscription granted again since). */
export const PlanRecord = z.strictObject({
  action: z.enum(SYNC_ACTIONS),
  line: z.number().int().positive().nullable(),
  student: z.string(),
  student_id: z.string().nullable(),
  product_id: z.string().min(1),
  accession_date: date.nullable(),
  expiration_date: date.nullable(),
  current_access: z.boolean().nullable(),
  current_subscription_id: z.string().nullable(),
  current_status: z.string().nullable(),
  current_accession_date: date.nullable(),
  current_expiration_date: date.nullable(),
  note: z.string().nullable(),
});
export type PlanRecord = z.infer<typeof PlanRecord>;

export function planRecord(change: PlannedChange): PlanRecord {
  const from = change.from;
  return {
    action: change.action,
    line: change.line ?? null,
    student: change.student,
    student_id: change.studentId ?? null,
    product_id: change.productId,
    accession_date: change.accession ?? null,
    expiration_date: change.expiration ?? null,
    current_access: from ? from.hasAccess : null,
    current_subscription_id: from?.id ?? null,
    current_status: from?.status ?? null,
    current_accession_date: from?.accessionDate ?? null,
    current_expiration_date: from?.expirationDate ?? null,
    note: change.notes.length > 0 ? change.notes.join('; ') : null,
  };
}

/** The change a record describes (a saved plan's, validated by PlanRecord). */
export function changeOf(record: PlanRecord): PlannedChange {
  const change: PlannedChange = { action: record.action, student: record.student, productId: record.product_id, notes: record.note === null ? [] : record.note.split('; ') };
  if (record.line !== null) change.line = record.line;
  if (record.student_id !== null) change.studentId = record.student_id;
  if (record.accession_date !== null) change.accession = record.accession_date;
  if (record.expiration_date !== null) change.expiration = record.expiration_date;
  if (record.current_access !== null) {
    const from: HeldState = { hasAccess: record.current_access };
    if (record.current_subscription_id !== null) from.id = record.current_subscription_id;
    if (record.current_status !== null) from.status = record.current_status;
    if (record.current_accession_date !== null) from.accessionDate = record.current_accession_date;
    if (record.current_expiration_date !== null) from.expirationDate = record.current_expiration_date;
    change.from = from;
  }
  return change;
}
