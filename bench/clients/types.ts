/** What a benchmark worker process is told, and what a client under test must provide. */
import type { BenchRequest } from "../workloads";

/** Clients compared by the benchmark. */
export const CLIENT_NAMES = ["ours", "naive", "bottleneck"] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/** A worker's whole configuration (passed as JSON on its command line). */
export interface WorkerConfig {
  readonly client: ClientName;
  readonly baseUrl: string;
  readonly token: string;
  readonly requests: readonly BenchRequest[];
  /** Scale factor of every platform duration (see `scale.ts`). */
  readonly scaleFactor: number;
  /**
   * Token of an account of this worker's own, on which it runs `WARM_UP_REQUESTS` through the same
   * kind of client before it says `ready` (see `worker.ts`).
   */
  readonly warmUpToken?: string;
  /** The simulator's service delay per request, ms (scaled); 0 when the workload has none. */
  readonly serviceDelayMs: number;
  /**
   * A Redis URL the worker shares the account's limits through (workloads whose machines share
   * one Redis): our limiter's store, and Bottleneck's cluster datastore.
   */
  readonly limitsUrl?: string;
  /** The share of the account's limits to keep to (`Workload.share`). */
  readonly share?: number;
}

/** A client set up and ready to go: `run` issues every request at once. */
export interface PreparedClient {
  /** Resolves once every request succeeded or was given up; `failures` counts the given up. */
  run(): Promise<{ failures: number }>;
  /**
   * Lets what the client still writes to a shared store land before the process exits (its last
   * release, say), so the machines still running never wait on a process that is gone.
   */
  close?(): Promise<void>;
}
