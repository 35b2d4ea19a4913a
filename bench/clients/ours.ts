/**
 * The client under test: `getApiClient` with its limiter, windows and backoffs scaled. With a
 * limits URL (machines sharing one Redis) its limiter shares the account's state through a
 * `RedisLimiterStore` whose lease is scaled like the windows, behind the same fallback to the file
 * store that `sharedStoreFor` puts it behind; otherwise the client picks its store as in
 * production (the machine's state file).
 */
import { getApiClient } from "../../provider/client";
import { accountKey } from "../../provider/client/accountKey";
import { epochClock } from "../../provider/client/clock";
import { resolveConnection } from "../../provider/client/connection";
import { FallbackLimiterStore } from "../../provider/client/fallbackLimiterStore";
import { FileLimiterStore, sharedStateName, sharedStatePathForKey } from "../../provider/client/fileLimiterStore";
import { LIMITER_DEFAULTS, type LimiterOptions } from "../../provider/client/limiter";
import { REDIS_STORE_DEFAULTS, RedisLimiterStore } from "../../provider/client/redisLimiterStore";
import { RETRY_DEFAULTS } from "../../provider/client/retryPolicy";
import { type Scale, scaleOf } from "../scale";
import type { PreparedClient, WorkerConfig } from "./types";

/**
 * The limiter's store on the Redis at `url` for the account of `baseUrl` and `token`, with the
 * lease scaled (a process's in-flight entries would otherwise outlast hundreds of scaled windows).
 * The lock and the state's expiry keep their defaults: a lock is held for a round trip, whatever
 * the scale, and no state outlives a run.
 */
function redisStore(url: string, baseUrl: string, token: string, scale: Scale) {
  const connection = resolveConnection({ baseUrl, token });
  const key = accountKey(connection.baseUrl, connection.token);
  const redis = new RedisLimiterStore(url, sharedStateName(key), { leaseMs: scale.ms(REDIS_STORE_DEFAULTS.leaseMs) });
  const store = new FallbackLimiterStore(
    redis,
    () => new FileLimiterStore(sharedStatePathForKey(key)),
    (error) => process.stderr.write(`bench: the Redis limits store failed, limiting locally: ${String(error)}\n`),
  );
  return { redis, store };
}

/** Sets up the shared client of the account; `run` calls `getZone` for every request at once. */
export function prepareOurs(config: WorkerConfig): PreparedClient {
  const scale = scaleOf(config.scaleFactor);
  const shared = config.limitsUrl !== undefined ? redisStore(config.limitsUrl, config.baseUrl, config.token, scale) : undefined;
  const sharing: Partial<LimiterOptions> = shared ? { clock: epochClock, sharedStore: shared.store } : {};
  const client = getApiClient({
    baseUrl: config.baseUrl,
    token: config.token,
    limiterOptions: {
      burstWindowMs: scale.limits.burstWindowMs,
      steadyWindowMs: scale.limits.steadyWindowMs,
      guardMs: scale.ms(LIMITER_DEFAULTS.guardMs),
      ...sharing,
    },
    retryOptions: {
      baseDelayMs: scale.ms(RETRY_DEFAULTS.baseDelayMs),
      maxDelayMs: scale.ms(RETRY_DEFAULTS.maxDelayMs),
      maxTotalMs: scale.ms(RETRY_DEFAULTS.maxTotalMs),
    },
  });
  return {
    async run() {
      const outcomes = await Promise.allSettled(
        config.requests.map((r) =>
          client.call("getZone", { pathParams: { id: r.zoneId }, ...(r.fields.length > 0 ? { fields: r.fields } : {}) }),
        ),
      );
      return { failures: outcomes.filter((o) => o.status === "rejected").length };
    },
    async close() {
      // The last answers' releases are transactions still on their way to Redis (see `flush`).
      if (shared) await shared.redis.flush();
    },
  };
}
