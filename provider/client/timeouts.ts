/**
 * Timeouts of one attempt. Every default in one object, with units (STYLE.md 4). The spec gives no
 * latency figures, so these are ours.
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
