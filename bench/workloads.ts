/**
 * The workloads of the benchmark (bench/README.md, "What it runs"): what each process requests, how
 * the simulator is set up, and how many cost units the server must count (the input of the physical
 * bound).
 */
import { SEED_IDS } from "../simulator/fixtures/seedIds";

/** One request: `getZone` (op 13), with `fields` subresources (spec, Limits 7: 1 + one each). */
export interface BenchRequest {
  readonly zoneId: string;
  readonly fields: readonly string[];
}

/**
 * Where the processes of a workload keep the account's limiter state: `machine`, one machine (the
 * state file every process of it shares); `none`, each process a machine of its own (its own limits
 * directory, as CI runners share nothing); `redis`, each process a machine of its own that shares
 * the account's limits through one Redis (`ADPLATFORM_LIMITS_URL` for ours, Bottleneck's clustering
 * for Bottleneck).
 */
export type Sharing = "machine" | "none" | "redis";

/** What a workload must show, checked against our client's result and put in the JSON. */
export interface Targets {
  /** Largest ratio to the bound. */
  readonly maxRatio?: number;
  /** Window 429s allowed (in-flight refusals count apart). */
  readonly maxWindow429s?: number;
  /** Calls given up allowed. */
  readonly maxFailures: number;
  /** Peers our client must finish ahead of; within `TIE_SHARE` of a peer's time counts as a tie, which counts. */
  readonly aheadOf?: readonly ("naive" | "bottleneck")[];
  /** Peers our client must draw fewer window 429s than. */
  readonly fewerWindow429sThan?: readonly ("naive" | "bottleneck")[];
}

/** How much slower than a peer still counts as a tie with it: 0.5%, below the runs' noise. */
export const TIE_SHARE = 0.005;

/** One workload. */
export interface Workload {
  readonly name: string;
  readonly description: string;
  /** OS processes that run `requests` each, at once, on one account. */
  readonly processes: number;
  /** What each process requests, all issued at once. */
  readonly requests: readonly BenchRequest[];
  /** Simultaneous requests the server allows per account (spec, Limits 6). */
  readonly maxInFlight: number;
  /** Share of requests the server answers 500 (counted against the windows, see apiHandler). */
  readonly errorRate: number;
  /**
   * Platform ms the server takes to serve each admitted request (the simulator's `delayMs`, scaled
   * by the run): a slow server, during which the request holds one of the `maxInFlight` slots.
   */
  readonly serviceDelayMs: number;
  /** Cost units of the requests themselves (every process), without retries. */
  readonly requestUnits: number;
  /**
   * Cost units the server must count for every request to succeed: the requests' cost, and with
   * injected 500s the expected extra attempts (cost / (1 - errorRate)), rounded up.
   */
  readonly costUnits: number;
  /** How the processes share the limiter state. */
  readonly sharing: Sharing;
  /** What the workload must show, when it has a target. */
  readonly targets?: Targets;
  /** The `rateLimitShare` the clients keep to (our limiter's share; Bottleneck's reservoirs); none: the whole limit. */
  readonly share?: number;
  /** A neighbour on the account that is no client under test: one plain read every this many platform ms, never retried. */
  readonly neighbourEveryMs?: number;
}

const ZONES = Object.values(SEED_IDS.zones);

/** `n` plain reads, spread over the seeded zones. */
function plain(n: number): BenchRequest[] {
  return Array.from({ length: n }, (_, i) => ({ zoneId: ZONES[i % ZONES.length]!, fields: [] }));
}

/**
 * `groups` times [3, 1, 1, 1]: a zone with `account` and `creator` (3 calls, spec Limits 7) then
 * three plain reads. 6 units a group; in FIFO order they pack whole burst windows (3+1+1+1+3+1).
 */
function mixed(groups: number): BenchRequest[] {
  const out: BenchRequest[] = [];
  for (let i = 0; i < groups; i++) {
    out.push({ zoneId: ZONES[i % ZONES.length]!, fields: ["account", "creator"] });
    out.push(...plain(3));
  }
  return out;
}

function costOf(requests: readonly BenchRequest[]): number {
  return requests.reduce((sum, r) => sum + 1 + new Set(r.fields).size, 0);
}

function workload(
  w: Omit<Workload, "costUnits" | "requestUnits" | "maxInFlight" | "errorRate" | "serviceDelayMs" | "sharing"> & Partial<Workload>,
): Workload {
  const maxInFlight = w.maxInFlight ?? 8;
  const errorRate = w.errorRate ?? 0;
  const serviceDelayMs = w.serviceDelayMs ?? 0;
  const requestUnits = w.processes * costOf(w.requests);
  return {
    sharing: "machine",
    ...w,
    maxInFlight,
    errorRate,
    serviceDelayMs,
    requestUnits,
    costUnits: Math.ceil(requestUnits / (1 - errorRate)),
  };
}

/** Every workload, in run order. */
export const WORKLOADS: readonly Workload[] = [
  workload({ name: "a-300-at-once", description: "300 GETs issued at once", processes: 1, requests: plain(300) }),
  workload({ name: "a-1000-at-once", description: "1,000 GETs issued at once", processes: 1, requests: plain(1000) }),
  workload({
    name: "b-fields-mix",
    description: "200 GETs, a quarter with fields=account,creator (cost 3): 300 units",
    processes: 1,
    requests: mixed(50),
  }),
  workload({
    name: "c-two-processes",
    description: "two OS processes, 150 GETs each, one account",
    processes: 2,
    requests: plain(150),
    targets: { maxFailures: 0, aheadOf: ["naive", "bottleneck"] },
  }),
  // Decision (benchmark): a server that takes 1 platform second per request (25 ms scaled) with 2
  // in flight serves 2 per second, below the steady window's 2.5 per second: the in-flight limit,
  // not the windows, sets the bound (bound.ts), and a client that keeps fewer than 2 in flight, or
  // loses slots to -1 refusals and their backoff, shows it in the ratio.
  workload({
    name: "d-in-flight-2",
    description: "300 GETs, server allows 2 in flight and takes 1 s (scaled) per request",
    processes: 1,
    requests: plain(300),
    maxInFlight: 2,
    serviceDelayMs: 1000,
  }),
  workload({
    name: "e-5pct-500s",
    description: "250 GETs, 5% answered 500 (retried)",
    processes: 1,
    requests: plain(250),
    errorRate: 0.05,
  }),
  workload({
    name: "f-four-machines-alone",
    description: "four machines, 75 GETs each, one account, sharing nothing",
    processes: 4,
    requests: plain(75),
    sharing: "none",
    targets: { maxFailures: 0, aheadOf: ["naive", "bottleneck"], fewerWindow429sThan: ["naive", "bottleneck"] },
  }),
  workload({
    name: "g-four-machines-redis",
    description: "four machines, 75 GETs each, one account, sharing limits through one Redis",
    processes: 4,
    requests: plain(75),
    sharing: "redis",
    targets: { maxRatio: 1.05, maxWindow429s: 0, maxFailures: 0, aheadOf: ["naive", "bottleneck"] },
  }),
  // A deploy that leaves the account's other half to a neighbour reading once a second (60 per
  // minute, within the 75 the share of 0.5 leaves): every 429 of the account counts, the
  // neighbour's too, and the bound is the share's (150 at 5 per second and 75 per minute).
  workload({
    name: "h-share-with-neighbour",
    description: "150 GETs at rateLimitShare 0.5 while a neighbour reads once a second on the account",
    processes: 1,
    requests: plain(150),
    share: 0.5,
    neighbourEveryMs: 1000,
    targets: { maxWindow429s: 0, maxFailures: 0, fewerWindow429sThan: ["naive"] },
  }),
];
