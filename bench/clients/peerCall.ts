/**
 * How the peer clients send and retry, through the same undici transport as ours (the shared
 * keep-alive `Pool` of `provider/client/pools.ts`): one GET per attempt, 429s retried after
 * `Retry-After` (a `-1` has no time: jittered backoff), other failures by our own retry policy, so
 * the only difference between the clients is how they pace requests.
 */
import { sharedPool } from "../../provider/client/pools";
import { parseRetryAfter } from "../../provider/limiter/rateLimitHeaders";
import { backoffDelayMs, RETRY_DEFAULTS, type RetryOptions, shouldRetry } from "../../provider/client/retryPolicy";
import { TIMEOUT_DEFAULTS } from "../../provider/client/timeouts";
import type { Scale } from "../scale";
import type { BenchRequest } from "../workloads";

/** Runs one attempt when the peer's pacing allows (`gate`), with the request's cost. */
export type Gate = <T>(cost: number, attempt: () => Promise<T>) => Promise<T>;

/** Most 429s one call retries before giving up (a peer has no other bound on them). */
const MAX_429_RETRIES = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The scaled retry policy shared with ours. */
export function scaledRetry(scale: Scale): RetryOptions {
  return {
    ...RETRY_DEFAULTS,
    baseDelayMs: scale.ms(RETRY_DEFAULTS.baseDelayMs),
    maxDelayMs: scale.ms(RETRY_DEFAULTS.maxDelayMs),
    maxTotalMs: scale.ms(RETRY_DEFAULTS.maxTotalMs),
  };
}

/**
 * A bare `getZone` request (no limiter, no retry) on the shared pool of `baseUrl`'s origin: what a
 * peer sends per attempt, and what the harness times for the round trip (`worker.ts`).
 */
export function bareZoneRequest(baseUrl: string, token: string, request: BenchRequest) {
  const url = new URL(baseUrl);
  const fields = request.fields.length > 0 ? `?fields=${request.fields.join(",")}` : "";
  return {
    pool: sharedPool(url.origin, TIMEOUT_DEFAULTS.connectMs),
    options: {
      path: `${url.pathname.replace(/\/$/, "")}/v2/adex/zones/${request.zoneId}${fields}`,
      method: "GET" as const,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    },
  };
}

/** One `getZone` call as a peer makes it; resolves true on success, false when given up. */
export async function peerCall(baseUrl: string, token: string, request: BenchRequest, scale: Scale, gate: Gate): Promise<boolean> {
  const { pool, options } = bareZoneRequest(baseUrl, token, request);
  const cost = 1 + new Set(request.fields).size;
  const retry = scaledRetry(scale);
  const started = performance.now();
  let rateLimited = 0;
  for (let attempt = 1; ;) {
    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    try {
      ({ status, headers } = await gate(cost, async () => {
        const response = await pool.request(options);
        JSON.parse(await response.body.text());
        return { status: response.statusCode, headers: response.headers };
      }));
    } catch {
      const decision = shouldRetry(
        { kind: "network", mayHaveReachedServer: true },
        { attempt, elapsedMs: performance.now() - started, method: "GET", idempotent: true },
        retry,
      );
      if (!decision.retry) return false;
      attempt += 1;
      await sleep(decision.delayMs);
      continue;
    }
    if (status >= 200 && status < 300) return true;
    const retryAfter = parseRetryAfter(headers);
    if (status === 429) {
      rateLimited += 1;
      if (rateLimited > MAX_429_RETRIES) return false;
      await sleep(retryAfter?.kind === "delay" ? retryAfter.ms : backoffDelayMs(Math.min(rateLimited, 6), retry));
      continue;
    }
    const decision = shouldRetry(
      { kind: "status", status, ...(retryAfter ? { retryAfter } : {}) },
      { attempt, elapsedMs: performance.now() - started, method: "GET", idempotent: true },
      retry,
    );
    if (!decision.retry) return false;
    attempt += 1;
    await sleep(decision.delayMs);
  }
}

/** Runs every request at once through `gate`; counts the ones given up. */
export async function runPeer(
  baseUrl: string,
  token: string,
  requests: readonly BenchRequest[],
  scale: Scale,
  gate: Gate,
): Promise<{ failures: number }> {
  const results = await Promise.all(requests.map((r) => peerCall(baseUrl, token, r, scale, gate)));
  return { failures: results.filter((ok) => !ok).length };
}
