/**
 * Which runs a command on a file has had (commands/shared/each/resume.ts): a
 * key — a hash of the platform, the command line and the file's bytes — and
 * its runs, oldest first, kept until every row of the file is done. They live
 * in the change record's home, so that a run cut short on one machine of a
 * team is continued from another: the local home keeps `each-runs/KEY.json`
 * in the config directory, the team's PostgreSQL a table
 * (postgres-record.ts, members_run_keys). The record itself is the truth of
 * what the runs did; this only names the runs to look in.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The runs of each key; every method of a team record throws RecordUnavailableError (exit 11) when it cannot be reached. */
export interface RunKeys {
  /** The runs of `key` so far, oldest first; none for a key never seen (or forgotten). */
  runs(key: string): Promise<string[]>;
  /** Adds `runId` as the key's latest run (once: a run added twice is kept once). */
  add(key: string, runId: string): Promise<void>;
  /** Every row of the file is done: the next run of it is a new one. */
  forget(key: string): Promise<void>;
}

export function runKeysDir(configDir: string): string {
  return join(configDir, 'each-runs');
}

/** The local home: one small file per key, replaced whole (a rename), readable by its user only. */
export class LocalRunKeys implements RunKeys {
  private readonly dir: string;

  constructor(configDir: string) {
    this.dir = runKeysDir(configDir);
  }

  async runs(key: string): Promise<string[]> {
    return this.read(key);
  }

  async add(key: string, runId: string): Promise<void> {
    const runs = this.read(key);
    if (runs.includes(runId)) return;
    const file = this.path(key);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.tmp`, `${JSON.stringify({ runs: [...runs, runId] })}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  async forget(key: string): Promise<void> {
    rmSync(this.path(key), { force: true });
  }

  /** A file torn or edited by hand gives the run ids it holds as text, or none. */
  private read(key: string): string[] {
    try {
      const runs = (JSON.parse(readFileSync(this.path(key), 'utf8')) as { runs?: unknown }).runs;
      return Array.isArray(runs) ? runs.filter((run): run is string => typeof run === 'string') : [];
    } catch {
      return [];
    }
  }

  private path(key: string): string {
    return join(this.dir, `${key}.json`);
  }
}
