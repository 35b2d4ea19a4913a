/**
 * One benchmark process: sets up one client, says `ready`, runs every request at once on `go`,
 * reports `done` with its failures and peak memory, closes the client, and exits. A child of
 * `run.ts`, as the Pulumi program process and the provider plugin process are children of the
 * engine.
 */
import { prepareBottleneck } from "./clients/bottleneck";
import { prepareNaive } from "./clients/naive";
import { bareZoneRequest } from "./clients/peerCall";
import { prepareOurs } from "./clients/ours";
import type { PreparedClient, WorkerConfig } from "./clients/types";

/** Messages between the harness and a worker. */
export type WorkerMessage =
  | { readonly type: "ready"; readonly roundTripMs: number }
  | { readonly type: "go" }
  | {
      readonly type: "done";
      readonly failures: number;
      readonly maxRssKb: number;
      /** CPU time (user and system) this process spent from `go` to `done`, ms. */
      readonly cpuMs: number;
      /** When `go` arrived, ms on the machine's clock (`performance.timeOrigin + now`), for `--debug`. */
      readonly goReceivedAt: number;
      readonly error?: string;
    };

function prepare(config: WorkerConfig): PreparedClient {
  switch (config.client) {
    case "ours":
      return prepareOurs(config);
    case "naive":
      return prepareNaive(config);
    case "bottleneck":
      return prepareBottleneck(config);
  }
}

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

/**
 * Decision (benchmark): before `ready`, each worker runs one burst window's worth of plain reads
 * through the same kind of client on an account of its own. Time is scaled but a cold
 * process's costs are not: its first requests (JIT, new connections, three processes on two cores)
 * take longer to reach the server than a whole scaled burst window (bench/README.md, "History").
 * Warmed up, the run measures how a client paces the windows, which is what the scale preserves.
 * Every client is warmed up the same way; the measured account's windows and the limiter's state
 * for it start fresh.
 */
export const WARM_UP_REQUESTS = 10;

async function warmUp(config: WorkerConfig): Promise<void> {
  if (!config.warmUpToken) return;
  const zoneIds = config.requests.map((r) => r.zoneId);
  const requests = Array.from({ length: WARM_UP_REQUESTS }, (_, i) => ({ zoneId: zoneIds[i % zoneIds.length]!, fields: [] }));
  const client = prepare({ ...config, token: config.warmUpToken, requests });
  await client.run();
  await client.close?.();
}

/** Requests timed for the round trip (the quickest counts). */
const ROUND_TRIP_SAMPLES = 20;

/**
 * The quickest round trip of the workload's own request from this process, ms, without the
 * server's service delay: its first request sent alone, one after another, on this worker's
 * warm-up account over the pool every client uses, timed end to end, less `serviceDelayMs` (the
 * simulator's precise timer is never early, so what is left is the trip both ways and the server's
 * own handling of the request, which no client can avoid in any round). Only workloads with a
 * service delay use it (the in-flight bound, `bound.ts`), and only there is it measured: the delay
 * paces the samples to one per round, far inside the warm-up account's windows; 0 elsewhere.
 */
async function measureRoundTripMs(config: WorkerConfig): Promise<number> {
  const first = config.requests[0];
  if (config.serviceDelayMs <= 0 || !config.warmUpToken || !first) return 0;
  const { pool, options } = bareZoneRequest(config.baseUrl, config.warmUpToken, first);
  let quickest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < ROUND_TRIP_SAMPLES; i++) {
    const started = performance.now();
    const response = await pool.request(options);
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`round-trip sample answered ${response.statusCode}`);
    quickest = Math.min(quickest, performance.now() - started);
  }
  return Math.max(0, quickest - config.serviceDelayMs);
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as WorkerConfig;
  await warmUp(config);
  const client = prepare(config);
  process.once("message", (message: WorkerMessage) => {
    if (message.type !== "go") return;
    const goReceivedAt = performance.timeOrigin + performance.now();
    const cpuAtGo = process.cpuUsage();
    const cpuMs = () => {
      const { user, system } = process.cpuUsage(cpuAtGo);
      return (user + system) / 1000;
    };
    void client
      .run()
      .then(
        ({ failures }) => send({ type: "done", failures, maxRssKb: process.resourceUsage().maxRSS, cpuMs: cpuMs(), goReceivedAt }),
        (error: unknown) =>
          send({
            type: "done",
            failures: config.requests.length,
            maxRssKb: process.resourceUsage().maxRSS,
            cpuMs: cpuMs(),
            goReceivedAt,
            error: String(error),
          }),
      )
      // Exit only once the client's last writes to a shared store have landed: a release cut off
      // by the exit leaves its request unanswered in the account's shared windows, and the machines
      // still running would hold those windows open for an answer that never comes.
      .then(() => client.close?.())
      .finally(() => process.exit(0));
  });
  await send({ type: "ready", roundTripMs: await measureRoundTripMs(config) });
}

void main();
