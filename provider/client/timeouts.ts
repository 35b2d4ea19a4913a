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

/**
 * Sets `requestMs` (ms) where no code can pass options: the dynamic-provider plugin process (CI on a
 * slow network, the fault suite, which scales time down).
 */
export const ENV_TIMEOUT_MS = "ADPLATFORM_TIMEOUT_MS";

/** Defaults, then `ADPLATFORM_TIMEOUT_MS` (when a positive integer), then `explicit`. */
export function resolveTimeouts(
  explicit: Partial<Timeouts> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Timeouts {
  const raw = env[ENV_TIMEOUT_MS]?.trim();
  const fromEnv = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? { requestMs: Number(raw) } : {};
  return { ...TIMEOUT_DEFAULTS, ...fromEnv, ...explicit };
}
