/**
 * The client's retry policy: one pure function that decides whether a failed attempt is tried
 * again and after how long (after stripe-node's `RequestSender._shouldRetry`), plus the jittered
 * exponential backoff it uses. No I/O, no clock, randomness injected: unit-testable.
 *
 * Every retry re-enters the rate limiter before it is sent, so the delays here are minimums: the
 * limiter may hold a retry longer to keep it inside the windows.
 */
import { BURST_WINDOW_MS } from "../catalog";
import type { HttpMethod } from "../catalog";
import type { RetryAfter } from "../limiter";

/** Tunables of the policy. Defaults in `RETRY_DEFAULTS`. */
export interface RetryOptions {
  /**
   * Sends per call that the server worked on (answered 5xx, failed on the network, damaged body),
   * the first included. A send answered 429 is not one, in either form: the server refused it
   * before doing any work (spec, Limits 4 and 6), so only `maxTotalMs` bounds those.
   */
  readonly maxAttempts: number;
  /** Backoff of the first retry before jitter, in ms; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Cap of one backoff, in ms. */
  readonly maxDelayMs: number;
  /**
   * The retry budget: no retry is scheduled that would start later than this after the first
   * attempt was sent, in ms. The only bound on 429s. Time queued in the rate limiter before the
   * first attempt does not count. `ADPLATFORM_RETRY_BUDGET_MS` sets it where no code can.
   */
  readonly maxTotalMs: number;
  /**
   * Longest random wait added to a `Retry-After` of seconds, in ms, once a call has been refused
   * three times in a row (less before, see `rateLimitJitterMs`). The client sets it to its
   * limiter's burst window.
   */
  readonly jitterWindowMs: number;
}

/** Every default in one place, with units. */
export const RETRY_DEFAULTS: RetryOptions = Object.freeze({
  maxAttempts: 5, // sends per call that reached the server's work, the first included
  baseDelayMs: 250, // 0.25 s
  maxDelayMs: 20_000, // 20 s
  // Decision (not shown in spec): 10 min. Another machine on the account, which this process cannot
  // see, may hold its windows for minutes: two deploys of 300 requests each need 4 minutes of the
  // account's 150 per minute (spec, Limits 2 and 3), and a call of either may wait through most of
  // that. Ten steady windows (spec, Limits 1) are room for that and for a third machine, while a
  // platform that refuses everything still fails a deploy in minutes, not hours.
  maxTotalMs: 600_000,
  // The burst window (spec, Limits 1): retries spread over it find free slots of the windows it opens.
  jitterWindowMs: BURST_WINDOW_MS, // 1 s
});

/**
 * Environment variable giving `maxTotalMs`, in ms. It reaches the client where no code can pass
 * options: the dynamic-provider plugin process started by the Pulumi CLI. Explicit
 * `retryOptions.maxTotalMs` wins over it.
 */
export const ENV_RETRY_BUDGET_MS = "ADPLATFORM_RETRY_BUDGET_MS";

/**
 * The retry options in force: `defaults`, then `ADPLATFORM_RETRY_BUDGET_MS` for `maxTotalMs`
 * (ignored unless a positive integer), then the explicit options.
 */
export function resolveRetryOptions(
  explicit: Partial<RetryOptions> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
  defaults: RetryOptions = RETRY_DEFAULTS,
): RetryOptions {
  const raw = env[ENV_RETRY_BUDGET_MS]?.trim();
  const fromEnv = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? { maxTotalMs: Number(raw) } : {};
  return { ...defaults, ...fromEnv, ...explicit };
}

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
  /** Number of the send that just failed, from 1 (sends answered 429 included). */
  readonly attempt: number;
  /** Of those sends, how many were answered 429, either form (this one included); default 0. */
  readonly rateLimited?: number;
  /**
   * How many of the latest sends in a row were answered 429 (this one included); default 0. Any
   * other answer starts the run again.
   */
  readonly rateLimitedInARow?: number;
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
export function backoffDelayMs(attempt: number, options: RetryOptions = RETRY_DEFAULTS, random: () => number = Math.random): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * The random wait added to a `Retry-After` of seconds, in ms: up to a quarter of
 * `jitterWindowMs` after the first 429 in a row, half after the second, the whole window from the
 * third on.
 *
 * Why: every client refused in one window is told the same `Retry-After`, the end of that window.
 * Another machine on the account shares nothing with this one, so its limiter pauses until the same
 * instant; woken together, the faster one would take the new window's slots every time and the
 * other's calls would starve. A random wait inside the burst window breaks the lockstep, and the
 * calls refused again and again spread widest, so no call keeps losing the same race. The spread
 * stays within the window: waiting longer would skip windows without helping to win one.
 *
 * @param inARow the 429s in a row this call has had, from 1.
 * @param random returns a number in [0, 1).
 */
export function rateLimitJitterMs(inARow: number, options: RetryOptions = RETRY_DEFAULTS, random: () => number = Math.random): number {
  const spread = options.jitterWindowMs * Math.min(1, 2 ** (Math.max(1, inARow) - 3));
  return Math.round(random() * spread);
}

/** `n thing` or `n things`. */
function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
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
  const rateLimited = state.rateLimited ?? 0;
  const worked = state.attempt - rateLimited;
  const refusedToo = rateLimited > 0 ? ` and ${count(rateLimited, "send")} refused with 429` : "";
  // Bounded attempts: never more than `maxAttempts` sends the server worked on for one call. A 429
  // is never one of them: it was refused before any work, so it is bounded by the time budget alone.
  if (!isRateLimited(failure) && worked >= options.maxAttempts) {
    return { retry: false, reason: `gave up after ${count(worked, "attempt")}${refusedToo}` };
  }
  const decision = decide(failure, state, worked, options, random);
  // Bounded total time: a retry that would start after `maxTotalMs` is not scheduled.
  if (decision.retry && state.elapsedMs + decision.delayMs > options.maxTotalMs) {
    const sends = [worked > 0 ? count(worked, "attempt") : "", rateLimited > 0 ? `${count(rateLimited, "send")} refused with 429` : ""]
      .filter(Boolean)
      .join(" and ");
    return {
      retry: false,
      reason:
        `the retry budget of ${options.maxTotalMs} ms from the first send ran out (${sends}; the next retry would wait ` +
        `${decision.delayMs} ms); set ${ENV_RETRY_BUDGET_MS} or retryOptions.maxTotalMs to wait longer`,
    };
  }
  return decision;
}

/** A 429 of either form: refused before the server did any work. */
function isRateLimited(failure: AttemptFailure): boolean {
  return failure.kind === "status" && failure.status === 429;
}

function decide(failure: AttemptFailure, state: RetryState, worked: number, options: RetryOptions, random: () => number): RetryDecision {
  if (failure.kind === "status" && failure.status === 429) {
    // spec, Limits 4: a 429 was refused by the limiter, not processed, so any method may repeat it.
    // Its waits grow with the 429s in a row, not with the sends: the contention seen is what they
    // adapt to, and a 5xx before them says nothing about it.
    const inARow = Math.max(1, state.rateLimitedInARow ?? 1);
    if (failure.retryAfter?.kind === "delay") {
      // Honour `Retry-After` seconds, then re-enter the limiter (which counts the refusing window
      // full until its end, so other calls do not walk into the same 429), plus a random wait inside
      // the burst window so clients refused together do not come back together. (A refusal about a
      // window within the steady one re-enters the limiter at once instead: `apiClient.ts`.)
      const wait = failure.retryAfter.ms;
      const jitter = rateLimitJitterMs(inARow, options, random);
      return {
        retry: true,
        delayMs: wait + jitter,
        reason: `429, Retry-After ${wait} ms (+${jitter} ms jitter, ${count(inARow, "429")} in a row)`,
      };
    }
    const backoff = backoffDelayMs(inARow, options, random);
    if (failure.retryAfter?.kind === "concurrency") {
      // spec, Limits 6: `Retry-After: -1` = too many in flight and no time given. The limiter lowers
      // its concurrency cap when it sees the answer; here, back off with jitter so the retries do
      // not arrive together.
      return { retry: true, delayMs: backoff, reason: "429, Retry-After -1 (too many in flight)" };
    }
    // A 429 without Retry-After: back off with jitter; the limiter keeps the retry inside the windows.
    return { retry: true, delayMs: backoff, reason: "429 without Retry-After" };
  }

  const backoff = backoffDelayMs(worked, options, random);

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
