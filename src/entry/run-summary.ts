/**
 * `--summary FILE` (issue 37, item 5): when a command ends, whatever its exit
 * code, one JSON object for cron to mail or post: the command, the profile,
 * the run's record id, the exit code, the duration, and for a run over rows
 * its counts by result and by product and its first failures.
 * `person_needed` is what a page is for: exit 2 (a bad file: nothing was
 * sent) or 7 and above (rows failed, drift, a cap).
 */
import { resolve } from 'node:path';
import type { Io } from '../lib/io.js';
import type { RunSummaryFacts } from '../session/session.js';

export interface RunSummary {
  command: string;
  profile: string | null;
  run_id: string | null;
  exit_code: number;
  person_needed: boolean;
  duration_s: number;
  counts: Readonly<Record<string, number>> | null;
  /** The run's over every attempt, when this command continued one cut short (its record's counts); else null. */
  run_counts: Readonly<Record<string, number>> | null;
  by_product: Record<string, Record<string, number>> | null;
  failures: RunSummaryFacts['failures'];
}

export function runSummary(ended: { command: string; profile?: string; exitCode: number; seconds: number; facts?: RunSummaryFacts }): RunSummary {
  const { facts } = ended;
  return {
    command: ended.command,
    profile: ended.profile ?? null,
    run_id: facts?.run_id ?? null,
    exit_code: ended.exitCode,
    person_needed: ended.exitCode === 2 || (ended.exitCode >= 7 && ended.exitCode !== 130 && ended.exitCode !== 141),
    duration_s: Math.round(ended.seconds * 10) / 10,
    counts: facts?.counts ?? null,
    run_counts: facts?.run_counts ?? null,
    by_product: facts?.by_product && Object.keys(facts.by_product).length > 0 ? facts.by_product : null,
    failures: facts?.failures ?? [],
  };
}

/** Writes the summary (atomically, mode 0600); a failure is said on stderr and never changes the exit code. */
export async function writeRunSummary(io: Pick<Io, 'cwd' | 'stderr'>, path: string, summary: RunSummary): Promise<void> {
  try {
    const { writeFileAtomically } = await import('../lib/atomic-file.js');
    await writeFileAtomically(resolve(io.cwd, path), `${JSON.stringify(summary)}\n`);
  } catch (error) {
    io.stderr.write(`warning: could not write --summary ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
  }
}
