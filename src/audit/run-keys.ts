/**
 * Which runs a command on a file has had (commands/shared/each/resume.ts): a
 * key — a hash of the platform, the command line and the file's bytes — and
 * its runs, oldest first, kept until every row of the file is done. They live
 * in the change record's home, so that a run cut short on one machine of a
 * team is continued from another: the local home keeps `each-runs/KEY.json`
 * in the config directory, the team's PostgreSQL a table
 * (postgres-record.ts, members_run_keys). The record itself is the truth of
 * what the runs did; this only names the runs to look in. A key whose file
 * was done keeps the run that did it (`finished`): a run of it that waited
 * for that one learns that there is nothing left to do, where it would
 * otherwise start the file over.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../lib/atomic-file.js';

/** What a key holds: its runs since its file was last done, and the run that last did it. */
export interface KeyRuns {
  /** Oldest first; none for a key never seen, or whose file was done since. */
  runs: string[];
  finished?: string;
}

/** The runs of each key; every method of a team record throws RecordUnavailableError (exit 11) when it cannot be reached. */
export interface RunKeys {
  read(key: string): Promise<KeyRuns>;
  /** Adds `runId` as the key's latest run (once: a run added twice is kept once). */
  add(key: string, runId: string): Promise<void>;
  /** Run `runId` did every row of the file: the next run of it is a new one. */
  finish(key: string, runId: string): Promise<void>;
}

export function runKeysDir(configDir: string): string {
  return join(configDir, 'each-runs');
}

/** How long a key whose file was done is kept (its `finished`): a week, longer than any run waits for another. */
export const FINISHED_KEPT_MS = 7 * 24 * 3600 * 1000;

/** A file torn or edited by hand gives the run ids it holds as text, or none. */
function readKey(file: string): KeyRuns {
  try {
    const { runs, finished } = JSON.parse(readFileSync(file, 'utf8')) as { runs?: unknown; finished?: unknown };
    const kept = Array.isArray(runs) ? runs.filter((run): run is string => typeof run === 'string') : [];
    return typeof finished === 'string' ? { runs: kept, finished } : { runs: kept };
  } catch {
    return { runs: [] };
  }
}

/** The local home: one small file per key, replaced whole (a rename), readable by its user only. */
export class LocalRunKeys implements RunKeys {
  private readonly dir: string;

  constructor(configDir: string) {
    this.dir = runKeysDir(configDir);
  }

  async read(key: string): Promise<KeyRuns> {
    return readKey(this.path(key));
  }

  async add(key: string, runId: string): Promise<void> {
    const now = await this.read(key);
    if (!now.runs.includes(runId)) await this.write(key, { ...now, runs: [...now.runs, runId] });
  }

  async finish(key: string, runId: string): Promise<void> {
    await this.write(key, { runs: [], finished: runId });
    this.sweep(Date.now());
  }

  /** Keys whose file was done more than FINISHED_KEPT_MS ago go: none is waited for that long. */
  private sweep(now: number): void {
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const key = name.slice(0, -'.json'.length);
      try {
        if (now - statSync(this.path(key)).mtimeMs > FINISHED_KEPT_MS && readKey(this.path(key)).runs.length === 0) rmSync(this.path(key), { force: true });
      } catch {
        // Gone meanwhile (another run swept it): nothing to do.
      }
    }
  }

  private async write(key: string, runs: KeyRuns): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomically(this.path(key), `${JSON.stringify(runs)}\n`);
  }

  private path(key: string): string {
    return join(this.dir, `${key}.json`);
  }
}
