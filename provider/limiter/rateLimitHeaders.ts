/**
 * Reading the rate-limit headers of a response (spec, Limits 5 and 6).
 */

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What a `Retry-After` header asks for. */
export type RetryAfter =
  /** Wait this long, then try again. */
  | { readonly kind: "delay"; readonly ms: number }
  /** spec, Limits 6: `-1` means too many requests in flight; no time can be given. */
  | { readonly kind: "concurrency" };

/** `X-RateLimit-*` of a response that did not hit the limit (spec, Limits 5). */
export interface RateLimitInfo {
  /** Requests permitted in the current window. */
  readonly limit: number;
  /** Estimated requests left in it. */
  readonly remaining: number;
  /** Time until that window refreshes, in ms (the header is in seconds; fractions accepted). */
  readonly resetMs?: number;
}

/** First value of a header. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** The header's number; undefined when absent, not a number, or too long to be finite ("9" × 400). */
function numberOf(raw: string | undefined): number | undefined {
  if (raw === undefined || !NUMBER.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

// Decision (not shown in spec): `X-RateLimit-Reset` is "seconds until the window refreshes" (spec,
// Limits 5), but several well-known APIs send the Unix time of the refresh instead. No count of
// seconds until a 1 s or 60 s window refreshes reaches a billion, so a value of 1e9 or more (Unix
// time 2001-09-09 and later) is read as a Unix time: the seconds left until it; one already past
// says nothing about the window and is ignored. What remains is no longer than the window it
// describes (`RateClassWindows.applyServerReport` clamps it).
/** A `X-RateLimit-Reset` at least this large is a Unix time, in seconds. */
export const UNIX_TIME_RESET_FROM_S = 1e9;

/**
 * Parses `Retry-After`: seconds (fractions accepted, so scaled simulators can ask for 0.2 s), `-1`
 * (concurrency, spec Limits 6) or an HTTP date (RFC 9110; not used by the spec, accepted anyway).
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: ResponseHeaders, nowMs: number = Date.now()): RetryAfter | undefined {
  const raw = headerValue(headers, "retry-after");
  if (raw === undefined || raw.trim() === "") return undefined;
  if (NUMBER.test(raw)) {
    const seconds = numberOf(raw);
    if (seconds === undefined) return undefined;
    if (seconds === -1) return { kind: "concurrency" };
    // Any other negative number is not in the spec: treat as "no time given".
    if (seconds < 0) return undefined;
    return { kind: "delay", ms: Math.ceil(seconds * 1000) };
  }
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return { kind: "delay", ms: Math.max(0, date - nowMs) };
}

/**
 * Parses `X-RateLimit-Limit/Remaining/Reset`; undefined unless limit and remaining are numbers.
 * `nowMs` (Unix epoch ms) dates a `Reset` sent as a Unix time (see `UNIX_TIME_RESET_FROM_S`).
 */
export function parseRateLimitInfo(headers: ResponseHeaders, nowMs: number = Date.now()): RateLimitInfo | undefined {
  const read = (name: string) => numberOf(headerValue(headers, name));
  const limit = read("x-ratelimit-limit");
  const remaining = read("x-ratelimit-remaining");
  const reset = read("x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || limit <= 0) return undefined;
  // Exact, not rounded to whole ms: at scaled windows (tests, bench) a ms is a large share.
  const resetMs = reset === undefined || reset < 0 ? undefined : reset >= UNIX_TIME_RESET_FROM_S ? reset * 1000 - nowMs : reset * 1000;
  return {
    limit,
    remaining: Math.max(0, remaining),
    ...(resetMs !== undefined && resetMs >= 0 ? { resetMs } : {}),
  };
}
