/**
 * One rate limiter per account per process: spec, Authentication 3, limits apply per account, so
 * every call with the same token against the same platform must draw from the same budget, and
 * two limiters on one account in one process would each spend it as if alone.
 */
import { epochClock } from "./clock";
import { FileLimiterStore, sharedStatePathForKey } from "./fileLimiterStore";
import { type LimiterOptions, RateLimiter } from "./limiter";

const limiters = new Map<string, RateLimiter>();

/**
 * The account's limiter, created with `options` on first use. Later calls get the same instance;
 * their options are ignored (the first caller configures the account).
 *
 * Unless `options.shareAcrossProcesses` is false, a limiter on the process clock shares its windows
 * with every process of this machine on the same account, through the account's state file (see
 * `fileLimiterStore.ts`), and reads time from `epochClock` so the processes agree on it. A limiter
 * on an injected clock (tests) shares only when given a `sharedStore`.
 */
export function sharedLimiter(key: string, options: Partial<LimiterOptions> = {}): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    const share = options.shareAcrossProcesses !== false && options.clock === undefined && options.sharedStore === undefined;
    limiter = new RateLimiter(
      share ? { ...options, clock: epochClock, sharedStore: new FileLimiterStore(sharedStatePathForKey(key)) } : options,
    );
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Forgets every limiter (tests; a new client after this starts with fresh windows). */
export function resetLimiters(): void {
  limiters.clear();
}
