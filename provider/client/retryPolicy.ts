/**
 * The client's retry policy: one pure function that decides whether a failed attempt is tried
 * again and after how long (after stripe-node's `RequestSender._shouldRetry`), plus the jittered
 * exponential backoff it uses. No I/O, no clock, randomness injected: unit-testable.
 *
 * Every retry re-enters the rate limiter before it is sent, so the delays here are minimums: the
 * limiter may hold a retry longer to keep it inside the windows.
 */
import type { HttpMethod } from "../catalog/types";
import type { RetryAfter } from "./rateLimitHeaders";

/** Tunables of the policy. Defaults in `RETRY_DEFAULTS`. */
export interface RetryOptions {
  /**
   * Attempts per call, the first included. A send refused with `Retry-After: -1` is not one: the
   * server refused it before doing any work (spec, Limits 6); those are bounded by
   * `maxInFlightRefusals` and `maxTotalMs` instead.
   */
  readonly maxAttempts: number;
  /** Sends of one call refused with `Retry-After: -1` before it gives up. */
  readonly maxInFlightRefusals: number;
  /** Backoff of the first retry before jitter, in ms; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Cap of one backoff, in ms. */
  readonly maxDelayMs: number;
  /**
   * No retry is scheduled that would start later than this after the first attempt was sent, in ms.
   * Time queued in the rate limiter before the first attempt does not count.
   */
  readonly maxTotalMs: number;
}

/** Every default in one place, with units. */
export const RETRY_DEFAULTS: RetryOptions = Object.freeze({
  maxAttempts: 5, // sends per call that reached the server's work, the first included
  // Decision (not shown in spec, Limits 6): a -1 costs no attempt. While the limiter learns an
  // in-flight limit it is never told, the probes it sends are refused at no cost to the server;
  // counted as attempts, they could use up a call's five before it was ever worked on, and fail it.
  // Refusals get a budget of their own, as small as the attempts': their backoff doubles like any
  // other, so a larger budget would only stretch a real storm towards `maxTotalMs` before failing.
  maxInFlightRefusals: 5, // sends refused with Retry-After -1, per call
  baseDelayMs: 250, // 0.25 s
  maxDelayMs: 20_000, // 20 s
  // 2 min: room for a full steady window (60 s, spec Limits 1) plus backoffs.
  maxTotalMs: 120_000,
});

/** How an attempt failed, as the policy needs to know it. */
export type AttemptFailure =
  /** A response with a non-success status. */
  | { readonly kind: "status"; readonly status: number; readonly retryAfter?: RetryAfter }
  /** No response: refused, reset, timed out. */
  | { readonly kind: "network"; readonly mayHaveReachedServer: boolean }
  /** A success status whose body was damaged (not JSON, e.g. truncated). */
  | { readonly kind: "malformed" }
  /** A response no retry can change: valid JSON of the wrong shape, or over the size cap. */
  | { readonly kind: "unusable" };

/** Where the call stands when an attempt failed. */
export interface RetryState {
  /** Number of the send that just failed, from 1 (refused sends included). */
  readonly attempt: number;
  /** Of those sends, how many were refused with `Retry-After: -1` (this one included); default 0. */
  readonly inFlightRefusals?: number;
  /** Time since the first attempt was sent, in ms. */
  readonly elapsedMs: number;
  readonly method: HttpMethod;
  /** From the catalog: repeating the operation has the same effect as doing it once (GET, PATCH). */
  readonly idempotent: boolean;
}

/** The policy's answer. */
export type RetryDecision =
  | { readonly retry: false; readonly reason: string }
  | {
      readonly retry: true;
      /** Wait at least this long before re-entering the limiter, in ms. */
      readonly delayMs: number;
      readonly reason: string;
    };

/** 5xx statuses that describe a passing condition; others (501, 505, ...) will not change on retry. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

/**
 * Exponential backoff with "equal jitter": half the exponential delay fixed, half random, so
 * clients that failed together spread out but none retries immediately.
 *
 * @param attempt the attempt that just failed, from 1.
 * @param random returns a number in [0, 1).
 */
export function backoffDelayMs(
  attempt: number,
  options: RetryOptions = RETRY_DEFAULTS,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * Decides whether to retry a failed attempt. One rule per `if`, in priority order; the first that
 * matches decides.
 */
export function shouldRetry(
  failure: AttemptFailure,
  state: RetryState,
  options: RetryOptions = RETRY_DEFAULTS,
  random: () => number = Math.random,
): RetryDecision {
  // Bounded attempts: never more than `maxAttempts` sends the server worked on for one call, nor
  // more than `maxInFlightRefusals` it refused for too many in flight.
  const refusals = state.inFlightRefusals ?? 0;
  const worked = state.attempt - refusals;
  const andRefusals = refusals > 0 ? ` and ${refusals} refused for too many requests in flight` : "";
  if (worked >= options.maxAttempts) {
    return { retry: false, reason: `gave up after ${worked} attempt${worked === 1 ? "" : "s"}${andRefusals}` };
  }
  if (refusals >= options.maxInFlightRefusals) {
    const attempts = worked > 0 ? ` and ${worked} attempt${worked === 1 ? "" : "s"}` : "";
    return { retry: false, reason: `gave up after ${refusals} sends refused for too many requests in flight${attempts}` };
  }
  const decision = decide(failure, state, options, random);
  // Bounded total time: a retry that would start after `maxTotalMs` is not scheduled.
  if (decision.retry && state.elapsedMs + decision.delayMs > options.maxTotalMs) {
    return {
      retry: false,
      reason: `a retry in ${decision.delayMs} ms would exceed the ${options.maxTotalMs} ms retry budget`,
    };
  }
  return decision;
}

function decide(
  failure: AttemptFailure,
  state: RetryState,
  options: RetryOptions,
  random: () => number,
): RetryDecision {
  const backoff = backoffDelayMs(state.attempt, options, random);

  if (failure.kind === "status" && failure.status === 429) {
    // spec, Limits 4: a 429 was refused by the limiter, not processed, so any method may repeat it.
    if (failure.retryAfter?.kind === "delay") {
      // Honour `Retry-After` seconds: wait that long, then re-enter the limiter (which pauses the
      // whole account for the same time, so other calls do not walk into the same 429).
      const wait = failure.retryAfter.ms;
      return { retry: true, delayMs: wait, reason: `429, Retry-After ${wait} ms` };
    }
    if (failure.retryAfter?.kind === "concurrency") {
      // spec, Limits 6: `Retry-After: -1` = too many in flight and no time given. The limiter lowers
      // its concurrency cap when it sees the answer; here, back off with jitter so the retries do
      // not arrive together.
      return { retry: true, delayMs: backoff, reason: "429, Retry-After -1 (too many in flight)" };
    }
    // A 429 without Retry-After: back off with jitter; the limiter keeps the retry inside the windows.
    return { retry: true, delayMs: backoff, reason: "429 without Retry-After" };
  }

  if (failure.kind === "status" && failure.status >= 500) {
    if (!TRANSIENT_5XX.has(failure.status)) {
      // 501, 505, ...: the server says it cannot do this at all; repeating changes nothing.
      return { retry: false, reason: `${failure.status} is not transient` };
    }
    if (!state.idempotent) {
      // A POST that reached the server may have been carried out before it failed: repeating it
      // could create a second object. Never retried.
      return { retry: false, reason: `${state.method} is not idempotent and reached the server` };
    }
    // GET and PATCH are idempotent: retry with backoff, or after `Retry-After` when a 503 gives one.
    const delayMs = failure.retryAfter?.kind === "delay" ? Math.max(backoff, failure.retryAfter.ms) : backoff;
    return { retry: true, delayMs, reason: `${failure.status} on an idempotent operation` };
  }

  if (failure.kind === "network") {
    if (!failure.mayHaveReachedServer) {
      // Refused or timed out while connecting: nothing was sent, so even a POST is safe to repeat.
      return { retry: true, delayMs: backoff, reason: "connection failed before sending" };
    }
    if (state.idempotent) {
      // Reset or timed out after sending: GET and PATCH may repeat.
      return { retry: true, delayMs: backoff, reason: "connection failed after sending (idempotent)" };
    }
    // A POST that may have reached the server is never repeated (see the 5xx rule).
    return { retry: false, reason: `${state.method} may have reached the server and is not idempotent` };
  }

  if (failure.kind === "malformed") {
    // A damaged body is a passing fault; but a POST got its success status, so it was carried out:
    // only idempotent operations repeat.
    return state.idempotent
      ? { retry: true, delayMs: backoff, reason: "response body damaged (idempotent)" }
      : { retry: false, reason: `${state.method} succeeded on the server; its damaged response is not repeated` };
  }

  if (failure.kind === "unusable") {
    // Valid JSON of the wrong shape, or a body over the size cap: the same request gets the same answer.
    return { retry: false, reason: "the response will not change on retry" };
  }

  // Any other status (400, 401, 403, 404, ...): the request itself is wrong; repeating changes nothing.
  return { retry: false, reason: `${failure.status} is not retryable` };
}
