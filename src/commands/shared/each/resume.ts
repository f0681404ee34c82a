/**
 * Exactly once across a kill and a re-run, from any machine of the team: a
 * run of `members each` (or a bulk form) is known by what it runs — the
 * platform (its base URL, not the profile's name, which differs between
 * machines), the command line and the file's bytes (not its name or path).
 * Its run id is kept under that key (audit/run-keys.ts: the record's home —
 * the config directory's `each-runs/`, or the team's PostgreSQL) until every
 * row of the file is done; a run of the same command on the same file
 * continues that run (its id, so `members undo RUN` reverses both attempts)
 * and leaves out the rows the record shows done by it, and those whose change
 * is still in flight. While it runs it holds a lease on the key (runKeyLease):
 * a second run of it at the same time waits, or exits 10 with nothing sent. A
 * change whose outcome cannot be checked on the server (a magic link sent as
 * the run was killed) is run again: a second link is harmless, a missing one
 * is not, and the first was printed nowhere. The record itself
 * (audit/journal.ts, each row's change with its run id and line) is the
 * truth; the key only names the runs to look in.
 */
import { createHash } from 'node:crypto';
import { listIntents, type Intent } from '../../../audit/intents.js';
import type { ChangeRecord } from '../../../audit/record.js';
import type { CsvInput } from '../../../domain/bulk/csv.js';

/** A row an earlier run of the same command did (or may have: its change is in flight, or cannot be checked). */
export interface DoneRow {
  runId: string;
  /** The change's result (`created`, `updated`…), or `in flight`. */
  result: string;
}

/** The key of `parts` (the platform's base URL, then the command line's words) run on `bytes`: 32 hex digits. */
export function runKey(parts: readonly string[], bytes: Buffer): string {
  return keyHash(parts).update(bytes).digest('hex').slice(0, 32);
}

function keyHash(parts: readonly string[]) {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash;
}

/** What the record says of the runs of a key: the lines they did, and which of the runs ended (wrote their own record). */
export interface EarlierWork {
  rows: Map<number, DoneRow>;
  ended: Set<string>;
}

/**
 * The lines the runs `runs` changed (their records), or began to change
 * (intents left by a kill), by line, in `record`: the local files (their
 * intents in `dir`) or the team's rows.
 */
export async function doneRows(record: ChangeRecord, dir: string, runs: readonly string[]): Promise<EarlierWork> {
  const work: EarlierWork = { rows: new Map(), ended: new Set() };
  if (runs.length === 0) return work;
  const { rows: done, ended } = work;
  const wanted = new Set(runs);
  for (const change of await record.runs(runs)) {
    if (change.action === 'bulk') {
      if (wanted.has(change.id)) ended.add(change.id);
      continue;
    }
    if (change.run_id === undefined || change.line === undefined || !wanted.has(change.run_id)) continue;
    if (change.result === 'not applied' || change.result === 'unknown') continue;
    done.set(change.line, { runId: change.run_id, result: change.result });
  }
  const intents: Intent[] = record.intents ? await record.intents.list() : listIntents(dir).flatMap(({ intent }) => (intent ? [intent] : []));
  for (const { record: change } of intents) {
    if (change.run_id === undefined || change.line === undefined || !wanted.has(change.run_id) || done.has(change.line)) continue;
    done.set(change.line, { runId: change.run_id, result: 'in flight' });
  }
  return work;
}

/** What a run of a key finds: the runs so far, what they did, and the one it continues. */
export interface Resumed extends EarlierWork {
  key: string;
  /** The key's runs so far, oldest first. */
  runs: string[];
  /** The run that last did every row of the file. */
  finished?: string;
  /** The key's last run when it never recorded its end (killed): this run goes on under its id. */
  continued?: string;
  /** The rows `continued` did (their change recorded, not in flight): counted in the run's own record. */
  before: Map<number, DoneRow>;
}

/** The key of a command (`parts`: the platform's base URL, then the words that name the command) run on `input`. */
export async function inputKey(parts: readonly string[], input: CsvInput): Promise<string> {
  // Hashed as it is read: a file of a million rows is never held whole.
  const hash = keyHash(parts);
  for await (const chunk of input()) hash.update(chunk);
  return hash.digest('hex').slice(0, 32);
}

/** Looks up what the earlier runs of `key` did, in `record` (its intents in `dir` for the local home). */
export async function resumeRun(record: ChangeRecord, dir: string, key: string): Promise<Resumed> {
  const { runs, finished } = await record.runKeys.read(key);
  const work = await doneRows(record, dir, runs);
  const last = runs.at(-1);
  const continued = last !== undefined && !work.ended.has(last) ? last : undefined;
  const before = new Map([...work.rows].filter(([, row]) => row.runId === continued && row.result !== 'in flight'));
  return { ...work, key, runs, finished, continued, before };
}

