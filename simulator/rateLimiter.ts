/**
 * Per-account rate limiting with two fixed windows (spec, Limits 1-7) and the in-flight
 * concurrency limit (spec, Limits 6).
 *
 * Guarantees, each stated once:
 * - A window never admits more cost than its limit, except one request into an empty window (below).
 * - A request is admitted only when BOTH windows have room for its whole cost (spec, Limits 7: "the
 *   same rule applies to burst limits").
 * - A rejected request (429) consumes nothing and does not open a window.
 */
import type { RateClass } from "../provider/catalog";

/**
 * Decision (not shown in spec): windows are fixed and start at the first admitted request after the
 * previous window ended (not at multiples of the epoch). A window of length L opened at t admits
 * requests in [t, t + L); the next admitted request at or after t + L opens a new window with a fresh
 * count. `X-RateLimit-Reset` tells a client where the current window ends.
 */
export class FixedWindow {
  private start = Number.NEGATIVE_INFINITY;
  private used = 0;
  /** Largest cost admitted within one window so far (never above `limit`, see `fits`). */
  maxUsed = 0;
  /** Closed windows, oldest first, for `GET /_sim/windows` (bounded). */
  readonly history: { start: number; used: number }[] = [];

  constructor(
    readonly lengthMs: number,
    readonly limit: number,
  ) {}

  private expired(now: number): boolean {
    return now >= this.start + this.lengthMs;
  }

  /** Cost admitted in the window that holds `now` (0 when that window has not opened yet). */
  usedAt(now: number): number {
    return this.expired(now) ? 0 : this.used;
  }

  /**
   * Whether `cost` fits now. Decision (not shown in spec): a request whose cost alone exceeds the
   * limit (e.g. `fields` with more subresources than the burst limit) is admitted into an empty
   * window, using it up, rather than being refused forever.
   */
  fits(now: number, cost: number): boolean {
    const used = this.usedAt(now);
    return used === 0 || used + cost <= this.limit;
  }

  /** Milliseconds until the window holding `now` ends; a full length when none is open. */
  resetInMs(now: number): number {
    return this.expired(now) ? this.lengthMs : this.start + this.lengthMs - now;
  }

  /** Requests left in the window holding `now`. */
  remainingAt(now: number): number {
    return Math.max(0, this.limit - this.usedAt(now));
  }

  /** Counts `cost` into the window holding `now`, opening a new window when the last one ended. */
  admit(now: number, cost: number): void {
    if (this.expired(now)) {
      if (this.used > 0) {
        this.history.push({ start: this.start, used: this.used });
        if (this.history.length > 1000) this.history.shift();
      }
      this.start = now;
      this.used = 0;
    }
    this.used += cost;
    this.maxUsed = Math.max(this.maxUsed, this.used);
  }

  /** A plain view of the window for inspection. */
  report(now: number): WindowReport {
    const open = !this.expired(now);
    return {
      lengthMs: this.lengthMs,
      limit: this.limit,
      start: open ? this.start : null,
      used: this.usedAt(now),
      remaining: this.remainingAt(now),
      resetInMs: open ? this.resetInMs(now) : null,
      maxUsed: this.maxUsed,
      history: [...this.history],
    };
  }
}

/** What `GET /_sim/windows` shows of one window. */
export interface WindowReport {
  lengthMs: number;
  limit: number;
  /** Start of the open window (ms, the simulator clock), null when no window is open. */
  start: number | null;
  /** Cost admitted in the open window. */
  used: number;
  remaining: number;
  resetInMs: number | null;
  /** Largest cost admitted in any one window. */
  maxUsed: number;
  /** Closed windows that admitted something, oldest first (at most 1000). */
  history: { start: number; used: number }[];
}

/** The three `X-RateLimit-*` values of an admitted request (spec, Limits 5). */
export interface RateHeaders {
  limit: number;
  remaining: number;
  resetMs: number;
}

/** Outcome of asking the limiter for room. */
export type Admission = { admitted: true; headers: RateHeaders } | { admitted: false; retryAfterMs: number };

/** Both windows and the in-flight counter of one account and rate class. */
export class AccountRateLimiter {
  readonly burst: FixedWindow;
  readonly steady: FixedWindow;
  /** Requests rejected with 429 because a window was full. */
  rejected = 0;

  constructor(rateClass: RateClass, burstWindowMs: number, steadyWindowMs: number) {
    this.burst = new FixedWindow(burstWindowMs, rateClass.burst);
    this.steady = new FixedWindow(steadyWindowMs, rateClass.steady);
  }

  /** Admits `cost` into both windows, or says how long until the blocking windows reset. */
  tryAdmit(now: number, cost: number): Admission {
    const windows = [this.burst, this.steady];
    const blocking = windows.filter((w) => !w.fits(now, cost));
    if (blocking.length > 0) {
      this.rejected += 1;
      return { admitted: false, retryAfterMs: Math.max(...blocking.map((w) => w.resetInMs(now))) };
    }
    for (const w of windows) w.admit(now, cost);
    return { admitted: true, headers: this.headers(now) };
  }

  /**
   * Decision (not shown in spec): the headers describe the tighter window, the one with fewer
   * requests left; on a tie, the one that resets later (the steady window), since that is the one a
   * client must wait for.
   */
  headers(now: number): RateHeaders {
    const burst = { limit: this.burst.limit, remaining: this.burst.remainingAt(now), resetMs: this.burst.resetInMs(now) };
    const steady = { limit: this.steady.limit, remaining: this.steady.remainingAt(now), resetMs: this.steady.resetInMs(now) };
    if (burst.remaining !== steady.remaining) return burst.remaining < steady.remaining ? burst : steady;
    return burst.resetMs > steady.resetMs ? burst : steady;
  }
}

/** Simultaneous requests of one account (spec, Limits 6). */
export class InFlightCounter {
  current = 0;
  /** Highest number of simultaneous requests seen. */
  peak = 0;
  /** Requests rejected with `Retry-After: -1`. */
  rejected = 0;

  constructor(readonly max: number) {}

  /** Takes a slot, or returns false when `max` requests are already in flight. */
  tryEnter(): boolean {
    if (this.current >= this.max) {
      this.rejected += 1;
      return false;
    }
    this.current += 1;
    this.peak = Math.max(this.peak, this.current);
    return true;
  }

  /** Gives a slot back. */
  leave(): void {
    this.current = Math.max(0, this.current - 1);
  }
}

/**
 * spec, Limits 5: `X-RateLimit-Reset` is "seconds until the window refreshes". Decision (not shown
 * in spec): decimal seconds to the microsecond (`0.734`, `59.998`, `0.024731`), rounded up so the
 * end it gives is never before the real one. Whole milliseconds would do at the platform's 1 s
 * windows, but the benchmark scales windows by 1/40, where a millisecond of grain is 40 platform
 * milliseconds; a client must parse it as a decimal.
 */
export function formatResetSeconds(ms: number): string {
  return String(Math.ceil(Math.max(0, ms) * 1000) / 1e6);
}

/**
 * Decision (not shown in spec): `Retry-After` of a rate-limited 429 is whole seconds until the
 * blocking window ends (the later one when both block), rounded up (HTTP's delta-seconds), so never
 * less than the real wait and never 0; with windows scaled below 1 s it reads `1`. A 429 carries no
 * `X-RateLimit-*` headers (spec, Limits 5 names them for responses that did not hit the limit).
 *
 * `unitMs` scales that second with the windows (option `retryAfterUnitMs`): with windows scaled by
 * 1/20 and a unit of 50 ms, a wait of 1,234 ms reads `1.25` (25 units), just as a real 24.68 s wait
 * reads `25`. The default unit of 1,000 ms gives the platform's whole seconds.
 */
export function formatRetryAfterSeconds(ms: number, unitMs = 1000): string {
  return String((Math.max(1, Math.ceil(ms / unitMs)) * unitMs) / 1000);
}
