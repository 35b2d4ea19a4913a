/**
 * One rate limiter per account per process (DESIGN.md, "One rate-limited client per account per
 * process"): spec, Authentication 3, limits apply per account, so every call with the same token
 * against the same platform must draw from the same budget.
 */
import { createHash } from "node:crypto";
import { type LimiterOptions, RateLimiter } from "./limiter";

const limiters = new Map<string, RateLimiter>();

/**
 * Key of an account: SHA-256 of base URL and token. The raw token is never a map key, so it does
 * not show up in heap snapshots of the registry or in debug output of it.
 */
export function accountKey(baseUrl: string, token: string): string {
  return createHash("sha256").update(baseUrl).update("\u0000").update(token).digest("hex");
}

/**
 * The account's limiter, created with `options` on first use. Later calls get the same instance;
 * their options are ignored (the first caller configures the account).
 */
export function sharedLimiter(key: string, options: Partial<LimiterOptions> = {}): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter(options);
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Forgets every limiter (tests; a new client after this starts with fresh windows). */
export function resetLimiters(): void {
  limiters.clear();
}
