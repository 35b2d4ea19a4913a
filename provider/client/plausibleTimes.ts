/**
 * How far ahead a time the limiter takes in from outside may lie: a response's `Retry-After` and
 * `X-RateLimit-Reset`, and every time in the state a shared store hands back (written by another
 * process, another machine, an older version, or a hostile neighbour). The spec counts in windows
 * of 1 s and 60 s (spec, Limits 1): nothing it describes makes the account wait longer than a
 * steady window, so a header or a store that says more is read as the most the windows allow. A
 * hostile or broken one can slow the account by that much at a time, never hang it.
 *
 * The bounds live here; the places that take a time in apply them: the limiter's pause
 * (`limiter.ts`), a report's window end (`rateClassWindows.ts`), a shared window (`fixedWindow.ts`),
 * the shared in-flight cap (`inFlightCap.ts`) and Redis leases (`redisLimiterStore.ts`). The clock
 * bounds every timer on its own (`clock.ts`, `timerDelayMs`), so no computed delay can spin.
 */

/**
 * The largest guard around window boundaries, as a share of the burst window (the limiter's
 * `guardMs`). A window ends at most its length plus that guard after it opened.
 */
export const MAX_GUARD_SHARE = 1 / 4;

/** `at`, but no later than `maxAheadMs` after `now`; a time that is not a number reads as that latest. */
export function notAfter(at: number, now: number, maxAheadMs: number): number {
  const latest = now + maxAheadMs;
  return at <= latest ? at : latest;
}

/**
 * How far ahead of now a window of `lengthMs` can end: opened now, its length and the largest guard
 * later. The burst window is the shorter of the two (spec, Limits 1), so a quarter of any window's
 * own length covers the guard.
 */
export function windowReachMs(lengthMs: number): number {
  return lengthMs * (1 + MAX_GUARD_SHARE);
}
