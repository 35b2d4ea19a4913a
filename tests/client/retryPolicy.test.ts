/** The pure retry policy, rule by rule. */
import {
  type AttemptFailure,
  RETRY_DEFAULTS,
  type RetryAfter,
  type RetryState,
  backoffDelayMs,
  parseRateLimitInfo,
  parseRetryAfter,
  shouldRetry,
} from "../../provider/client";

const GET: RetryState = { attempt: 1, elapsedMs: 0, method: "GET", idempotent: true };
const PATCH: RetryState = { attempt: 1, elapsedMs: 0, method: "PATCH", idempotent: true };
const POST: RetryState = { attempt: 1, elapsedMs: 0, method: "POST", idempotent: false };
const half = () => 0.5;

const status = (code: number, retryAfter?: RetryAfter): AttemptFailure => ({
  kind: "status",
  status: code,
  ...(retryAfter ? { retryAfter } : {}),
});

describe("retry policy", () => {
  it("retries a 429 after Retry-After, for every method", () => {
    for (const state of [GET, PATCH, POST]) {
      const decision = shouldRetry(status(429, { kind: "delay", ms: 3_000 }), state, RETRY_DEFAULTS, half);
      expect(decision).toMatchObject({ retry: true, delayMs: 3_000 });
    }
  });

  it("backs off with jitter on Retry-After: -1, a POST included (nothing was carried out)", () => {
    const decision = shouldRetry(status(429, { kind: "concurrency" }), POST, RETRY_DEFAULTS, half);
    expect(decision).toMatchObject({ retry: true });
    if (!decision.retry) throw new Error("expected a retry");
    expect(decision.delayMs).toBe(backoffDelayMs(1, RETRY_DEFAULTS, half));
  });

  it("does not count a send refused with Retry-After: -1 as an attempt, but bounds such refusals on their own", () => {
    const refused = status(429, { kind: "concurrency" });
    const options = { ...RETRY_DEFAULTS, maxAttempts: 2, maxInFlightRefusals: 3 };
    // Send 3 failed: two of the three were refused for too many in flight, one worked and failed.
    expect(shouldRetry(refused, { ...GET, attempt: 3, inFlightRefusals: 2 }, options, half).retry).toBe(true);
    // Without the refusals, that many sends would have been spent.
    expect(shouldRetry(refused, { ...GET, attempt: 3 }, options, half).retry).toBe(false);
    // The refusals alone run out.
    expect(shouldRetry(refused, { ...GET, attempt: 4, inFlightRefusals: 3 }, options, half)).toMatchObject({ retry: false });
    // Two sends that reached the server's work still end the call.
    expect(shouldRetry(status(500), { ...GET, attempt: 4, inFlightRefusals: 2 }, options, half).retry).toBe(false);
  });

  it("says how many sends the server worked on and how many it refused for too many in flight", () => {
    const options = { ...RETRY_DEFAULTS, maxAttempts: 2, maxInFlightRefusals: 3 };
    expect(shouldRetry(status(500), { ...GET, attempt: 2 }, options, half).reason).toBe("gave up after 2 attempts");
    expect(shouldRetry(status(500), { ...GET, attempt: 4, inFlightRefusals: 2 }, options, half).reason).toBe(
      "gave up after 2 attempts and 2 refused for too many requests in flight",
    );
    const refused = status(429, { kind: "concurrency" });
    expect(shouldRetry(refused, { ...GET, attempt: 3, inFlightRefusals: 3 }, options, half).reason).toBe(
      "gave up after 3 sends refused for too many requests in flight",
    );
    expect(shouldRetry(refused, { ...GET, attempt: 4, inFlightRefusals: 3 }, options, half).reason).toBe(
      "gave up after 3 sends refused for too many requests in flight and 1 attempt",
    );
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
    expect(shouldRetry(status(429, { kind: "delay", ms: 2_000 }), late, RETRY_DEFAULTS, half).retry).toBe(false);
    expect(shouldRetry(status(429, { kind: "delay", ms: 500 }), late, RETRY_DEFAULTS, half).retry).toBe(true);
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
});
