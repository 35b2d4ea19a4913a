/**
 * One fixed rate-limit window as the client believes the server counts it (spec, Limits 1): a
 * length, a limit, the end of the current window and the cost charged to it. Pure data and
 * arithmetic; time is always passed in.
 *
 * The model works whether the server's windows sit on a fixed grid or open at the first request
 * after the previous one ended (the spec does not say). It keeps one invariant: our window never
 * ends before the server's. So:
 * - a window we open ourselves ends `length + guard` after our first admission, since that request
 *   opens (or lands in) the server's window up to `guard` later;
 * - a window's end moves to `now + X-RateLimit-Reset` when the server reports on a request admitted
 *   in it (the header was written before the response travelled back, so that is no earlier than
 *   the server's end); reports on requests of an older window never touch the current one.
 *
 * Guarantees:
 * - never admits more than `limit` cost within one window as we know it;
 * - a request admitted within `guard` before the end is also charged to the next window, since it
 *   may reach the server after the server's window ended and count in the next one;
 * - the server's count replaces ours when it is higher (another process spends on the account).
 */
export class FixedWindow {
  /** Cost allowed per window; lowered (never raised) when the server reports a smaller limit. */
  limit: number;
  /** Increments each time a window opens; a permit remembers the generation it was admitted in. */
  generation = 0;
  /** End of the current window (ms, limiter clock); undefined when none is open. */
  private end: number | undefined;
  /** End of the previous window, to age out the cost charged ahead. */
  private previousEnd = Number.NEGATIVE_INFINITY;
  /** Cost charged to the current window. */
  private used = 0;
  /** Cost charged ahead to the next window (admitted within the guard before the end). */
  private ahead = 0;
  /** True when the end comes from the server's `X-RateLimit-Reset`. */
  private synced = false;

  /**
   * @param lengthMs window length (1 s burst, 60 s steady on the platform; scaled in tests).
   * @param limit cost allowed per window.
   */
  constructor(
    readonly lengthMs: number,
    limit: number,
  ) {
    this.limit = limit;
  }

  /** Closes the current window once `now` reached its end. */
  private close(now: number): void {
    if (this.end === undefined || now < this.end) return;
    this.previousEnd = this.end;
    this.end = undefined;
    this.used = 0;
    this.synced = false;
  }

  /**
   * Cost charged ahead still counts while the server window it may have opened can be running:
   * up to one length after the previous end.
   */
  private carried(now: number): number {
    return now < this.previousEnd + this.lengthMs ? this.ahead : 0;
  }

  /** Milliseconds until `cost` may be charged (0: now). */
  waitMs(cost: number, now: number, guardMs: number): number {
    this.close(now);
    if (this.end === undefined) {
      // A new window would open now, holding what was charged ahead to it.
      const carried = this.carried(now);
      return carried > 0 && carried + cost > this.limit ? this.previousEnd + this.lengthMs - now : 0;
    }
    const untilEnd = this.end - now;
    if (this.used + cost > this.limit) return untilEnd;
    if (untilEnd <= guardMs && this.ahead + cost > this.limit) return untilEnd;
    return 0;
  }

  /**
   * Charges `cost` at `now` (only after `waitMs` returned 0 at the same `now`). Returns the
   * generation the cost was charged to.
   */
  charge(cost: number, now: number, guardMs: number): number {
    this.close(now);
    if (this.end === undefined) {
      this.used = this.carried(now);
      this.ahead = 0;
      this.end = now + this.lengthMs + guardMs;
      this.generation += 1;
    }
    this.used += cost;
    if (this.end - now <= guardMs) this.ahead += cost;
    return this.generation;
  }

  /**
   * The server reports, for a request admitted in `generation`, that its window ends at `boundary`
   * (now + reset; undefined without `X-RateLimit-Reset`) and holds `serverUsed`. Ignored unless
   * the request was admitted in the current window: a response that travelled across a boundary
   * must not fill the new window with the old window's count.
   */
  applyServerReport(generation: number, boundary: number | undefined, serverUsed: number, now: number): void {
    this.close(now);
    if (this.end === undefined || generation !== this.generation) return;
    this.used = Math.max(this.used, serverUsed);
    if (boundary !== undefined) {
      this.end = boundary;
      this.synced = true;
      this.close(now);
    }
  }

  /** A plain view, for snapshots. */
  view(now: number): { used: number; limit: number; endsInMs: number | undefined; synced: boolean } {
    this.close(now);
    return {
      used: this.end === undefined ? this.carried(now) : this.used,
      limit: this.limit,
      endsInMs: this.end === undefined ? undefined : this.end - now,
      synced: this.synced,
    };
  }
}
