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

/**
 * Parses `Retry-After`: seconds (fractions accepted, so scaled simulators can ask for 0.2 s), `-1`
 * (concurrency, spec Limits 6) or an HTTP date (RFC 9110; not used by the spec, accepted anyway).
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: ResponseHeaders, nowMs: number = Date.now()): RetryAfter | undefined {
  const raw = headerValue(headers, "retry-after");
  if (raw === undefined || raw.trim() === "") return undefined;
  if (NUMBER.test(raw)) {
    const seconds = Number(raw);
    if (seconds === -1) return { kind: "concurrency" };
    // Any other negative number is not in the spec: treat as "no time given".
    if (seconds < 0) return undefined;
    return { kind: "delay", ms: Math.ceil(seconds * 1000) };
  }
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return { kind: "delay", ms: Math.max(0, date - nowMs) };
}

/** Parses `X-RateLimit-Limit/Remaining/Reset`; undefined unless limit and remaining are numbers. */
export function parseRateLimitInfo(headers: ResponseHeaders): RateLimitInfo | undefined {
  const read = (name: string) => {
    const raw = headerValue(headers, name);
    return raw !== undefined && NUMBER.test(raw) ? Number(raw) : undefined;
  };
  const limit = read("x-ratelimit-limit");
  const remaining = read("x-ratelimit-remaining");
  const reset = read("x-ratelimit-reset");
  if (limit === undefined || remaining === undefined || limit <= 0) return undefined;
  return {
    limit,
    remaining: Math.max(0, remaining),
    // Exact, not rounded to whole ms: at scaled windows (tests, bench) a ms is a large share.
    ...(reset !== undefined && reset >= 0 ? { resetMs: reset * 1000 } : {}),
  };
}
