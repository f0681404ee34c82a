/**
 * Exactly once across a kill and a re-run: a run of `members each` is known
 * by what it runs — the profile, the server, the command line and the file's
 * bytes. Its run ids are kept under that key (`each-runs/KEY.json` in the
 * config directory) until every row of the file is done; a run of the same
 * command on the same file then leaves out the rows the record shows done
 * by those runs, and those whose change is still in flight. A change whose
 * outcome cannot be checked on the server (a magic link sent as the run was
 * killed) is run again: a second link is harmless, a missing one is not,
 * and the first was printed nowhere. The record
 * itself (audit/journal.ts, each row's change with its run id and line) is
 * the truth; this file only names the runs to look in.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAudit } from '../../../audit/log.js';
import { listIntents } from '../../../audit/intents.js';

/** A row an earlier run of the same command did (or may have: its change is in flight, or cannot be checked). */
export interface DoneRow {
  runId: string;
  /** The change's result (`created`, `updated`…), or `in flight`. */
  result: string;
}

export function runKey(parts: readonly string[], bytes: Buffer): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.update(bytes).digest('hex').slice(0, 32);
}

const path = (dir: string, key: string) => join(dir, 'each-runs', `${key}.json`);

/** The runs of this key so far, oldest first. */
export function earlierRuns(dir: string, key: string): string[] {
  try {
    const runs = (JSON.parse(readFileSync(path(dir, key), 'utf8')) as { runs?: unknown }).runs;
    return Array.isArray(runs) ? runs.filter((run): run is string => typeof run === 'string') : [];
  } catch {
    return [];
  }
}

/** Written before the run's first change: a kill from then on is resumed by the next run. */
export function rememberRuns(dir: string, key: string, runs: readonly string[]): void {
  const file = path(dir, key);
  mkdirSync(join(dir, 'each-runs'), { recursive: true, mode: 0o700 });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ runs })}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** Every row of the file is done: the next run of it runs it again. */
export function forgetRuns(dir: string, key: string): void {
  rmSync(path(dir, key), { force: true });
}

/** The lines the runs `runs` changed (their records), or began to change (intents left by a kill), by line. */
export async function doneRows(dir: string, runs: readonly string[]): Promise<Map<number, DoneRow>> {
  const done = new Map<number, DoneRow>();
  if (runs.length === 0) return done;
  const wanted = new Set(runs);
  for await (const record of readAudit(dir)) {
    if (record.action === 'bulk' || record.run_id === undefined || record.line === undefined || !wanted.has(record.run_id)) continue;
    if (record.result === 'not applied' || record.result === 'unknown') continue;
    done.set(record.line, { runId: record.run_id, result: record.result });
  }
  for (const { intent } of listIntents(dir)) {
    const record = intent?.record;
    if (record?.run_id === undefined || record.line === undefined || !wanted.has(record.run_id) || done.has(record.line)) continue;
    done.set(record.line, { runId: record.run_id, result: 'in flight' });
  }
  return done;
}
