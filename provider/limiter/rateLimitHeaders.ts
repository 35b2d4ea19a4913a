/** Reading the rate-limit headers of a response (spec, Limits 5 and 6). */

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
  readonly limit: number;
  readonly remaining: number;
  /** Until the window refreshes, ms (the header is in seconds; fractions accepted). */
  readonly resetMs?: number;
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
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

// Decision (not shown in spec): `X-RateLimit-Reset` is seconds until the refresh (spec, Limits 5), but well-known APIs
// send its Unix time. No 1 s or 60 s window is a billion seconds from refreshing, so 1e9 or more is a Unix time (one
// past is ignored); the model cuts what remains to the window's length.
/** A `X-RateLimit-Reset` at least this large is a Unix time, in seconds. */
export const UNIX_TIME_RESET_FROM_S = 1e9;

/** `Retry-After`: seconds (fractions, for scaled simulators), `-1` (spec, Limits 6) or an HTTP date (RFC 9110, not the spec's). */
export function parseRetryAfter(headers: ResponseHeaders, nowMs: number = Date.now()): RetryAfter | undefined {
  const raw = headerValue(headers, "retry-after");
  if (raw === undefined || raw.trim() === "") return undefined;
  if (NUMBER.test(raw)) {
    const seconds = numberOf(raw);
    if (seconds === -1) return { kind: "concurrency" };
    // Any other negative number is not in the spec: no time given.
    return seconds === undefined || seconds < 0 ? undefined : { kind: "delay", ms: Math.ceil(seconds * 1000) };
  }
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return { kind: "delay", ms: Math.max(0, date - nowMs) };
}

/** `X-RateLimit-Limit/Remaining/Reset`, when limit and remaining are numbers; `nowMs` dates a Reset sent as a Unix time. */
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
