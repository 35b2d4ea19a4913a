/**
 * Peer (ii): Bottleneck configured for class C the way its README suggests for two limits: a
 * reservoir of 10 refreshed every burst window, chained to a reservoir of 150 refreshed every
 * steady window, each job weighted by its cost, and at most 8 in flight (the documented default
 * in-flight limit of the simulator; the platform's is not shown, spec Limits 6). Retries 429s after
 * `Retry-After`, re-entering the limiters.
 *
 * With a limits URL (machines sharing one Redis), both limiters use Bottleneck's own clustering, as
 * its README describes for limits shared across machines: `datastore: "ioredis"` on that Redis and
 * an `id` per limiter derived from the account, the same in every process, so the processes of the
 * account share one burst and one steady reservoir and one `maxConcurrent`.
 */
import Bottleneck from "bottleneck";
import { shareOf } from "../bound";
import { scaleOf } from "../scale";
import { runPeer } from "./peerCall";
import type { PreparedClient, WorkerConfig } from "./types";

/** Bottleneck's default heartbeat (how often it checks the reservoir refresh), platform ms. */
const BOTTLENECK_HEARTBEAT_MS = 250;

/** The limiters are created at `run`, so their refresh intervals start with the workload. */
export function prepareBottleneck(config: WorkerConfig): PreparedClient {
  const scale = scaleOf(config.scaleFactor);
  // A share of the limits: smaller reservoirs (`share`).
  const limits = shareOf(scale.limits, config.share);
  /** Clustered limiters whose Redis connections `close` ends. */
  const clustered: Bottleneck[] = [];
  return {
    async run() {
      // heartbeatInterval is Bottleneck's (untyped) option: scaled like every platform duration.
      const heartbeat = { heartbeatInterval: scale.ms(BOTTLENECK_HEARTBEAT_MS) } as Bottleneck.ConstructorOptions;
      const cluster = (name: string): Bottleneck.ConstructorOptions => {
        if (config.limitsUrl === undefined) return {};
        const { hostname, port } = new URL(config.limitsUrl);
        return {
          id: `adplatform-bench-${config.token}-${name}`,
          datastore: "ioredis",
          clientOptions: { host: hostname, port: Number(port) },
        };
      };
      const steady = new Bottleneck({
        ...heartbeat,
        ...cluster("steady"),
        reservoir: limits.steady,
        reservoirRefreshAmount: limits.steady,
        reservoirRefreshInterval: limits.steadyWindowMs,
      });
      const burst = new Bottleneck({
        ...heartbeat,
        ...cluster("burst"),
        maxConcurrent: 8,
        reservoir: limits.burst,
        reservoirRefreshAmount: limits.burst,
        reservoirRefreshInterval: limits.burstWindowMs,
      });
      burst.chain(steady);
      try {
        return await runPeer(config.baseUrl, config.token, config.requests, scale, (cost, attempt) =>
          burst.schedule({ weight: cost }, attempt),
        );
      } finally {
        await burst.stop({ dropWaitingJobs: true });
        await steady.stop({ dropWaitingJobs: true });
        if (config.limitsUrl !== undefined) clustered.push(burst, steady);
      }
    },
    async close() {
      await Promise.all(clustered.splice(0).map((limiter) => limiter.disconnect()));
    },
  };
}
