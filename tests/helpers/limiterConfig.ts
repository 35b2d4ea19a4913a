/**
 * The limiter model's configuration at the platform's windows, as the client builds it by default
 * (the catalog's rate classes, a 1 s burst and a 60 s steady window, an in-flight cap from 4 within
 * 1..8, the whole limit), for tests that hand `decide` or a store a state of their own.
 */
import { RATE_CLASSES } from "../../provider/catalog/rateClasses";
import type { ModelConfig } from "../../provider/limiter/limiterModel";

export const REAL_WINDOWS: ModelConfig = {
  classes: RATE_CLASSES,
  burstWindowMs: 1_000,
  steadyWindowMs: 60_000,
  guardMs: 10,
  concurrency: { initial: 4, min: 1, max: 8 },
  share: 1,
};

/** `REAL_WINDOWS` with another in-flight cap. */
export const withCap = (initial: number, max = initial): ModelConfig => ({ ...REAL_WINDOWS, concurrency: { initial, min: 1, max } });
