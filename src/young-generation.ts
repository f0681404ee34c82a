/**
 * V8 doubles its young generation (where new objects start) whenever the
 * objects surviving a collection outgrow it: 1, 2, 4, 8, 16, then 32 MiB on
 * Node 20. A list streamed a page at a time gains nothing from the last two
 * doublings (a million-row report takes the same time at 8, 16 or 32 MiB),
 * and they cost 25 MiB of RSS for the rest of the run (issue 16: 108 -> 83
 * MiB). So once the young generation is 8 MiB, the real process tells V8 to
 * stop growing it. V8 reads the flag at each growth, so it works at run time
 * (Node 20 to 24); it shrinks nothing, and short commands never get that far.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HOLD_AT_BYTES = 8 * 2 ** 20;

export interface V8Heap {
  getHeapSpaceStatistics: typeof getHeapSpaceStatistics;
  setFlagsFromString: typeof setFlagsFromString;
}

/** A check to run at each page of a streamed list; once it has held the young generation it does nothing. */
export function youngGenerationHold(v8: V8Heap = { getHeapSpaceStatistics, setFlagsFromString }): () => void {
  let held = false;
  return () => {
    if (held) return;
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (young === undefined || young.space_size < HOLD_AT_BYTES) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    held = true;
  };
}
