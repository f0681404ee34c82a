/**
 * The flags of the bulk forms and which form a command line asks for. Loaded
 * with the program (it only declares options); the bulk code itself is
 * imported by the actions when a bulk run starts.
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../../../lib/errors.js';
import { parseInteger } from '../../../lib/values.js';
import { READ_STRATEGIES, type StrategyChoice } from '../../../domain/read-plan.js';
import { WAIT_OPTION, waitMs } from '../lease.js';

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 32;

/** The bulk flags as commander hands them over. */
export interface BulkFlags {
  file?: string;
  concurrency?: string;
  dryRun?: boolean;
  skipInvalid?: boolean;
  strategy?: StrategyChoice;
  ignoreExtraColumns?: boolean;
  wait?: string;
}

/** `--concurrency`, `--dry-run`, `--skip-invalid`, `--ignore-extra-columns`, `--strategy` (and `--file` for grant and revoke). */
export function addBulkOptions(command: Command, options: { file?: boolean } = {}): Command {
  if (options.file) command.option('--file <file>', 'apply the rows of a CSV file instead (- for stdin)');
  return command
    .option('--concurrency <n>', `rows in flight at once, 1–${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`)
    .option('--dry-run', 'check every row and look the students up; change nothing')
    .option('--skip-invalid', 'apply the valid rows and report the invalid ones as failed (default: send nothing)')
    .option('--ignore-extra-columns', 'leave out the columns of the file that are no column of this command (Nome, Valor…), listing them, instead of refusing the file')
    .addOption(WAIT_OPTION())
    .addOption(new Option('--strategy <how>', 'how the state is read before the changes: rows (look each row up), snapshot (read the student list once), or auto: the fewer requests (default auto)')
      .choices(READ_STRATEGIES));
}

/** Validates the bulk flags before anything is read or sent. */
export function bulkSettings(flags: BulkFlags): { concurrency: number; dryRun: boolean; skipInvalid: boolean; strategy: StrategyChoice; ignoreExtra: boolean; waitMs: number } {
  const concurrency = flags.concurrency === undefined
    ? DEFAULT_CONCURRENCY
    : parseInteger(flags.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY });
  return {
    concurrency, dryRun: flags.dryRun === true, skipInvalid: flags.skipInvalid === true, strategy: flags.strategy ?? 'auto', ignoreExtra: flags.ignoreExtraColumns === true, waitMs: waitMs(flags.wait),
  };
}

/**
 * `grant`/`revoke` take either STUDENT PRODUCT_ID… (one product or several)
 * or --file, not both; the bulk-only flags go with --file, the single grant's
 * dates without it. Returns the file for a bulk run, undefined otherwise.
 */
export function chooseForm(
  verb: 'grant' | 'revoke', student: string | undefined, products: readonly string[],
  flags: BulkFlags & { accession?: string; expiration?: string },
): string | undefined {
  const positionals = (student === undefined ? 0 : 1) + products.length;
  if (flags.file !== undefined) {
    if (positionals > 0) {
      throw new UsageError(`give either STUDENT PRODUCT_ID or --file FILE, not both; see \`members students ${verb} --help\``);
    }
    if (flags.accession !== undefined || flags.expiration !== undefined) {
      throw new UsageError('--accession and --expiration are for one grant; in a file, give the accession_date and expiration_date columns');
    }
    return flags.file;
  }
  if (positionals < 2) {
    throw new UsageError(`missing ${positionals === 0 ? 'STUDENT and PRODUCT_ID' : 'PRODUCT_ID'} (or --file FILE for a CSV of rows); see \`members students ${verb} --help\``);
  }
  const bulkOnly = [['--concurrency', flags.concurrency], ['--dry-run', flags.dryRun], ['--skip-invalid', flags.skipInvalid], ['--strategy', flags.strategy], ['--ignore-extra-columns', flags.ignoreExtraColumns], ['--wait', flags.wait]]
    .filter(([, value]) => value !== undefined).map(([name]) => name);
  if (bulkOnly.length > 0) throw new UsageError(`${bulkOnly.join(', ')} ${bulkOnly.length === 1 ? 'goes' : 'go'} with --file FILE`);
  return undefined;
}
