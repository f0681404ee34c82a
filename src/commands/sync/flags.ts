/**
 * The flags of `members sync` as commander hands them over, and what they
 * ask for, checked before anything is read or sent (exit 2).
 */
import { UsageError } from '../../lib/errors.js';
import { parseInteger } from '../../lib/values.js';
import { checkProductId } from '../../domain/changes.js';
import { parseRevokeCap, type RevokeCap, type SyncMode } from '../../domain/sync/plan.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../shared/bulk/flags.js';
import { waitMs } from '../shared/lease.js';

export interface SyncFlags {
  file?: string;
  apply?: string;
  product?: string[];
  addOnly?: boolean;
  removeOnly?: boolean;
  maxRevoke?: string;
  check?: boolean;
  dryRun?: boolean;
  planOut?: string;
  includeStatusChanges?: boolean;
  reason?: string;
  concurrency?: string;
  ignoreExtraColumns?: boolean;
  wait?: string;
}

interface Common {
  reason?: string;
  concurrency: number;
  /** --wait: how long to wait for another run's lease on the same products (ms). */
  waitMs: number;
}

/** Plan from a file (and apply, unless --check, --dry-run or --plan-out). */
export interface FileSync extends Common {
  kind: 'file';
  file: string;
  /** --product: every row is for each of these (as given: resolved later). */
  products?: string[];
  mode: SyncMode;
  maxRevoke?: RevokeCap;
  check: boolean;
  dryRun: boolean;
  planOut?: string;
  includeStatusChanges: boolean;
  /** `--ignore-extra-columns`: columns that are no sync column (Nome, Valor…) are left out and listed. */
  ignoreExtra: boolean;
}

/** Apply a saved plan. */
export interface PlanSync extends Common {
  kind: 'apply';
  plan: string;
}

/** Flags that shape a plan: a saved plan was shaped when it was made. */
const PLANNING_FLAGS: Array<[keyof SyncFlags, string]> = [
  ['product', '--product'], ['addOnly', '--add-only'], ['removeOnly', '--remove-only'], ['maxRevoke', '--max-revoke'],
  ['check', '--check'], ['dryRun', '--dry-run'], ['planOut', '--plan-out'], ['includeStatusChanges', '--include-status-changes'],
  ['ignoreExtraColumns', '--ignore-extra-columns'],
];

export function syncRequest(flags: SyncFlags): FileSync | PlanSync {
  const concurrency = flags.concurrency === undefined ? DEFAULT_CONCURRENCY : parseInteger(flags.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY });
  const common = { reason: flags.reason, concurrency, waitMs: waitMs(flags.wait) };
  if (flags.file !== undefined && flags.apply !== undefined) {
    throw new UsageError('give either --file FILE (plan from the desired state) or --apply PLAN (a saved plan), not both');
  }
  if (flags.apply !== undefined) {
    const given = PLANNING_FLAGS.filter(([key]) => flags[key] !== undefined).map(([, name]) => name);
    if (given.length > 0) {
      throw new UsageError(`${given.join(', ')} ${given.length === 1 ? 'goes' : 'go'} with --file: a saved plan is applied as it was made (make another with --plan-out)`);
    }
    return { kind: 'apply', plan: flags.apply, ...common };
  }
  if (flags.file === undefined) {
    throw new UsageError('missing --file FILE (the desired state: one row per student and product that should have access) or --apply PLAN; see `members sync --help`');
  }
  if (flags.addOnly && flags.removeOnly) throw new UsageError('--add-only and --remove-only exclude each other (without either, a sync does both)');
  if (flags.addOnly && flags.maxRevoke !== undefined) throw new UsageError('--max-revoke caps revocations, which --add-only never makes');
  const request: FileSync = {
    kind: 'file', file: flags.file, ...common,
    mode: flags.addOnly ? 'add-only' : flags.removeOnly ? 'remove-only' : 'both',
    check: flags.check === true, dryRun: flags.dryRun === true, includeStatusChanges: flags.includeStatusChanges === true,
    ignoreExtra: flags.ignoreExtraColumns === true,
  };
  if (flags.product !== undefined) request.products = flags.product.map((product) => checkProductId(product, '--product'));
  if (flags.maxRevoke !== undefined) request.maxRevoke = parseRevokeCap(flags.maxRevoke);
  if (flags.planOut !== undefined) {
    if (flags.planOut.trim() === '') throw new UsageError('--plan-out needs a file name');
    request.planOut = flags.planOut;
  }
  return request;
}
