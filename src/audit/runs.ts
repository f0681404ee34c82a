/**
 * A run's own record (action `bulk`) is written when the run ends; a run
 * killed before its end (SIGKILL, a crash, a power cut) leaves none. Each of
 * its changes carries its run id all the same (journal.ts openRun), those the
 * next run checked (resolve.ts) included, so the run is derived from them:
 * history shows it as one entry and `members undo RUN_ID` reverses it, as for
 * a run that ended.
 */
import type { AuditRecord } from './log.js';

/** The result a derived run has: it never recorded how it ended. */
const CUT_SHORT = 'interrupted';

interface Tally {
  run: AuditRecord;
  /** The newest change of the run: where history shows the run. */
  last: string;
}

/** The runs of a log read record by record, and those of them that left no record of their own. */
export class RunsOfLog {
  private readonly recorded = new Set<string>();
  private readonly tallies = new Map<string, Tally>();

  add(record: AuditRecord): void {
    if (record.action === 'bulk') {
      this.recorded.add(record.id);
      return;
    }
    const id = record.run_id;
    if (id === undefined) return;
    const tally = this.tallies.get(id);
    if (tally === undefined) {
      const { time, user, profile, base_url, command, reason } = record;
      this.tallies.set(id, { run: { id, time, user, profile, base_url, command, action: 'bulk', result: CUT_SHORT, reason, counts: { [record.result]: 1 } }, last: record.id });
      return;
    }
    const counts = tally.run.counts as Record<string, number>;
    counts[record.result] = (counts[record.result] ?? 0) + 1;
    if (record.time >= tally.run.time) {
      tally.run.time = record.time;
      tally.last = record.id;
    }
  }

  /** The run `id` derived from its changes, when it wrote no record of its own; undefined otherwise. */
  derived(id: string): AuditRecord | undefined {
    return this.recorded.has(id) ? undefined : this.tallies.get(id)?.run;
  }

  /** The derived run that `change` (its newest change) stands in for in a history; undefined for any other record. */
  shownAt(change: AuditRecord): AuditRecord | undefined {
    const id = change.run_id;
    if (id === undefined || this.recorded.has(id)) return undefined;
    const tally = this.tallies.get(id);
    return tally?.last === change.id ? tally.run : undefined;
  }
}

/** The run `id` as its own record says, or derived from its changes when it left none; undefined when no record names it. */
export function findRun(records: Iterable<AuditRecord>, id: string): AuditRecord | undefined {
  const runs = new RunsOfLog();
  for (const record of records) {
    if (record.id === id && record.action === 'bulk') return record;
    if (record.run_id === id) runs.add(record);
  }
  return runs.derived(id);
}
