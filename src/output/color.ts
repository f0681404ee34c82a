import type { Io } from '../lib/io.js';
import { inCi } from '../lib/ci.js';

/**
 * Contract §1.1 and the common conventions (no-color.org, bixense.com/clicolors):
 * colour only on a terminal whose TERM is not `dumb`; never with `--no-color`,
 * `NO_COLOR` (set and not empty) or `CLICOLOR=0`; `FORCE_COLOR` or
 * `CLICOLOR_FORCE` (not `0`) force it, except `FORCE_COLOR=0` or `false`,
 * which turn it off as in chalk.
 */
export function colorEnabled(isTTY: boolean, env: Io['env'], colorFlag: boolean): boolean {
  if (!colorFlag || env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.CLICOLOR_FORCE && env.CLICOLOR_FORCE !== '0') return true;
  if (env.CLICOLOR === '0' || env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * Whether stderr may animate (spinners, progress bars): a terminal of some
 * width that can move its cursor, not `--quiet`, not in CI (logs keep every
 * frame), not `MEMBERS_NO_SPINNER` (screen readers read every frame aloud).
 * Spinners also want stdout on a terminal: `list --all | grep` shows none.
 */
export function animationEnabled(io: Pick<Io, 'stderr' | 'env'> & { stdout?: { isTTY?: boolean } }, quiet: boolean, kind: 'spinner' | 'progress'): boolean {
  const { stderr, env } = io;
  if (quiet || stderr.isTTY !== true || !(Number(stderr.columns) > 0)) return false;
  if (env.TERM === 'dumb' || inCi(env) || (env.MEMBERS_NO_SPINNER ?? '') !== '') return false;
  return kind === 'progress' || io.stdout?.isTTY === true;
}
