/**
 * One rate limiter per account per process (spec, Authentication 3: limits apply per account; two limiters would each
 * spend the budget as if alone), made by the first caller's settings. Their state is shared down the fallback ladder
 * (`../infrastructure/fallbackLadder.ts`): Redis at the limits URL, the machine's file store, this process's memory.
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

/** The ladder from Redis at `url` (when set) down; its clock is the server's on every rung (a step down keeps the last). */
export function sharedStoreFor(url: string | undefined): LimiterStore {
  const rungs = machineRungs();
  const time = url !== undefined && isRedisUrl(url) ? new ServerTime() : undefined;
  if (url !== undefined && time === undefined) warnUnusable(url, `it is none of the forms a limits URL takes: ${REDIS_URL_FORMS}`);
  // A failure makes the URL away for the limiter and the journal together (`redis.ts`); once it answers, the store is made anew.
  if (url !== undefined && time !== undefined)
    rungs.unshift({
      make: () => new RedisLimiterStore(url, time),
      giveUp: (error) => sharedRedis(url).giveUp(error),
      back: () => sharedRedis(url).answers(),
    });
  return { ...carriedOnLadder(new FallbackLadder(rungs)), ...(time ? { clock: time.clock } : {}) };
}

/**
 * The ladder's stores as one, carrying what this process decided when it changes place (down, or back up to a Redis
 * maybe restarted empty): the first decision there gets the found state merged with its last (`carriedState`).
 */
export function carriedOnLadder(ladder: FallbackLadder<LimiterStore>): LimiterStore {
  const placeOf = new Map<string, LimiterStore>();
  const last = new Map<string, LimiterState>();
  /** The watches, each moved to the place in use. */
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
        const stored = store.update(name, (found) => (next = decide(moved ? carriedState(found, last.get(name), by) : found)), by);
        if (stored === undefined) return kept();
        return stored.then(kept);
      }),
  };
}

/**
 * The account's limiter, made with the first caller's `options` (no `limitsUrl`: the environment's). Unless
 * `shareAcrossProcesses` is false, one on the process clock shares through `sharedStoreFor` on the store's clock (else
 * `epochClock`); one on an injected clock (tests) shares only through a given `sharedStore`.
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
