/** The pure retry policy, rule by rule. */
import {
  type AttemptFailure,
  ENV_RETRY_BUDGET_MS,
  RETRY_DEFAULTS,
  type RetryState,
  backoffDelayMs,
  rateLimitJitterMs,
  resolveRetryOptions,
  shouldRetry,
} from "../../../provider/client";
import { type RetryAfter, parseRateLimitInfo, parseRetryAfter } from "../../../provider/limiter";

const GET: RetryState = { attempt: 1, elapsedMs: 0, method: "GET", idempotent: true };
const PATCH: RetryState = { attempt: 1, elapsedMs: 0, method: "PATCH", idempotent: true };
const POST: RetryState = { attempt: 1, elapsedMs: 0, method: "POST", idempotent: false };
const half = () => 0.5;
const zero = () => 0;
const almostOne = () => 0.999999;

const status = (code: number, retryAfter?: RetryAfter): AttemptFailure => ({
  kind: "status",
  status: code,
  ...(retryAfter ? { retryAfter } : {}),
});

describe("retry policy", () => {
  it("retries a 429 after Retry-After, for every method", () => {
    for (const state of [GET, PATCH, POST]) {
      const decision = shouldRetry(
        status(429, { kind: "delay", ms: 3_000 }),
        { ...state, rateLimited: 1, rateLimitedInARow: 1 },
        RETRY_DEFAULTS,
        zero,
      );
      expect(decision).toMatchObject({ retry: true, delayMs: 3_000 });
    }
  });

  it("backs off with jitter on Retry-After: -1, a POST included (nothing was carried out)", () => {
    const decision = shouldRetry(
      status(429, { kind: "concurrency" }),
      { ...POST, rateLimited: 1, rateLimitedInARow: 1 },
      RETRY_DEFAULTS,
      half,
    );
    expect(decision).toMatchObject({ retry: true });
    if (!decision.retry) throw new Error("expected a retry");
    expect(decision.delayMs).toBe(backoffDelayMs(1, RETRY_DEFAULTS, half));
  });

  it("never gives up on a 429 for its count, in either form or without Retry-After, while the time budget lasts", () => {
    const options = { ...RETRY_DEFAULTS, maxAttempts: 2 };
    const forms: AttemptFailure[] = [status(429, { kind: "delay", ms: 1_000 }), status(429, { kind: "concurrency" }), status(429)];
    for (const failure of forms) {
      for (const state of [GET, POST]) {
        // Fifty sends, every one refused: none was worked on, so none is an attempt.
        const storm = { ...state, attempt: 50, rateLimited: 50, rateLimitedInARow: 50, elapsedMs: 60_000 };
        expect(shouldRetry(failure, storm, options, half)).toMatchObject({ retry: true });
        // Even after the attempts the server worked on are spent, a 429 was still not worked on.
        expect(shouldRetry(failure, { ...storm, attempt: 52 }, options, half)).toMatchObject({ retry: true });
      }
    }
  });

  it("counts only the sends the server worked on against maxAttempts, and says how many were refused with 429", () => {
    const options = { ...RETRY_DEFAULTS, maxAttempts: 2 };
    expect(shouldRetry(status(500), { ...GET, attempt: 2 }, options, half)).toEqual({ retry: false, reason: "gave up after 2 attempts" });
    // Ten sends: eight refused with 429, two answered 500.
    expect(shouldRetry(status(500), { ...GET, attempt: 9, rateLimited: 8 }, options, half).retry).toBe(true);
    expect(shouldRetry(status(500), { ...GET, attempt: 10, rateLimited: 8 }, options, half)).toEqual({
      retry: false,
      reason: "gave up after 2 attempts and 8 sends refused with 429",
    });
  });

  it("ends a 429 storm by the time budget, with an error that names the settings to raise", () => {
    const options = { ...RETRY_DEFAULTS, maxTotalMs: 10_000 };
    const storm = { ...POST, attempt: 12, rateLimited: 12, rateLimitedInARow: 12, elapsedMs: 9_500 };
    const decision = shouldRetry(status(429, { kind: "delay", ms: 1_000 }), storm, options, zero);
    expect(decision.retry).toBe(false);
    expect(decision.reason).toBe(
      "the retry budget of 10000 ms from the first send ran out (12 sends refused with 429; the next retry would wait 1000 ms); " +
        "set ADPLATFORM_RETRY_BUDGET_MS or retryOptions.maxTotalMs to wait longer",
    );
    const mixed = shouldRetry(status(429, { kind: "concurrency" }), { ...storm, attempt: 14 }, options, zero);
    expect(mixed.reason).toContain("(2 attempts and 12 sends refused with 429;");
    // The same storm earlier in the budget is ridden out.
    expect(shouldRetry(status(429, { kind: "delay", ms: 1_000 }), { ...storm, elapsedMs: 8_000 }, options, zero).retry).toBe(true);
  });

  it("adds a random wait inside the burst window to Retry-After, wider the more 429s in a row, never past the window", () => {
    const options = { ...RETRY_DEFAULTS, jitterWindowMs: 1_000 };
    expect(rateLimitJitterMs(1, options, almostOne)).toBe(250);
    expect(rateLimitJitterMs(2, options, almostOne)).toBe(500);
    expect(rateLimitJitterMs(3, options, almostOne)).toBe(1_000);
    expect(rateLimitJitterMs(40, options, almostOne)).toBe(1_000);
    expect(rateLimitJitterMs(40, options, zero)).toBe(0);
    const after = (inARow: number, random: () => number) => {
      const decision = shouldRetry(
        status(429, { kind: "delay", ms: 2_000 }),
        { ...GET, attempt: inARow, rateLimited: inARow, rateLimitedInARow: inARow },
        options,
        random,
      );
      if (!decision.retry) throw new Error("expected a retry");
      return decision.delayMs;
    };
    // Never before the server's Retry-After; two calls refused together with different draws come back apart.
    expect(after(1, zero)).toBe(2_000);
    expect(after(1, half)).toBe(2_125);
    expect(after(3, half)).toBe(2_500);
    expect(after(3, almostOne)).toBe(3_000);
  });

  it("backs off from Retry-After: -1 by the 429s in a row, not by earlier attempts", () => {
    const refused = status(429, { kind: "concurrency" });
    const delayOf = (state: Parameters<typeof shouldRetry>[1]) => {
      const decision = shouldRetry(refused, state, RETRY_DEFAULTS, half);
      if (!decision.retry) throw new Error("expected a retry");
      return decision.delayMs;
    };
    // Three 500s, then a first refusal: the first step of the backoff.
    expect(delayOf({ ...GET, attempt: 4, rateLimited: 1, rateLimitedInARow: 1 })).toBe(backoffDelayMs(1, RETRY_DEFAULTS, half));
    // Refused four times in a row: the fourth step, and capped however long the run.
    expect(delayOf({ ...GET, attempt: 4, rateLimited: 4, rateLimitedInARow: 4 })).toBe(backoffDelayMs(4, RETRY_DEFAULTS, half));
    expect(delayOf({ ...GET, attempt: 400, rateLimited: 400, rateLimitedInARow: 400 })).toBe(backoffDelayMs(400, RETRY_DEFAULTS, half));
    expect(backoffDelayMs(2_000, RETRY_DEFAULTS, half)).toBe(15_000);
  });

  it("takes the budget from ADPLATFORM_RETRY_BUDGET_MS unless the code sets maxTotalMs", () => {
    expect(ENV_RETRY_BUDGET_MS).toBe("ADPLATFORM_RETRY_BUDGET_MS");
    expect(resolveRetryOptions({}, {}).maxTotalMs).toBe(600_000);
    expect(resolveRetryOptions({}, { ADPLATFORM_RETRY_BUDGET_MS: " 900000 " }).maxTotalMs).toBe(900_000);
    expect(resolveRetryOptions({ maxTotalMs: 5_000 }, { ADPLATFORM_RETRY_BUDGET_MS: "900000" }).maxTotalMs).toBe(5_000);
    for (const bad of ["", "0", "-1", "10m", "1.5"]) {
      expect(resolveRetryOptions({}, { ADPLATFORM_RETRY_BUDGET_MS: bad }).maxTotalMs).toBe(600_000);
    }
  });

  it("retries GET and PATCH through 500s but never a POST", () => {
    expect(shouldRetry(status(500), GET, RETRY_DEFAULTS, half).retry).toBe(true);
    expect(shouldRetry(status(503), PATCH, RETRY_DEFAULTS, half).retry).toBe(true);
    expect(shouldRetry(status(500), POST, RETRY_DEFAULTS, half)).toMatchObject({ retry: false });
  });

  it("does not retry a 5xx that is not transient", () => {
    expect(shouldRetry(status(501), GET, RETRY_DEFAULTS, half).retry).toBe(false);
  });

  it("waits at least Retry-After on a 503 that gives one", () => {
    const decision = shouldRetry(status(503, { kind: "delay", ms: 9_000 }), GET, RETRY_DEFAULTS, half);
    expect(decision).toMatchObject({ retry: true, delayMs: 9_000 });
  });

  it("retries a POST only when the connection failed before sending", () => {
    const refused: AttemptFailure = { kind: "network", mayHaveReachedServer: false };
    const reset: AttemptFailure = { kind: "network", mayHaveReachedServer: true };
    expect(shouldRetry(refused, POST, RETRY_DEFAULTS, half).retry).toBe(true);
    expect(shouldRetry(reset, POST, RETRY_DEFAULTS, half).retry).toBe(false);
    expect(shouldRetry(reset, GET, RETRY_DEFAULTS, half).retry).toBe(true);
  });

  it("retries a damaged body for idempotent operations only", () => {
    expect(shouldRetry({ kind: "malformed" }, GET, RETRY_DEFAULTS, half).retry).toBe(true);
    expect(shouldRetry({ kind: "malformed" }, POST, RETRY_DEFAULTS, half).retry).toBe(false);
    expect(shouldRetry({ kind: "unusable" }, GET, RETRY_DEFAULTS, half).retry).toBe(false);
  });

  it("never retries a 4xx other than 429", () => {
    for (const code of [400, 401, 403, 404, 409]) {
      expect(shouldRetry(status(code), GET, RETRY_DEFAULTS, half).retry).toBe(false);
    }
  });

  it("stops after maxAttempts", () => {
    const last = { ...GET, attempt: RETRY_DEFAULTS.maxAttempts };
    expect(shouldRetry(status(500), last, RETRY_DEFAULTS, half)).toMatchObject({ retry: false });
    expect(shouldRetry(status(500), { ...last, attempt: last.attempt - 1 }, RETRY_DEFAULTS, half).retry).toBe(true);
  });

  it("stops when the retry would start after maxTotalMs", () => {
    const late = { ...GET, elapsedMs: RETRY_DEFAULTS.maxTotalMs - 1_000 };
    expect(shouldRetry(status(429, { kind: "delay", ms: 2_000 }), late, RETRY_DEFAULTS, zero).retry).toBe(false);
    expect(shouldRetry(status(429, { kind: "delay", ms: 500 }), late, RETRY_DEFAULTS, zero).retry).toBe(true);
    expect(shouldRetry(status(503), { ...GET, elapsedMs: RETRY_DEFAULTS.maxTotalMs }, RETRY_DEFAULTS, half).retry).toBe(false);
  });

  it("backs off exponentially with equal jitter, capped at maxDelayMs", () => {
    const options = { ...RETRY_DEFAULTS, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffDelayMs(1, options, () => 0)).toBe(50);
    expect(backoffDelayMs(1, options, () => 0.999999)).toBe(100);
    expect(backoffDelayMs(3, options, () => 0)).toBe(200);
    expect(backoffDelayMs(10, options, () => 0.999999)).toBe(1_000);
    expect(backoffDelayMs(10, options, () => 0)).toBe(500);
  });

  it("reads Retry-After as seconds, -1 or an HTTP date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter({ "retry-after": "2" }, now)).toEqual({ kind: "delay", ms: 2_000 });
    expect(parseRetryAfter({ "retry-after": "0.25" }, now)).toEqual({ kind: "delay", ms: 250 });
    expect(parseRetryAfter({ "retry-after": "-1" }, now)).toEqual({ kind: "concurrency" });
    expect(parseRetryAfter({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }, now)).toEqual({ kind: "delay", ms: 5_000 });
    expect(parseRetryAfter({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
  });

  it("reads X-RateLimit-Reset to the digit it was sent with (a whole-ms rounding would move scaled window ends)", () => {
    const headers = { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "3", "x-ratelimit-reset": "0.024732" };
    expect(parseRateLimitInfo(headers)?.resetMs).toBeCloseTo(24.732, 9);
    expect(parseRateLimitInfo({ ...headers, "x-ratelimit-reset": "59" })).toEqual({ limit: 10, remaining: 3, resetMs: 59_000 });
  });

  it("reads an X-RateLimit-Reset of a billion seconds or more as a Unix time, and ignores one already past", () => {
    const headers = { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0" };
    const now = 1_764_012_345_000 - 30_000;
    expect(parseRateLimitInfo({ ...headers, "x-ratelimit-reset": "1764012345" }, now)).toEqual({
      limit: 10,
      remaining: 0,
      resetMs: 30_000,
    });
    expect(parseRateLimitInfo({ ...headers, "x-ratelimit-reset": "1764012345" }, now + 60_000)).toEqual({ limit: 10, remaining: 0 });
  });

  it("reads a number too long to be finite as no number, in Retry-After and X-RateLimit-*", () => {
    const huge = "9".repeat(400);
    expect(parseRetryAfter({ "retry-after": huge })).toBeUndefined();
    expect(parseRateLimitInfo({ "x-ratelimit-limit": huge, "x-ratelimit-remaining": "3" })).toBeUndefined();
    expect(parseRateLimitInfo({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "3", "x-ratelimit-reset": huge })).toEqual({
      limit: 10,
      remaining: 3,
    });
  });
});
