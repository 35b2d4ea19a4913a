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
 * - a request still unanswered when the window ends is carried into the next window too, whatever
 *   the guard, until its answer says which server window counted it: until a request is answered
 *   nothing proves it reached the server before the server's window ended (a cold start measured
 *   12-23 ms from send to response, against a 6 ms guard, and the next window got 429s). An answer
 *   whose `X-RateLimit-Reset` lies about a window later than ours was counted in the next window;
 *   one counted in ours gives the carried cost back;
 * - the server's count replaces ours when it is higher (another process spends on the account);
 * - once the server has counted requests that are not ours in this window, we also hold back as
 *   much as we have in flight, for the other process's requests in flight that no count shows yet;
 * - a window opens with what others spent in the last window that told us (at most half the
 *   limit, so a busy neighbour can slow us but never starve us): two processes that both ride the
 *   windows then share them instead of colliding at every window start.
 */

/**
 * Everything a `FixedWindow` knows, as plain JSON, so processes on one machine can share a window
 * through a file (`sharedState.ts`). Times are on the shared clock; `null` stands for "none".
 */
export interface FixedWindowState {
  readonly limit: number;
  readonly generation: number;
  readonly end: number | null;
  readonly previousEnd: number | null;
  readonly used: number;
  readonly own: number;
  readonly othersSeen: number;
  readonly reported: boolean;
  readonly othersExpected: number;
  readonly ahead: number;
  /** Cost of the window's requests still unanswered (not charged ahead). */
  readonly unanswered: number;
  /** Cost of the previous window's requests unanswered when it closed, carried into this one. */
  readonly lateCarry: number;
  readonly synced: boolean;
}

/** Where one admission stands in a window: which window, and our own cost in it after the admission. */
export interface WindowMark {
  readonly generation: number;
  readonly ownCost: number;
  /** Charged to the next window too (admitted within the guard before the end). */
  readonly ahead: boolean;
}

/**
 * What the answer to a request says about where the server counted it: `refused` (a 429: not
 * counted), or counted, in the server window ending at `boundary` when the answer reports this
 * window's `X-RateLimit-Reset` (undefined when it does not say).
 */
export type RequestAnswer = { readonly refused: true } | { readonly refused: false; readonly boundary: number | undefined };
export class FixedWindow {
  /** Cost allowed per window; lowered (never raised) when the server reports a smaller limit. */
  limit: number;
  /** Increments each time a window opens; a permit remembers the generation it was admitted in. */
  generation = 0;
  /** End of the current window (ms, limiter clock); undefined when none is open. */
  private end: number | undefined;
  /** End of the previous window, to age out the cost charged ahead. */
  private previousEnd = Number.NEGATIVE_INFINITY;
  /** Cost charged to the current window (ours, raised to the server's count when higher). */
  private used = 0;
  /** Our own cost charged to the current window. */
  private own = 0;
  /** Most cost the server counted in this window that was not ours, from its reports. */
  private othersSeen = 0;
  /** Whether the server reported on this window at all. */
  private reported = false;
  /** What we expect others to spend in a window: `othersSeen` of the last reported window, capped. */
  private othersExpected = 0;
  /** Cost charged ahead to the next window (admitted within the guard before the end). */
  private ahead = 0;
  /** Cost of this window's requests not yet answered (and not charged ahead). */
  private unanswered = 0;
  /** The previous window's `unanswered` when it closed: carried into the next window until answered. */
  private lateCarry = 0;
  /** True when the end comes from the server's `X-RateLimit-Reset`. */
  private synced = false;

  /**
   * @param lengthMs window length (1 s burst, 60 s steady on the platform; scaled in tests).
   * @param limit cost allowed per window.
   * @param heldPollMs how often a held window looks again for answers other processes received.
   *   An answer arrives on the time scale of a request, not of the window: the limiter passes the
   *   same poll to both windows (a steady window polling at its own length / 50 waited 1.2 s on the
   *   platform, 30 ms in the bench, after an answer had already arrived).
   */
  constructor(
    readonly lengthMs: number,
    limit: number,
    readonly heldPollMs: number,
  ) {
    this.limit = limit;
  }

  /**
   * Whether the window is past its end but held open: its end is our guess (no answer gave the
   * server's) and some of its requests are unanswered, so the server's window, opened by the first
   * of them to arrive, may well run on (a cold start answered its first requests 16-20 ms after
   * sending, against a 25 ms window, and our next window's first requests drew 429s).
   */
  private held(now: number): boolean {
    return this.end !== undefined && now >= this.end && !this.synced && this.unanswered > 0;
  }

  /** Closes the current window once `now` reached its end (unless held, see `held`). */
  private close(now: number): void {
    if (this.end === undefined || now < this.end || this.held(now)) return;
    this.previousEnd = this.end;
    this.end = undefined;
    this.used = 0;
    this.synced = false;
    this.lateCarry = this.unanswered;
    this.unanswered = 0;
    if (this.reported) this.othersExpected = Math.min(this.othersSeen, Math.floor(this.limit / 2));
    this.othersSeen = 0;
    this.reported = false;
  }

  /**
   * Cost charged ahead still counts while the server window it may have opened can be running:
   * up to one length after the previous end.
   */
  private carried(now: number): number {
    return now < this.previousEnd + this.lengthMs ? this.ahead + this.lateCarry : 0;
  }

  /** What a window opening now starts with: our carried cost plus what others are expected to spend. */
  private opening(now: number): number {
    return this.carried(now) + this.othersExpected;
  }

  /** Milliseconds until `cost` may be charged (0: now). */
  waitMs(cost: number, now: number, guardMs: number): number {
    this.close(now);
    if (this.end === undefined) {
      // A new window would open now, holding what was charged ahead to it. The expected share of
      // others is at most half the limit, so a single request always fits once the carry expired.
      const opening = this.opening(now);
      if (opening + cost <= this.limit || opening === 0) return 0;
      const carryExpires = this.previousEnd + this.lengthMs - now;
      return carryExpires > 0 ? carryExpires : 0;
    }
    // Held past its guessed end: an answer ends the hold (and pumps); look again shortly, for the
    // answers other processes of the machine receive.
    if (this.held(now)) return this.heldPollMs;
    const untilEnd = this.end - now;
    if (this.used + cost > this.limit) return untilEnd;
    if (untilEnd <= guardMs && this.ahead + cost > this.limit) return untilEnd;
    return 0;
  }

  /**
   * Charges `cost` at `now` (only after `waitMs` returned 0 at the same `now`). Returns the mark
   * that a later server report on this request refers to.
   */
  charge(cost: number, now: number, guardMs: number): WindowMark {
    this.close(now);
    if (this.end === undefined) {
      if (this.carried(now) === 0) {
        this.ahead = 0;
        this.lateCarry = 0;
      }
      this.own = this.carried(now);
      this.used = this.opening(now);
      this.ahead = 0;
      this.end = now + this.lengthMs + guardMs;
      this.generation += 1;
    }
    this.used += cost;
    this.own += cost;
    const ahead = this.end - now <= guardMs;
    if (ahead) this.ahead += cost;
    else this.unanswered += cost;
    return { generation: this.generation, ownCost: this.own, ahead };
  }

  /**
   * The server reports, for the request admitted at `mark`, that its window ends at `boundary`
   * (now + reset; undefined without `X-RateLimit-Reset`) and had counted `serverCount` when it
   * took that request. `admittedSince` is the cost we admitted after it, which the server may not
   * have seen yet. Ignored unless the request was admitted in the current window: a response that
   * travelled across a boundary must not fill the new window with the old window's count.
   */
  applyServerReport(
    mark: WindowMark,
    boundary: number | undefined,
    serverCount: number,
    admittedSince: number,
    now: number,
    machineShared = false,
  ): void {
    this.close(now);
    if (this.end === undefined || mark.generation !== this.generation) return;
    // What the server counted that was not ours: another process spends on this account. When the
    // machine's processes share this window (`machineShared`), our count is the machine's, and
    // requests of one process overtake those of another on the way: only a server count above all
    // we admitted in the window proves a spender elsewhere.
    const others = machineShared ? serverCount - (mark.ownCost + admittedSince) : serverCount - mark.ownCost;
    this.reported = true;
    this.othersSeen = Math.max(this.othersSeen, others);
    // Its requests in flight are invisible until they are counted; assume it has as many in flight
    // as we admitted since (the two processes behave alike), rather than collide with them.
    const reserve = others > 0 ? admittedSince : 0;
    // Shared by the machine and nobody else counted: our count is exact; the server's may include
    // requests that overtook this one, which adding `admittedSince` would count twice.
    if (!machineShared || others > 0) this.used = Math.max(this.used, serverCount + admittedSince + reserve);
    if (boundary !== undefined) {
      // Every report's boundary is at or after the server's end (it is `now + reset`, read after
      // the response travelled); the earliest one is the closest, so a synced end only moves earlier.
      this.end = this.synced ? Math.min(this.end, boundary) : boundary;
      this.synced = true;
      this.close(now);
    }
  }

  /**
   * The answer to the request admitted at `mark` (of cost `cost`) arrived, or its permit was
   * released without one (`boundary` undefined: counted, where unknown). Settles what was carried
   * for it while it was unanswered (see the class comment); call once per request, after
   * `applyServerReport`.
   */
  settle(mark: WindowMark, cost: number, answer: RequestAnswer, now: number): void {
    this.close(now);
    if (mark.ahead) return; // charged to both windows from the start: nothing was carried for it
    // Counted in a server window later than the one this request was admitted in: the next one.
    const late = (ownEnd: number) => !answer.refused && answer.boundary !== undefined && answer.boundary > ownEnd + this.lengthMs / 2;
    if (mark.generation === this.generation && this.end !== undefined) {
      // Answered while its window is still open.
      this.unanswered = Math.max(0, this.unanswered - cost);
      if (late(this.end)) this.ahead += cost;
    } else if (mark.generation === this.generation) {
      // Its window closed since and no other opened: its cost waits in `lateCarry`.
      const carried = Math.min(cost, this.lateCarry);
      this.lateCarry -= carried;
      if (late(this.previousEnd)) this.ahead += carried;
    } else if (mark.generation === this.generation - 1 && this.lateCarry > 0) {
      // The window after its own opened with its cost carried in.
      const carried = Math.min(cost, this.lateCarry);
      this.lateCarry -= carried;
      // Counted in its own window, or refused: the carried cost goes back. Counted late, or where
      // unknown: it stays.
      const earlier = answer.refused || (answer.boundary !== undefined && !late(this.previousEnd));
      if (earlier) {
        this.used = Math.max(0, this.used - carried);
        this.own = Math.max(0, this.own - carried);
      }
    }
  }

  /**
   * Gives back the cost of a request the server refused with 429 (spec, Limits 4: refused, not
   * processed; the server did not count it), if it was charged to the current window. Without it a
   * refused request stays charged: a steady window then ends with fewer than `limit` really spent,
   * and the leftover requests wait a whole steady window.
   */
  refund(mark: WindowMark, cost: number, now: number): void {
    this.close(now);
    if (this.end === undefined || mark.generation !== this.generation) return;
    this.used = Math.max(0, this.used - cost);
    this.own = Math.max(0, this.own - cost);
  }

  /** The whole state, for sharing (see `FixedWindowState`). */
  exportState(): FixedWindowState {
    return {
      limit: this.limit,
      generation: this.generation,
      end: this.end ?? null,
      previousEnd: Number.isFinite(this.previousEnd) ? this.previousEnd : null,
      used: this.used,
      own: this.own,
      othersSeen: this.othersSeen,
      reported: this.reported,
      othersExpected: this.othersExpected,
      ahead: this.ahead,
      unanswered: this.unanswered,
      lateCarry: this.lateCarry,
      synced: this.synced,
    };
  }

  /**
   * Takes over a shared state (written by `exportState`, here or in another process). The limit
   * stays the lower of ours and the shared one: a server-reported limit is never raised.
   */
  restoreState(state: FixedWindowState): void {
    this.limit = Math.min(this.limit, state.limit);
    this.generation = state.generation;
    this.end = state.end ?? undefined;
    this.previousEnd = state.previousEnd ?? Number.NEGATIVE_INFINITY;
    this.used = state.used;
    this.own = state.own;
    this.othersSeen = state.othersSeen;
    this.reported = state.reported;
    this.othersExpected = state.othersExpected;
    this.ahead = state.ahead;
    this.unanswered = state.unanswered;
    this.lateCarry = state.lateCarry;
    this.synced = state.synced;
  }

  /** An independent copy, to try a charge without making it (see the limiter's backfilling). */
  clone(): FixedWindow {
    const copy = new FixedWindow(this.lengthMs, this.limit, this.heldPollMs);
    copy.restoreState(this.exportState());
    return copy;
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
