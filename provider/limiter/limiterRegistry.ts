/**
 * One rate limiter per account per process: spec, Authentication 3, limits apply per account, so
 * every call with the same token against the same platform must draw from the same budget, and
 * two limiters on one account in one process would each spend it as if alone.
 *
 * Where the account's limiters share their state with other processes: the fallback ladder
 * (`../infrastructure/fallbackLadder.ts`) of Redis at the limits URL (across machines), the
 * machine's file store, and this process's memory, with one warning at each step down.
 *
 * The limiters are a per-process cache keyed by account, not configuration: the first caller's
 * settings make an account's limiter, and later callers on the account share it.
 */
import { resolveSettings } from "../configuration";
import {
  FallbackLadder,
  type Rung,
  isRedisUrl,
  REDIS_URL_FORMS,
  sharedRedis,
  warnUnusable,
  warnOnceAbout,
  epochClock,
} from "../infrastructure";
import { type LimiterOptions, RateLimiter } from "./limiter";
import { carriedState, type LimiterState } from "./limiterState";
import { FileLimiterStore, type LimiterStore, MemoryLimiterStore, sharedStateDirectory, sharedStateName } from "./limiterStores";
import { RedisLimiterStore, ServerTime } from "./redisLimiterStore";

const limiters = new Map<string, RateLimiter>();

/** The machine's file store, then this process's memory when the limits directory cannot be used. */
function machineRungs(): Rung<LimiterStore>[] {
  const directory = sharedStateDirectory();
  return [
    {
      make: () => new FileLimiterStore(directory),
      giveUp: (error) =>
        warnOnceAbout(
          directory,
          `adplatform: rate limits are not shared with this machine's other processes: the limits directory ` +
            `${directory} cannot be used: ${error instanceof Error ? error.message : String(error)}. Limiting within this process only; ` +
            `the deployment goes on. Remove that directory if you did not make it, or set ADPLATFORM_LIMITS_DIR to a directory of your own (mode 0700).`,
        ),
    },
    { make: () => new MemoryLimiterStore() },
  ];
}

/**
 * The store the account's limiters share: the ladder from Redis at `url` (when one is set) down.
 * Its clock is the Redis server's, on every rung: a process that steps down to the machine's file
 * keeps the last time Redis gave it.
 */
export function sharedStoreFor(url: string | undefined): LimiterStore {
  const rungs = machineRungs();
  let time: ServerTime | undefined;
  if (url !== undefined && !isRedisUrl(url)) {
    warnUnusable(url, `it is none of the forms a limits URL takes: ${REDIS_URL_FORMS}`);
  } else if (url !== undefined) {
    // A failure makes the URL away for the limiter and the journal together, and warns (`redis.ts`);
    // once it answers again, the store is made anew and reads the account's shared state afresh.
    const redis = () => sharedRedis(url);
    time = new ServerTime();
    const serverTime = time;
    rungs.unshift({
      make: () => new RedisLimiterStore(url, serverTime),
      giveUp: (error) => redis().giveUp(error),
      back: () => redis().answers(),
    });
  }
  return { ...carriedOnLadder(new FallbackLadder(rungs)), ...(time ? { clock: time.clock } : {}) };
}

/**
 * The stores of `ladder` as one, carrying what this process decided when it changes place: the
 * first decision of an account on a place it did not decide on last (a step down, or back up to a
 * Redis that may have restarted empty) is handed the state found there merged with the last one
 * this process decided (`carriedState`), so a window this process knows full stays full wherever
 * the state is kept, and its tickets in flight keep their slots.
 */
export function carriedOnLadder(ladder: FallbackLadder<LimiterStore>): LimiterStore {
  const placeOf = new Map<string, LimiterStore>();
  const last = new Map<string, LimiterState>();
  /** The watches, each moved to the place in use whenever it changes. */
  const watches = new Set<(place: LimiterStore) => void>();
  return {
    watch: (name, by, heard) => {
      let on: LimiterStore | undefined;
      let end = () => undefined as void;
      const follow = (place: LimiterStore) => {
        if (place === on) return;
        end();
        on = place;
        end = place.watch?.(name, by, heard) ?? (() => undefined);
      };
      follow(ladder.place);
      watches.add(follow);
      return () => {
        watches.delete(follow);
        end();
      };
    },
    update: (name, decide, by) =>
      ladder.run((store) => {
        for (const follow of watches) follow(store);
        const moved = placeOf.has(name) && placeOf.get(name) !== store;
        placeOf.set(name, store);
        let next: LimiterState | undefined;
        // Only a decision the place kept is carried: one whose write failed is taken again below.
        const kept = () => void (next !== undefined && last.set(name, next));
        const stored = store.update(name, (found) => (next = decide(moved ? carriedState(found, last.get(name)) : found)), by);
        if (stored === undefined) return kept();
        return stored.then(kept);
      }),
  };
}

/**
 * The account's limiter, created with `options` on first use; later calls get the same instance
 * (the first caller configures the account). Without a limits URL, the environment's applies.
 *
 * Unless `options.shareAcrossProcesses` is false, a limiter on the process clock shares its state
 * through `sharedStoreFor` and reads time from the store's clock (Redis's), else `epochClock`, so the
 * processes and machines agree on it. A limiter
 * on an injected clock (tests) shares only when given a `sharedStore`.
 */
export function sharedLimiter(
  key: string,
  options: Partial<LimiterOptions> = {},
  limitsUrl: string | undefined = resolveSettings([]).limitsUrl,
): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    const share = options.shareAcrossProcesses !== false && options.clock === undefined && options.sharedStore === undefined;
    const stateName = sharedStateName(key);
    const store = share ? sharedStoreFor(limitsUrl) : undefined;
    limiter = new RateLimiter(
      store ? { ...options, clock: store.clock ?? epochClock, sharedStore: store, stateName } : { stateName, ...options },
    );
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Forgets every limiter (tests; a new client after this starts with fresh windows). */
export function resetLimiters(): void {
  limiters.clear();
}
