/**
 * Milliseconds on a monotonic clock, for durations. Not performance.now():
 * Node builds the global `performance` (eleven modules of perf_hooks, 0.4 ms)
 * the first time a run touches it, and one GET did, for its --verbose timing.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
