/** `members each FILE [--] COMMAND ARGS…`: the flags checked, then the run (run.ts). */
import type { Session } from '../../session/session.js';
import { parseInteger } from '../../lib/values.js';
import { bulkSettings } from '../shared/bulk/flags.js';
import { waitMs } from '../shared/lease.js';
import { runEach, type Halt } from '../shared/each/run.js';

export async function each(session: Session, file: string, args: string[], flags: {
  dryRun?: boolean; first?: string; maxRows?: string; concurrency?: string; onlyFailed?: boolean; halt: Halt; wait?: string;
}): Promise<void> {
  const { concurrency } = bulkSettings({ concurrency: flags.concurrency });
  await runEach(session, {
    file,
    args,
    concurrency,
    dryRun: flags.dryRun === true,
    first: flags.first === undefined ? undefined : parseInteger(flags.first, '--first', { min: 1 }),
    maxRows: flags.maxRows === undefined ? undefined : parseInteger(flags.maxRows, '--max-rows', { min: 1 }),
    onlyFailed: flags.onlyFailed === true,
    halt: flags.halt,
    waitMs: waitMs(flags.wait),
  });
}
