/** Timeouts of one HTTP attempt, ms. */
export interface Timeouts {
  /** undici `connectTimeout`. */
  readonly connectMs: number;
  /** From sending to the response headers (undici `headersTimeout`). */
  readonly headersMs: number;
  /** Longest silence while receiving the body (undici `bodyTimeout`). */
  readonly bodyMs: number;
  /** The whole attempt, connect to last body byte (an AbortSignal). */
  readonly requestMs: number;
}

// Decision (not shown in spec): latency is not specified; these bound a hung connection without
// cutting off a slow but working platform.
export const TIMEOUT_DEFAULTS: Timeouts = Object.freeze({ connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, requestMs: 60_000 });

/** Sets `requestMs` (ms) where no code can pass options: the plugin process (CI on a slow network, the fault suite's scaled time). */
export const ENV_TIMEOUT_MS = "ADPLATFORM_TIMEOUT_MS";

export type Env = Readonly<Record<string, string | undefined>>;

/** `{ [key]: n }` when `env[name]` is a positive integer `n`, else `{}`: options' defaults overridden from the environment. */
export function positiveIntFromEnv<K extends string>(env: Env, name: string, key: K): Partial<Record<K, number>> {
  const raw = env[name]?.trim();
  return raw && /^\d+$/.test(raw) && Number(raw) > 0 ? ({ [key]: Number(raw) } as Record<K, number>) : {};
}

/** Defaults, then `ADPLATFORM_TIMEOUT_MS`, then `explicit`. */
export function resolveTimeouts(explicit: Partial<Timeouts> = {}, env: Env = process.env): Timeouts {
  return { ...TIMEOUT_DEFAULTS, ...positiveIntFromEnv(env, ENV_TIMEOUT_MS, "requestMs"), ...explicit };
}
