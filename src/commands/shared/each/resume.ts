/**
 * Exactly once across a kill and a re-run: a run of `members each` is known
 * by what it runs — the profile, the server, the command line and the file's
 * bytes. Its run id is kept under that key (`each-runs/KEY.json` in the
 * config directory) until every row of the file is done; a run of the same
 * command on the same file continues that run (its id, so `members undo RUN`
 * reverses both attempts) and leaves out the rows the record shows done
 * by it, and those whose change is still in flight. The record read is the
 * session's (the local files or the team's PostgreSQL). A change whose
 * outcome cannot be checked on the server (a magic link sent as the run was
 * killed) is run again: a second link is harmless, a missing one is not,
 * and the first was printed nowhere. The record
 * itself (audit/journal.ts, each row's change with its run id and line) is
 * the truth; this file only names the runs to look in.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listIntents, type Intent } from '../../../audit/intents.js';
import type { ChangeRecord } from '../../../audit/record.js';
import type { CsvInput } from '../../../domain/bulk/csv.js';

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
  /** The key's last run when it never recorded its end (killed): this run goes on under its id. */
  continued?: string;
  /** The rows `continued` did (their change recorded, not in flight): counted in the run's own record. */
  before: Map<number, DoneRow>;
}

/** Looks up what the earlier runs of the same command on the same input did (`parts`: what names the command). */
export async function resumeRun(record: ChangeRecord, dir: string, parts: readonly string[], input: CsvInput): Promise<Resumed> {
  const key = runKey(parts, await bytesOf(input));
  const runs = earlierRuns(dir, key);
  const work = await doneRows(record, dir, runs);
  const last = runs.at(-1);
  const continued = last !== undefined && !work.ended.has(last) ? last : undefined;
  const before = new Map([...work.rows].filter(([, row]) => row.runId === continued && row.result !== 'in flight'));
  return { ...work, key, runs, continued, before };
}

async function bytesOf(input: CsvInput): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
