/**
 * A local HTTP server that behaves like the platform for every operation of the catalog: bearer
 * auth, per-account rate limits, the spec's error bodies, fault injection and seeded data.
 * Start it in-process with `startSimulator`, or from a
 * shell with `node bin/simulator/cli.js`.
 */
import type { AddressInfo } from "node:net";
import type { FaultSettings, FaultSettingsInput } from "./faults";
import { resolveOptions, type SimulatorOptions } from "./options";
import type { RequestLog } from "./requestLog";
import { inspectionWarning, type InspectionAccess } from "./inspectionAccess";
import { createSimulatorServer, inspectionAccessOf } from "./server";
import { Simulation, type WindowsReport } from "./simulation";
import type { SimState } from "./state";

export type { SimulatorOptions } from "./options";
export { DEFAULT_OPTIONS, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_BODY_BYTES } from "./options";
export type { AccountConfig } from "./auth";
export type { SimState, WireRecord } from "./state";
export type { RequestLog, OperationLog, LoggedCall, LoggedStatus } from "./requestLog";
export type { WindowsReport } from "./simulation";
export type { WindowReport } from "./rateLimiter";
export { FAULT_KINDS, FaultSettingsSchema, FaultRuleSchema } from "./faults";
export type { FaultKind, FaultRule, FaultSettings, FaultSettingsInput } from "./faults";
export { SEED_IDS, SEED_ACCOUNTS, FIRST_CREATED_ID } from "./fixtures";
export { COLLECTION_RULES } from "./rules";
export { ADMIN_TOKEN_ENV } from "./inspectionAccess";
export type { InspectionAccess } from "./inspectionAccess";

/** A simulator that is listening. Account-taking methods default to `demo`. */
export interface RunningSimulator {
  /** Base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** The options in force, defaults filled in. */
  readonly options: Readonly<SimulatorOptions>;
  /** Who may use `/_sim/*` over HTTP, from the bound address (`inspectionAccess.ts`). */
  readonly inspectionAccess: InspectionAccess;
  /** The start-up warning for a server other machines can reach; undefined on loopback. */
  readonly warning: string | undefined;
  /** Stops listening, releases held requests and closes every connection. */
  close(): Promise<void>;
  /** A deep copy of one account's data, keyed by collection, in wire shape. */
  state(account?: string): SimState;
  /** A deep copy of one account's request log (`anonymous` for requests without a valid token). */
  requests(account?: string): RequestLog;
  /** Rate windows and in-flight counters of one account. */
  windows(account?: string): WindowsReport;
  /** Back to the seeded data, empty logs, fresh windows and the start-up fault settings. */
  reset(): void;
  /** Merges fault settings (a given `rules` replaces the rules); returns the settings in force. */
  setFaults(patch: FaultSettingsInput): FaultSettings;
  /**
   * Removes one record (simulates drift); false when there is none. `parent` narrows the match for
   * ids unique only within their parent, e.g. `{ ab_test_id: "302" }`.
   */
  deleteObject(collection: string, id: string, account?: string, parent?: Record<string, string>): boolean;
}

/** Starts a simulator; resolves once it listens. */
export async function startSimulator(options: Partial<SimulatorOptions> = {}): Promise<RunningSimulator> {
  const resolved = resolveOptions(options);
  const sim = new Simulation(resolved);
  const server = createSimulatorServer(sim);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const access = inspectionAccessOf(server, sim);
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  const demo = "demo";
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    port,
    options: resolved,
    inspectionAccess: access,
    warning: inspectionWarning(access, address),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        sim.faults.releaseAll();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
    state: (account = demo) => sim.store.snapshot(account),
    requests: (account = demo) => sim.log.snapshot(account),
    windows: (account = demo) => sim.windows(account),
    reset: () => sim.reset(),
    setFaults: (patch) => sim.faults.update(patch),
    deleteObject: (collection, id, account = demo, parent = {}) => sim.store.remove(account, collection, { ...parent, id }),
  };
}
