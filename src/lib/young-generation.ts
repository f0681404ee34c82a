/**
 * V8 doubles its young generation (where new objects start) whenever the
 * objects surviving a collection outgrow it: 1, 2, 4, 8, 16, then 32 MiB on
 * Node 20. A list streamed a page at a time gains nothing from the last two
 * doublings (a million-row report takes the same time at 8, 16 or 32 MiB),
 * and they cost 25 MiB of RSS for the rest of the run (issue 16: 108 -> 83
 * MiB). So while the young generation is 8 MiB or more, the real process
 * tells V8 not to grow it (V8 reads the flag at each growth: Node 20 to 24),
 * and lets it grow again once V8 has shrunk it (its memory reducer does,
 * after a few idle seconds: a long Retry-After). Short commands never get
 * that far.
 *
 * A V8 flag is part of what a code cache is checked against: bin/members.js
 * calls `release` before it writes one, or no fresh start could use it.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HOLD_AT_BYTES = 8 * 2 ** 20;
/** V8's default (`node --v8-options`, Node 20 to 24). */
const GROWTH = '--semi-space-growth-factor=2';
const NO_GROWTH = '--semi-space-growth-factor=1';

export interface V8Heap {
  getHeapSpaceStatistics: typeof getHeapSpaceStatistics;
  setFlagsFromString: typeof setFlagsFromString;
}

export interface YoungGenerationHold {
  /** At each page of a streamed list. */
  check(): void;
  /** V8's default back, if the hold changed it. */
  release(): void;
}

export function youngGenerationHold(v8: V8Heap = { getHeapSpaceStatistics, setFlagsFromString }): YoungGenerationHold {
  let held = false;
  const set = (hold: boolean) => {
    v8.setFlagsFromString(hold ? NO_GROWTH : GROWTH);
    held = hold;
  };
  return {
    check() {
      const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      if (young === undefined) return;
      const big = young.space_size >= HOLD_AT_BYTES;
      if (big !== held) set(big);
    },
    release() {
      if (held) set(false);
    },
  };
}
