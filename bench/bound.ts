/**
 * The physical bound of a workload: the earliest moment the server's fixed windows can have
 * admitted all of its cost (spec, Limits 1-3 and 7). Pure arithmetic on the window lengths.
 */

/** Limits of the class every operation is in (spec, Limits 3: class C). */
export interface WindowLimits {
  readonly burst: number;
  readonly steady: number;
  readonly burstWindowMs: number;
  readonly steadyWindowMs: number;
}

/**
 * Earliest time, ms after the first request, at which `costUnits` can all have been admitted when
 * everything is ready at once: each steady window is filled at `burst` per burst window as soon as
 * it opens (its last burst window opens `(steady / burst - 1)` burst windows after it), and the
 * next steady window opens when the previous one ends. E.g. 300 units at 10/1 s and 150/60 s:
 * 150 in the first minute (burst windows at 0 .. 14 s), the rest from 60 s, the last at 74 s.
 * Assumes cost units pack exactly into burst windows (true for the workloads of this harness).
 */
export function boundMs(costUnits: number, limits: WindowLimits): number {
  if (costUnits <= 0) return 0;
  const fullSteadyWindows = Math.ceil(costUnits / limits.steady) - 1;
  const rest = costUnits - fullSteadyWindows * limits.steady;
  const burstWindows = Math.ceil(rest / limits.burst);
  return fullSteadyWindows * limits.steadyWindowMs + (burstWindows - 1) * limits.burstWindowMs;
}
