/**
 * Where `members products snapshot` keeps each day's subscriber counts:
 * product-counts.jsonl beside the change record (the audit log) in the
 * config directory, one line per product per snapshot, appended under the
 * log's lock like a record of changes.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFileLock } from '../config/lock.js';
import { auditLockPath } from '../config/paths.js';
import { z } from 'zod';
import { AUDIT_LOCK, appendLines } from './log.js';

/** One product's counts on one day, as kept; `profile`: the school it was read from (product ids are a school's own). */
export const CountSnapshot = z.object({
  profile: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  taken_at: z.string(),
  product_id: z.string(),
  title: z.string(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type CountSnapshot = z.infer<typeof CountSnapshot>;

export function countSnapshotsPath(dir: string): string {
  return join(dir, 'product-counts.jsonl');
}

export function appendCountSnapshots(dir: string, snapshots: readonly CountSnapshot[]): void {
  if (snapshots.length === 0) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = acquireFileLock(auditLockPath(dir), AUDIT_LOCK);
  try {
    appendLines(countSnapshotsPath(dir), snapshots.map((snapshot) => `${JSON.stringify(snapshot)}\n`));
  } finally {
    lock.release();
  }
}

/** Every snapshot kept; a line that is not one (cut by a crash) is skipped and counted. */
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
