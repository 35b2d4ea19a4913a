/**
 * Timeouts of one attempt. Every default in one object, with units.
 * The spec gives no latency figures, so these are ours.
 */

/** Timeouts of one HTTP attempt, in ms. */
export interface Timeouts {
  /** Establishing the TCP/TLS connection (undici `connectTimeout`). */
  readonly connectMs: number;
  /** From sending to receiving the response headers (undici `headersTimeout`). */
  readonly headersMs: number;
  /** Longest silence while receiving the body (undici `bodyTimeout`). */
  readonly bodyMs: number;
  /** The whole attempt, connect to last body byte (an AbortSignal). */
  readonly requestMs: number;
}

// Decision (not shown in spec): latency is not specified; these bound a hung connection without
// cutting off a slow but working platform.
/** Defaults of `Timeouts`. */
export const TIMEOUT_DEFAULTS: Timeouts = Object.freeze({
  connectMs: 10_000, // 10 s
  headersMs: 30_000, // 30 s
  bodyMs: 30_000, // 30 s
  requestMs: 60_000, // 60 s
});

/**
 * Environment variable giving the whole-attempt timeout (`requestMs`) in ms. It reaches the client
 * where no code can pass options: the dynamic-provider plugin process (CI on a slow network, and the
 * fault suite, which scales time down). Explicit `timeouts` options win over it.
 */
export const ENV_TIMEOUT_MS = "ADPLATFORM_TIMEOUT_MS";

/**
 * The timeouts in force: defaults, then `ADPLATFORM_TIMEOUT_MS` for `requestMs` (ignored unless a
 * positive integer), then the explicit options.
 */
export function resolveTimeouts(
  explicit: Partial<Timeouts> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Timeouts {
  const raw = env[ENV_TIMEOUT_MS]?.trim();
  const fromEnv = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? { requestMs: Number(raw) } : {};
  return { ...TIMEOUT_DEFAULTS, ...fromEnv, ...explicit };
}
