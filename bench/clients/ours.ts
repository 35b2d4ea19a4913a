/**
 * The client under test: `getApiClient` with its limiter, windows and backoffs scaled. With a
 * limits URL (machines sharing one Redis) its limiter shares the account's state through that
 * Redis, as `ADPLATFORM_LIMITS_URL` sets it up; otherwise the client picks its store as in
 * production (the machine's state file).
 */
import { getApiClient } from "../../provider/client";
import { LIMITER_DEFAULTS } from "../../provider/limiter/limiter";
import { RETRY_DEFAULTS } from "../../provider/client/retryPolicy";
import { scaleOf } from "../scale";
import type { PreparedClient, WorkerConfig } from "./types";

/** Sets up the shared client of the account; `run` calls `getZone` for every request at once. */
export function prepareOurs(config: WorkerConfig): PreparedClient {
  const scale = scaleOf(config.scaleFactor);
  const client = getApiClient({
    baseUrl: config.baseUrl,
    token: config.token,
    limiterOptions: {
      burstWindowMs: scale.limits.burstWindowMs,
      steadyWindowMs: scale.limits.steadyWindowMs,
      guardMs: scale.ms(LIMITER_DEFAULTS.guardMs),
      ...(config.share !== undefined ? { share: config.share } : {}),
    },
    ...(config.limitsUrl !== undefined ? { limitsUrl: config.limitsUrl } : {}),
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
      // The last answers' releases are decisions still on their way to the store (see `flush`).
      await client.limiter.flush();
    },
  };
}
