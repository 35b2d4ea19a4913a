/**
 * Options of the simulator and their defaults, every default in one object with its unit.
 */
import {
  BURST_WINDOW_MS,
  OPERATIONS,
  RATE_CLASSES,
  STEADY_WINDOW_MS,
  type OperationSpec,
  type RateClass,
  type RateClassName,
} from "../provider/catalog";
import type { AccountConfig } from "./auth";
import type { FaultSettingsInput } from "./faults";
import { FIRST_CREATED_ID, SEED_ACCOUNTS, seedState } from "./fixtures";
import type { SeedContext, SimState } from "./state";

/** Everything `startSimulator` can be told. */
export interface SimulatorOptions {
  /** Interface to listen on. */
  host: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Length of the burst window in ms (1 s on the platform, spec Limits 1); scale it in tests. */
  burstWindowMs: number;
  /** Length of the steady window in ms (60 s on the platform, spec Limits 1). */
  steadyWindowMs: number;
  /** Per-class overrides of the spec's limits (spec, Limits 2). */
  limits: Partial<Record<RateClassName, Partial<RateClass>>>;
  /** Simultaneous in-flight requests allowed per account (spec, Limits 6). */
  maxInFlight: number;
  /**
   * The unit a rate-limited 429's `Retry-After` is rounded up to, ms: 1000 (whole seconds, as on
   * the platform); scale it with the windows (e.g. 50 with windows of 50 ms and 3 s) so a scaled
   * run waits what the platform would make it wait, scaled.
   */
  retryAfterUnitMs: number;
  /** Largest request body accepted; larger ones get 413. */
  maxBodyBytes: number;
  /** Accounts and their bearer tokens. */
  accounts: readonly AccountConfig[];
  /** Seed of the PRNG behind the random fault shares. */
  seed: number;
  /** Fault settings at start and after `reset()`. */
  faults: FaultSettingsInput;
  /** The simulator clock in ms; inject a fake clock for deterministic window tests. */
  now: () => number;
  /** The operations served; the catalog unless a test serves another table. */
  operations: readonly OperationSpec[];
  /** Builds one account's seed data. */
  fixtures: (ctx: SeedContext) => SimState;
  /** First id handed out to created records. */
  firstCreatedId: number;
  /**
   * The bearer token `/_sim/*` requires when the server listens on an address other machines can
   * reach; without one, such a server refuses `/_sim/*` (see `inspectionAccess.ts`). Unused on loopback.
   */
  adminToken: string | undefined;
}

/**
 * Decision (not shown in spec, Limits 6: "The numeric value of that limit: not shown"): 8
 * simultaneous in-flight requests per account.
 */
export const DEFAULT_MAX_IN_FLIGHT = 8;

/**
 * Decision (not shown in spec, Limits 8: request body size not shown): 1 MiB; larger bodies are
 * answered 413.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024; // 1 MiB

/** Every default, with units. */
export const DEFAULT_OPTIONS: Readonly<SimulatorOptions> = {
  host: "127.0.0.1",
  port: 0,
  burstWindowMs: BURST_WINDOW_MS, // 1 s
  steadyWindowMs: STEADY_WINDOW_MS, // 60 s
  limits: {},
  maxInFlight: DEFAULT_MAX_IN_FLIGHT,
  retryAfterUnitMs: 1000, // whole seconds
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  accounts: SEED_ACCOUNTS,
  seed: 1,
  faults: {},
  // Sub-millisecond: with windows scaled by 1/40 (bench), a clock of whole milliseconds would move
  // window ends by up to 40 platform milliseconds.
  now: () => performance.timeOrigin + performance.now(),
  operations: OPERATIONS,
  fixtures: seedState,
  firstCreatedId: FIRST_CREATED_ID,
  adminToken: undefined,
};

/** Options with every default filled in; rejects values that cannot work. */
export function resolveOptions(partial: Partial<SimulatorOptions> = {}): SimulatorOptions {
  const options: SimulatorOptions = { ...DEFAULT_OPTIONS };
  for (const [key, value] of Object.entries(partial)) {
    if (value !== undefined) (options as unknown as Record<string, unknown>)[key] = value;
  }
  const positive = (name: string, v: number) => {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a positive number, got ${v}`);
  };
  positive("burstWindowMs", options.burstWindowMs);
  positive("steadyWindowMs", options.steadyWindowMs);
  positive("maxInFlight", options.maxInFlight);
  positive("retryAfterUnitMs", options.retryAfterUnitMs);
  positive("maxBodyBytes", options.maxBodyBytes);
  for (const name of Object.keys(RATE_CLASSES) as RateClassName[]) {
    const rc = rateClassOf(options, name);
    positive(`limits.${name}.burst`, rc.burst);
    positive(`limits.${name}.steady`, rc.steady);
  }
  return options;
}

/** The effective limits of one rate class: the spec's, with the overrides applied. */
export function rateClassOf(options: SimulatorOptions, name: RateClassName): RateClass {
  return { ...RATE_CLASSES[name], ...options.limits[name] };
}
