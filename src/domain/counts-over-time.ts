/**
 * Subscriber counts over time (issue 38, item 5). The platform's API keeps
 * no history: a product answers with today's counts only. So `members
 * products snapshot` (a daily cron job) keeps each day's counts, and
 * `products list --compare DATE` compares today with the nearest snapshot on
 * or before DATE, never with an estimate from accession or cancel dates.
 */
import type { CountSnapshot } from '../audit/count-snapshots.js';
import { UsageError } from '../lib/errors.js';

export type { CountSnapshot } from '../audit/count-snapshots.js';

/** Today's counts of a product, as the API gives them. */
export interface ProductCounts {
  id: string;
  title: string;
  active: number;
  inactive: number;
}

/** One row of `products list --compare`. */
export interface CountComparison {
  id: string;
  title: string;
  /** The snapshot's date the counts are compared with. */
  then: string;
  active_now: number;
  active_then: number | null;
  active_change: number | null;
  inactive_now: number;
  inactive_then: number | null;
  inactive_change: number | null;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` that is a real day. */
function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The day `--compare` names: a date (YYYY-MM-DD, not after today) or
 * `last-month`, the same day of the month before (its last day when it has
 * fewer: 31 March → 28 or 29 February).
 */
export function compareDay(input: string, today: string): string {
  const wanted = input.trim();
  if (wanted === 'last-month') {
    const [year, month, day] = today.split('-').map(Number) as [number, number, number];
    const last = new Date(Date.UTC(year, month - 1, 0)).getUTCDate();
    const previous = new Date(Date.UTC(year, month - 2, Math.min(day, last)));
    return previous.toISOString().slice(0, 10);
  }
  if (!isDay(wanted)) throw new UsageError(`--compare needs a date (YYYY-MM-DD) or last-month, not ${JSON.stringify(input)}`);
  if (wanted > today) throw new UsageError(`--compare ${wanted} is after today (${today}): counts are kept of days that have been`);
  return wanted;
}

/**
 * The snapshots of one school: those that name its base URL (whichever
 * machine or profile name kept them), and, of the snapshots of earlier
 * versions (no base URL), those of this profile.
 */
export function snapshotsOf(snapshots: readonly CountSnapshot[], school: { profile: string; base_url: string }): CountSnapshot[] {
  return snapshots.filter((snapshot) => (snapshot.base_url ? snapshot.base_url === school.base_url : snapshot.profile === school.profile));
}

/** The day's kept counts by product: the nearest day on or before `day`, the latest snapshot of that day for each product. */
export function countsOn(snapshots: readonly CountSnapshot[], day: string): { date: string; counts: Map<string, CountSnapshot> } | undefined {
  let date: string | undefined;
  for (const snapshot of snapshots) if (snapshot.date <= day && (date === undefined || snapshot.date > date)) date = snapshot.date;
  if (date === undefined) return undefined;
  const counts = new Map<string, CountSnapshot>();
  for (const snapshot of snapshots) {
    const kept = counts.get(snapshot.product_id);
    if (snapshot.date === date && (!kept || snapshot.taken_at >= kept.taken_at)) counts.set(snapshot.product_id, snapshot);
  }
  return { date, counts };
}

/** The earliest day kept, if any. */
export function firstDay(snapshots: readonly CountSnapshot[]): string | undefined {
  return snapshots.reduce<string | undefined>((first, snapshot) => (first === undefined || snapshot.date < first ? snapshot.date : first), undefined);
}

/**
 * Each product now against `then`; a product the snapshot did not know
 * (created since) has no counts then and no change.
 */
export function compareCounts(now: readonly ProductCounts[], then: { date: string; counts: ReadonlyMap<string, CountSnapshot> }): CountComparison[] {
  return now.map((product) => {
    const kept = then.counts.get(product.id);
    return {
      id: product.id,
      title: product.title,
      then: then.date,
      active_now: product.active,
      active_then: kept?.active ?? null,
      active_change: kept ? product.active - kept.active : null,
      inactive_now: product.inactive,
      inactive_then: kept?.inactive ?? null,
      inactive_change: kept ? product.inactive - kept.inactive : null,
    };
  });
}

/** What is said when `day` comes before every snapshot kept: the API keeps no history, and what can be done. */
export function noHistoryMessage(day: string, first: string | undefined): string {
  const since = first === undefined
    ? 'no snapshot is kept yet, so no earlier date can be answered'
    : `the first date this can answer is ${first}, the first snapshot kept`;
  return `no subscriber counts for ${day}: the platform's API keeps no history (a product has today's counts only), and ${since}. `
    + 'Keep a snapshot every day with `members products snapshot` (a cron job); counts are never estimated from accession or cancel dates';
}

/** A day on the user's clock (TZ): what a daily snapshot is filed under. */
export function dayOf(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
