/**
 * One rate limiter per account per process: spec, Authentication 3, limits apply per account, so
 * every call with the same token against the same platform must draw from the same budget, and
 * two limiters on one account in one process would each spend it as if alone.
 *
 * Where the limiters of an account share it with other processes: a Redis server when a limits URL
 * is set (`adplatform:limitsUrl` stack config, else `ADPLATFORM_LIMITS_URL`), shared across
 * machines; otherwise, and whenever that Redis cannot be used, the machine's state file; and when
 * the state file's directory cannot be used (not private to this user, or not writable), this
 * process's memory, with one warning each time a place is given up.
 */
import { epochClock } from "./clock";
import { ENV_LIMITS_URL } from "./connection";
import { FallbackLimiterStore } from "./fallbackLimiterStore";
import { FileLimiterStore, sharedStateDirectory, sharedStateName, sharedStatePathForKey } from "./fileLimiterStore";
import { type LimiterOptions, RateLimiter } from "./limiter";
import type { LimiterStore } from "./limiterStore";
import { MemoryLimiterStore } from "./memoryLimiterStore";
import { redactText } from "./redact";
import { isRedisUrl, redactRedisUrl, redisUrlSecrets } from "./redisConnection";
import { RedisLimiterStore } from "./redisLimiterStore";

const limiters = new Map<string, RateLimiter>();

/** The limits URL from the stack config of this process, if any (`configureLimitsUrl`). */
let configuredLimitsUrl: string | undefined;

/**
 * Sets the limits URL read from the stack config (`adplatform:limitsUrl`); undefined or empty: the
 * environment's `ADPLATFORM_LIMITS_URL` applies. Limiters made before keep their store.
 */
export function configureLimitsUrl(url: string | undefined): void {
  configuredLimitsUrl = url !== undefined && url.trim() !== "" ? url.trim() : undefined;
}

/** The limits URL in force: the stack config's, else `ADPLATFORM_LIMITS_URL`, else none. */
export function limitsUrl(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const fromEnv = env[ENV_LIMITS_URL]?.trim();
  return configuredLimitsUrl ?? (fromEnv ? fromEnv : undefined);
}

/** Limits URLs and directories already warned about in this process. */
const warned = new Set<string>();

/** Where a warning goes (tests replace it). */
let warnSink: (message: string) => void = (message) => console.warn(message);

/** Replaces the warning sink; returns the previous one (tests). */
export function setLimitsWarningSink(sink: (message: string) => void): (message: string) => void {
  const previous = warnSink;
  warnSink = sink;
  return previous;
}

/**
 * Warns once per process per URL that the Redis at `url` is not used, and why (`reason` holds no
 * credential: see `sharedStoreFor`). Keyed by the URL as given: two URLs may show the same.
 */
function warnLocalOnly(url: string, reason: string): void {
  if (warned.has(url)) return;
  warned.add(url);
  warnSink(
    `warning: adplatform: rate limits are not shared through ${redactRedisUrl(url)} (${ENV_LIMITS_URL} / adplatform:limitsUrl): ` +
      `${reason}. Limiting with this machine's processes only; the deployment goes on.`,
  );
}

/** Warns once per process per directory that the state files in `directory` are not used, and why. */
function warnProcessOnly(directory: string, error: unknown): void {
  if (warned.has(directory)) return;
  warned.add(directory);
  const reason = error instanceof Error ? error.message : String(error);
  warnSink(
    `warning: adplatform: rate limits are not shared with this machine's other processes: the limits directory ` +
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
export function sharedStoreFor(key: string, url: string | undefined = limitsUrl()): LimiterStore {
  const local = () => machineStoreFor(key);
  if (url === undefined) return local();
  if (!isRedisUrl(url)) {
    warnLocalOnly(url, "it is not a redis:// or rediss:// URL with a host (a password must percent-encode / ? # @ and %)");
    return local();
  }
  const redis = new RedisLimiterStore(url, sharedStateName(key));
  // The failure's message is scrubbed of whatever in the URL may be a credential, should it quote it.
  return new FallbackLimiterStore(redis, local, (error) =>
    warnLocalOnly(url, redactText(error instanceof Error ? error.message : String(error), redisUrlSecrets(url))),
  );
}

/**
 * The account's limiter, created with `options` on first use. Later calls get the same instance;
 * their options are ignored (the first caller configures the account).
 *
 * Unless `options.shareAcrossProcesses` is false, a limiter on the process clock shares its windows
 * with every process on the same account, through `sharedStoreFor`, and reads time from
 * `epochClock` so the processes agree on it. A limiter on an injected clock (tests) shares only
 * when given a `sharedStore`.
 */
export function sharedLimiter(key: string, options: Partial<LimiterOptions> = {}): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    const share = options.shareAcrossProcesses !== false && options.clock === undefined && options.sharedStore === undefined;
    limiter = new RateLimiter(share ? { ...options, clock: epochClock, sharedStore: sharedStoreFor(key) } : options);
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Forgets every limiter (tests; a new client after this starts with fresh windows). */
export function resetLimiters(): void {
  limiters.clear();
}
