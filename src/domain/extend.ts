/**
 * `subscriptions extend` (issue 30): which subscriptions of a product get a
 * later expiration, and which are left as they are and why. The API has no
 * update: an extension is a renewal (revoke, then grant with the same
 * accession and the new expiration), so a status other than the one a grant
 * leaves would be reset: such rows are left out unless asked for
 * (`includeStatusChanges`), and a new expiration still in the past is
 * flagged. Pure: the caller reads the holders and sends the changes.
 */
import { resetsStatus, statusResetNote } from './grant-status.js';

/** A subscription of the product, as the snapshot (or a lookup) holds it, with its student. */
export interface Holding {
  studentId: string;
  /** Name and e-mail, for the plan. */
  name: string;
  email?: string;
  hasAccess: boolean;
  status?: string;
  accessionDate?: string;
  expirationDate?: string;
}

/** `--days N` (added to each expiration) or `--until DATE` (the same for every row). */
export type ExtendBy = { days: number } | { until: string };

export interface Extension {
  holding: Holding;
  /** The expiration now and the one it gets, YYYY-MM-DD. */
  from: string;
  to: string;
  /** What the operator must know: a status reset (with --include-status-changes), an expiration still past. */
  notes: string[];
  /** The new expiration is before today: the student gets no access from it. */
  stillPast: boolean;
}

export interface LeftAlone {
  holding: Holding;
  why: string;
}

export interface ExtendPlan {
  extensions: Extension[];
  /** Would reset a status: left out (the operator passes --include-status-changes to make them). */
  statusChanges: Extension[];
  /** Nothing to extend: no expiration, or already as late. */
  unchanged: LeftAlone[];
  /** Subscriptions of the product without access: not extended (a renewal gives access: students grant --renew). */
  withoutAccess: number;
}

const day = (date: string) => date.slice(0, 10);

/** `2026-02-27` + 3 days → `2026-03-02` (calendar arithmetic, no time zone). */
export function addDays(date: string, days: number): string {
  const [year, month, dayOfMonth] = day(date).split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC, which takes years 0–99 for 1900–1999.
  const moved = new Date(0);
  moved.setUTCFullYear(year, month - 1, dayOfMonth + days);
  return moved.toISOString().slice(0, 10);
}

export function planExtension(holdings: Iterable<Holding>, by: ExtendBy, options: { today: string; includeStatusChanges: boolean }): ExtendPlan {
  const plan: ExtendPlan = { extensions: [], statusChanges: [], unchanged: [], withoutAccess: 0 };
  for (const holding of holdings) {
    if (!holding.hasAccess) {
      plan.withoutAccess++;
      continue;
    }
    const from = holding.expirationDate ? day(holding.expirationDate) : undefined;
    if (from === undefined) {
      plan.unchanged.push({ holding, why: 'no expiration: its access has no end' });
      continue;
    }
    const to = 'days' in by ? addDays(from, by.days) : by.until;
    if (to <= from) {
      plan.unchanged.push({ holding, why: to === from ? `already expires on ${from}` : `already expires on ${from}, after ${to}` });
      continue;
    }
    const accession = holding.accessionDate ? day(holding.accessionDate) : undefined;
    const stillPast = to < options.today;
    const notes = stillPast ? [`${to} is still in the past: no access from it`] : [];
    const extension: Extension = { holding, from, to, notes, stillPast };
    if (accession !== undefined && to < accession) {
      plan.unchanged.push({ holding, why: `${to} is before its accession ${accession}` });
    } else if (resetsStatus(holding.status)) {
      notes.unshift(statusResetNote(holding.status));
      (options.includeStatusChanges ? plan.extensions : plan.statusChanges).push(extension);
    } else {
      plan.extensions.push(extension);
    }
  }
  return plan;
}
