/**
 * One rate limiter per account per process: spec, Authentication 3, limits apply per account, so
 * every call with the same token against the same platform must draw from the same budget, and
 * two limiters on one account in one process would each spend it as if alone.
 *
 * Where the limiters of an account share it with other processes: a Redis server when the caller's
 * settings name a limits URL, shared across machines; otherwise, and whenever that Redis cannot be
 * used, the machine's state file; and when the state file's directory cannot be used (not private
 * to this user, or not writable), this process's memory, with one warning each time a place is
 * given up (`./fallbackWarnings`).
 *
 * The limiters are a per-process cache keyed by account, not configuration: the first caller's
 * settings make an account's limiter, and later callers on the account share it.
 */
import { resolveSettings } from "../configuration/settings";
import { epochClock } from "./clock";
import { FallbackLimiterStore } from "./fallbackLimiterStore";
import { warnOnceAbout } from "./fallbackWarnings";
import { FileLimiterStore, sharedStateDirectory, sharedStateName, sharedStatePathForKey } from "./fileLimiterStore";
import { type LimiterOptions, RateLimiter } from "./limiter";
import type { LimiterStore } from "./limiterStore";
import { MemoryLimiterStore } from "./memoryLimiterStore";
import { isRedisUrl } from "./redisConnection";
import { RedisLimiterStore } from "./redisLimiterStore";
import { sharedRedis, warnUnusable } from "./sharedRedis";

const limiters = new Map<string, RateLimiter>();

/** Warns once per process per directory that the state files in `directory` are not used, and why. */
function warnProcessOnly(directory: string, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  warnOnceAbout(
    directory,
    `adplatform: rate limits are not shared with this machine's other processes: the limits directory ` +
      `${directory} cannot be used: ${reason}. Limiting within this process only; the deployment goes on. ` +
      `Remove that directory if you did not make it, or set ADPLATFORM_LIMITS_DIR to a directory of your own (mode 0700).`,
  );
}

/**
 * The machine's state file of the account, falling back to this process's memory (with one
 * warning) when its directory cannot be used: pacing one process beats failing every call.
 */
function machineStoreFor(key: string): LimiterStore {
  const directory = sharedStateDirectory();
  return new FallbackLimiterStore(
    new FileLimiterStore(sharedStatePathForKey(key, directory)),
    () => new MemoryLimiterStore(),
    (error) => warnProcessOnly(directory, error),
  );
}

/**
 * The store the account's limiters share: Redis at the limits URL, falling back to the machine's
 * state file (with one warning) when that Redis is unusable; the state file when no URL is set
 * (`machineStoreFor`, itself falling back to this process's memory).
 */
export function sharedStoreFor(key: string, url: string | undefined): LimiterStore {
  const local = () => machineStoreFor(key);
  if (url === undefined) return local();
  if (!isRedisUrl(url)) {
    warnUnusable(url, "it is not a redis:// or rediss:// URL with a host (a password must percent-encode / ? # @ and %)");
    return local();
  }
  // A failure already gave the URL up, and warned (`sharedRedis`); one found here is given up likewise.
  return new FallbackLimiterStore(new RedisLimiterStore(url, sharedStateName(key)), local, (error) => sharedRedis(url).giveUp(error));
}

/**
 * The account's limiter, created with `options` on first use. Later calls get the same instance;
 * their options and limits URL are ignored (the first caller configures the account). Without a
 * limits URL, the environment's applies (`ADPLATFORM_LIMITS_URL`), as for any caller without settings.
 *
 * Unless `options.shareAcrossProcesses` is false, a limiter on the process clock shares its windows
 * with every process on the same account, through `sharedStoreFor`, and reads time from
 * `epochClock` so the processes agree on it. A limiter on an injected clock (tests) shares only
 * when given a `sharedStore`.
 */
export function sharedLimiter(
  key: string,
  options: Partial<LimiterOptions> = {},
  limitsUrl: string | undefined = resolveSettings([]).limitsUrl,
): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    const share = options.shareAcrossProcesses !== false && options.clock === undefined && options.sharedStore === undefined;
    limiter = new RateLimiter(share ? { ...options, clock: epochClock, sharedStore: sharedStoreFor(key, limitsUrl) } : options);
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Forgets every limiter (tests; a new client after this starts with fresh windows). */
export function resetLimiters(): void {
  limiters.clear();
}
