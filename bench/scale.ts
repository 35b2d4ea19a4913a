/**
 * Time scale of the benchmark: every platform duration (windows, Retry-After unit, backoffs,
 * Bottleneck's heartbeat) is multiplied by one factor, and the limits stay as the spec gives them,
 * so every ratio to the physical bound holds and a measured second reads as `1 / factor` real ones.
 */
import { BURST_WINDOW_MS, STEADY_WINDOW_MS, RATE_CLASSES } from "../provider/catalog/rateClasses";
import type { WindowLimits } from "./bound";

// Decision (benchmark): 1/10 (windows of 100 ms and 6 s). A run of one build differs from the
// next by the machine's scheduling, a few milliseconds at a time, and each of them is measured
// against a burst window: at 1/40 (25 ms) they moved a workload's time between runs by far more
// than the differences worth measuring (bench/README.md, "Noise"). A longer run is the price;
// `--scale` picks a quicker or a longer one.
/** Default scale factor: scaled ms = platform ms × factor. */
export const DEFAULT_SCALE = 1 / 10;

/** Everything time-related a run needs, derived from one factor. */
export interface Scale {
  readonly factor: number;
  readonly limits: WindowLimits;
  /** Unit of the simulator's `Retry-After` (a platform second, scaled). */
  readonly retryAfterUnitMs: number;
  /** Scales a platform duration, ms. */
  ms(platformMs: number): number;
}

/** The scale for `factor`. */
export function scaleOf(factor: number = DEFAULT_SCALE): Scale {
  const ms = (platformMs: number) => platformMs * factor;
  return {
    factor,
    limits: {
      burst: RATE_CLASSES.C.burst,
      steady: RATE_CLASSES.C.steady,
      burstWindowMs: ms(BURST_WINDOW_MS),
      steadyWindowMs: ms(STEADY_WINDOW_MS),
    },
    retryAfterUnitMs: ms(1000),
    ms,
  };
}
