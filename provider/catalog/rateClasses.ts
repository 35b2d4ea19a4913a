/** Rate classes of the spec (spec, Limits 2), per account and per fixed window. */
import type { CostRule, RateClass, RateClassName } from "./types";

export const RATE_CLASSES: Readonly<Record<RateClassName, RateClass>> = {
  A: { burst: 1, steady: 15 },
  B: { burst: 3, steady: 60 },
  C: { burst: 10, steady: 150 },
  D: { burst: 75, steady: 700 },
  E: { burst: 350, steady: 3500 },
};

/** Window lengths on the platform (spec, Limits 1). Tests and benchmarks scale them. */
export const BURST_WINDOW_MS = 1_000;
export const STEADY_WINDOW_MS = 60_000;

export const costOne: CostRule = () => 1;

/** spec, Limits 7: each subresource in `fields` adds one call (`fields=account,creator` costs 3); a duplicate counts once. */
export const costWithFields: CostRule = ({ fields }) => 1 + new Set(fields).size;
