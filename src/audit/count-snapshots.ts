/**
 * Where `members products snapshot` keeps each day's subscriber counts
 * (issue 38): in the change record, behind ChangeRecord.snapshots, so that a
 * team on one record sees every machine's snapshots. The local home keeps
 * product-counts.jsonl beside the audit log (one line per product per
 * snapshot, appended under the log's lock; files of earlier versions are read
 * as they are); the team home a table (postgres-record.ts). Snapshots hold no
 * personal data: --forget leaves them as they are.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFileLock } from '../config/lock.js';
import { auditLockPath } from '../config/paths.js';
import { z } from 'zod';
import { AUDIT_LOCK, appendLines } from './log.js';

/**
 * One product's counts on one day, as kept. The school it was read from is its
 * base URL (product ids are a school's own; the same on every machine), and
 * the profile's name for the snapshots of earlier versions, which have no base URL.
 */
export const CountSnapshot = z.object({
  profile: z.string(),
  base_url: z.string().optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  taken_at: z.string(),
  product_id: z.string(),
  title: z.string(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type CountSnapshot = z.infer<typeof CountSnapshot>;

/** The snapshots a change record keeps; every method of a team record throws RecordUnavailableError (exit 11) when it cannot be reached. */
export interface SnapshotRows {
  /** For messages: the file, or the team record. */
  readonly where: string;
  /** Keeps snapshots; one kept already (same school, product and time) is kept once (a push twice adds nothing). Resolves to how many were added. */
  keep(snapshots: readonly CountSnapshot[]): Promise<number>;
  /** Every snapshot kept, of every school, in the order kept; `skipped`: lines that could not be read. */
  read(): Promise<{ snapshots: CountSnapshot[]; skipped: number }>;
}

/** What makes a snapshot itself: two with the same key are one. */
export const snapshotKey = (snapshot: CountSnapshot): string =>
  JSON.stringify([snapshot.base_url ?? '', snapshot.profile, snapshot.product_id, snapshot.taken_at]);

export function countSnapshotsPath(dir: string): string {
  return join(dir, 'product-counts.jsonl');
}

/** The local home: product-counts.jsonl in the config directory. */
export class LocalSnapshots implements SnapshotRows {
  readonly where: string;

  constructor(private readonly dir: string) {
    this.where = countSnapshotsPath(dir);
  }

  async keep(snapshots: readonly CountSnapshot[]): Promise<number> {
    if (snapshots.length === 0) return 0;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const lock = acquireFileLock(auditLockPath(this.dir), AUDIT_LOCK);
    try {
      const kept = new Set(readCountSnapshots(this.dir).snapshots.map(snapshotKey));
      const fresh = snapshots.filter((snapshot) => {
        const key = snapshotKey(snapshot);
        if (kept.has(key)) return false;
        kept.add(key);
        return true;
      });
      appendLines(this.where, fresh.map((snapshot) => `${JSON.stringify(snapshot)}\n`));
      return fresh.length;
    } finally {
      lock.release();
    }
  }

  async read(): Promise<{ snapshots: CountSnapshot[]; skipped: number }> {
    return readCountSnapshots(this.dir);
  }
}

/** Every snapshot in the local file; a line that is not one (cut by a crash) is skipped and counted. */
export function readCountSnapshots(dir: string): { snapshots: CountSnapshot[]; skipped: number } {
  const path = countSnapshotsPath(dir);
  if (!existsSync(path)) return { snapshots: [], skipped: 0 };
  const snapshots: CountSnapshot[] = [];
  let skipped = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      snapshots.push(CountSnapshot.parse(JSON.parse(line)));
    } catch {
      skipped++;
    }
  }
  return { snapshots, skipped };
}
