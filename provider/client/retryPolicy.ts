/**
 * Whether a failed attempt is tried again and after how long (after stripe-node's `_shouldRetry`): pure,
 * randomness injected. Every retry re-enters the limiter, so these delays are minimums.
 */
import { BURST_WINDOW_MS } from "../catalog";
import type { HttpMethod } from "../catalog";
import type { RetryAfter } from "../limiter";
import { type Env, positiveIntFromEnv } from "./timeouts";

/** Tunables of the policy (`RETRY_DEFAULTS`). */
export interface RetryOptions {
  /** Sends per call the server worked on, the first included; not 429s, refused before any work (spec, Limits 4 and 6). */
  readonly maxAttempts: number;
  /** Backoff of the first retry before jitter, ms; doubles per attempt. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The retry budget, ms from the first send: no retry is scheduled to start later. The only bound on 429s. */
  readonly maxTotalMs: number;
  /** Longest random wait added to a `Retry-After` of seconds, ms (see `rateLimitJitterMs`); the client's limiter's burst window. */
  readonly jitterWindowMs: number;
}

export const RETRY_DEFAULTS: RetryOptions = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  // Decision (not shown in spec): 10 min. Two deploys of 300 requests need 4 minutes of the account's
  // 150 per minute (spec, Limits 1-3); ten steady windows leave room for a third machine, while a
  // platform refusing everything still fails a deploy in minutes.
  maxTotalMs: 600_000,
  // The burst window (spec, Limits 1): retries spread over it find free slots of the windows it opens.
  jitterWindowMs: BURST_WINDOW_MS,
});

/** Sets `maxTotalMs` (ms) where no code can pass options: the plugin process the Pulumi CLI starts. */
export const ENV_RETRY_BUDGET_MS = "ADPLATFORM_RETRY_BUDGET_MS";

/** `defaults`, then `ADPLATFORM_RETRY_BUDGET_MS`, then `explicit`. */
export function resolveRetryOptions(explicit: Partial<RetryOptions> = {}, env: Env = process.env, defaults = RETRY_DEFAULTS): RetryOptions {
  return { ...defaults, ...positiveIntFromEnv(env, ENV_RETRY_BUDGET_MS, "maxTotalMs"), ...explicit };
}

/** How an attempt failed, as the policy needs to know it. */
export type AttemptFailure =
  | { readonly kind: "status"; readonly status: number; readonly retryAfter?: RetryAfter }
  | { readonly kind: "network"; readonly mayHaveReachedServer: boolean }
  /** A success status whose body was damaged (not JSON, e.g. truncated). */
  | { readonly kind: "malformed" }
  /** A response no retry can change: valid JSON of the wrong shape, or over the size cap. */
  | { readonly kind: "unusable" };

/** Where the call stands when an attempt failed. */
export interface RetryState {
  /** The send that just failed, from 1, 429s included. */
  readonly attempt: number;
  /** Of those sends, how many were answered 429 (this one included); default 0. */
  readonly rateLimited?: number;
  /** The latest sends in a row answered 429 (this one included); default 0. */
  readonly rateLimitedInARow?: number;
  /** Since the first send, ms. */
  readonly elapsedMs: number;
  readonly method: HttpMethod;
  /** From the catalog: repeating it has the effect of doing it once (GET, PATCH). */
  readonly idempotent: boolean;
}

export type RetryDecision =
  { readonly retry: false; readonly reason: string } | { readonly retry: true; readonly delayMs: number; readonly reason: string };

/** 5xx statuses of a passing condition; others (501, 505, ...) will not change on retry. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

/** Exponential backoff with "equal jitter" (half fixed, half random): clients that failed together spread out. */
export function backoffDelayMs(attempt: number, options: RetryOptions = RETRY_DEFAULTS, random: () => number = Math.random): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * The random wait added to a `Retry-After` of seconds: up to a quarter of `jitterWindowMs` after the
 * first 429 in a row, half after the second, the whole window from the third on. Every client refused
 * in one window is told the same `Retry-After`; woken together, the faster would take the new window
 * every time. The wait breaks the lockstep; longer than the window would skip windows for nothing.
 */
export function rateLimitJitterMs(inARow: number, options: RetryOptions = RETRY_DEFAULTS, random: () => number = Math.random): number {
  const spread = options.jitterWindowMs * Math.min(1, 2 ** (Math.max(1, inARow) - 3));
  return Math.round(random() * spread);
}

function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
}

/** Decides whether to retry a failed attempt: one rule per `if`, the first that matches decides. */
export function shouldRetry(
  failure: AttemptFailure,
  state: RetryState,
  options: RetryOptions = RETRY_DEFAULTS,
  random: () => number = Math.random,
): RetryDecision {
  const rateLimited = state.rateLimited ?? 0;
  const worked = state.attempt - rateLimited;
  const refused = rateLimited > 0 ? `${count(rateLimited, "send")} refused with 429` : "";
  // At most `maxAttempts` sends the server worked on; a 429 (refused before any work) is bounded by the time budget alone.
  if (!(failure.kind === "status" && failure.status === 429) && worked >= options.maxAttempts) {
    return { retry: false, reason: `gave up after ${count(worked, "attempt")}${refused ? ` and ${refused}` : ""}` };
  }
  const decision = decide(failure, state, worked, options, random);
  if (decision.retry && state.elapsedMs + decision.delayMs > options.maxTotalMs) {
    const sends = [worked > 0 ? count(worked, "attempt") : "", refused].filter(Boolean).join(" and ");
    return {
      retry: false,
      reason:
        `the retry budget of ${options.maxTotalMs} ms from the first send ran out (${sends}; the next retry would wait ` +
        `${decision.delayMs} ms); set ${ENV_RETRY_BUDGET_MS} or retryOptions.maxTotalMs to wait longer`,
    };
  }
  return decision;
}

function decide(failure: AttemptFailure, state: RetryState, worked: number, options: RetryOptions, random: () => number): RetryDecision {
  if (failure.kind === "status" && failure.status === 429) {
    // spec, Limits 4: a 429 was not processed, so any method may repeat it; waits grow with the 429s in a row.
    const inARow = Math.max(1, state.rateLimitedInARow ?? 1);
    if (failure.retryAfter?.kind === "delay") {
      // Honour `Retry-After`, plus the jitter (a window within the steady one re-enters the limiter at once: `apiClient.ts`).
      const wait = failure.retryAfter.ms;
      const jitter = rateLimitJitterMs(inARow, options, random);
      return {
        retry: true,
        delayMs: wait + jitter,
        reason: `429, Retry-After ${wait} ms (+${jitter} ms jitter, ${count(inARow, "429")} in a row)`,
      };
    }
    const backoff = backoffDelayMs(inARow, options, random);
    // spec, Limits 6: `Retry-After: -1` = too many in flight; the limiter lowers its concurrency cap.
    if (failure.retryAfter?.kind === "concurrency")
      return { retry: true, delayMs: backoff, reason: "429, Retry-After -1 (too many in flight)" };
    return { retry: true, delayMs: backoff, reason: "429 without Retry-After" };
  }

  const backoff = backoffDelayMs(worked, options, random);

  if (failure.kind === "status" && failure.status >= 500) {
    if (!TRANSIENT_5XX.has(failure.status)) return { retry: false, reason: `${failure.status} is not transient` };
    // A POST that reached the server may have been carried out: repeating could create a second object.
    if (!state.idempotent) return { retry: false, reason: `${state.method} is not idempotent and reached the server` };
    const delayMs = failure.retryAfter?.kind === "delay" ? Math.max(backoff, failure.retryAfter.ms) : backoff;
    return { retry: true, delayMs, reason: `${failure.status} on an idempotent operation` };
  }

  if (failure.kind === "network") {
    // Nothing was sent (refused, connect timeout): even a POST may repeat.
    if (!failure.mayHaveReachedServer) return { retry: true, delayMs: backoff, reason: "connection failed before sending" };
    if (state.idempotent) return { retry: true, delayMs: backoff, reason: "connection failed after sending (idempotent)" };
    return { retry: false, reason: `${state.method} may have reached the server and is not idempotent` };
  }

  if (failure.kind === "malformed") {
    // A passing fault, but a POST got its success status, so it was carried out: only idempotent ones repeat.
    return state.idempotent
      ? { retry: true, delayMs: backoff, reason: "response body damaged (idempotent)" }
      : { retry: false, reason: `${state.method} succeeded on the server; its damaged response is not repeated` };
  }

  if (failure.kind === "unusable") return { retry: false, reason: "the response will not change on retry" };

  // 400, 401, 403, 404, ...: the request itself is wrong.
  return { retry: false, reason: `${failure.status} is not retryable` };
}
