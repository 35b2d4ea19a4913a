/**
 * The physical bound of a workload: the earliest moment the server's fixed windows can have
 * admitted all of its cost (spec, Limits 1-3 and 7). Pure arithmetic on the window lengths.
 */

import type { Scale } from "./scale";
import type { Workload } from "./workloads";

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

/** `limits` at a share of them (the `rateLimitShare` model's room: at least 1 per window). */
export function shareOf(limits: WindowLimits, share = 1): WindowLimits {
  const room = (limit: number) => Math.max(1, Math.floor(limit * share));
  return { ...limits, burst: room(limits.burst), steady: room(limits.steady) };
}

/**
 * Earliest time, ms, at which a slow server with an in-flight limit can have answered `requests`:
 * each request holds one of `maxInFlight` slots for `serviceDelayMs`, and a client that is never
 * refused learns that a slot is free only from its answer, so the next request in that slot reaches
 * the server one round trip later. At best they are served in `ceil(requests / maxInFlight)`
 * back-to-back rounds:
 *
 *     inFlightBound = ceil(N / maxInFlight) × (serviceDelay + roundTrip)
 *
 * `roundTripMs` is measured by the harness: the quickest the workload's own request took alone,
 * end to end, less the service delay (`worker.ts`), so it holds the trip both ways and the
 * server's own handling of the request (authentication, routing, windows, the record, the JSON),
 * which every round pays whatever the client does. 0 gives the bound without it.
 */
export function inFlightBoundMs(requests: number, maxInFlight: number, serviceDelayMs: number, roundTripMs = 0): number {
  return Math.ceil(requests / maxInFlight) * (serviceDelayMs + roundTripMs);
}

/**
 * A workload's bound, ms (scaled):
 *
 *     bound = max(windowBound(costUnits), ceil(N / maxInFlight) × (serviceDelay + roundTrip))
 *
 * Both are lower bounds, so their maximum is one. It is exact when one of them alone binds: the
 * windows (no service delay), or the in-flight limit when it serves fewer requests per steady
 * window than the window admits (`maxInFlight / serviceDelay <= steady / steadyWindow`, as in
 * workload d: 2 per platform second against 2.5); between the two it would be optimistic, and no
 * workload sits there. The round trip matters only to the in-flight bound: window boundaries are
 * known ahead (`X-RateLimit-Reset`), a freed slot only from its answer.
 */
export function workloadBoundMs(workload: Workload, scale: Scale, roundTripMs = 0): number {
  const requests = workload.processes * workload.requests.length;
  return Math.max(
    boundMs(workload.costUnits, shareOf(scale.limits, workload.share)),
    workload.serviceDelayMs > 0 ? inFlightBoundMs(requests, workload.maxInFlight, scale.ms(workload.serviceDelayMs), roundTripMs) : 0,
  );
}
