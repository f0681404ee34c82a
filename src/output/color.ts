import type { Io } from '../context.js';

/**
 * Contract §1: colour only on a terminal; never with `--no-color` or
 * `NO_COLOR` (set and not empty, see no-color.org); `FORCE_COLOR` forces it,
 * except `FORCE_COLOR=0` or `false`, which turn it off as in chalk.
 */
export function colorEnabled(isTTY: boolean, env: Io['env'], colorFlag: boolean): boolean {
  if (!colorFlag || env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY;
}
