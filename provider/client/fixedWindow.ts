/**
 * One fixed rate-limit window as the client believes the server counts it (spec, Limits 1): a
 * length, a limit, the end of the current window and the cost charged to it. Pure data and
 * arithmetic; time is always passed in. The window's invariant and the rules that keep it are one
 * model, each rule with its reason next to it.
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
 *   may reach the server after the server's window ended and count in the next one (refused, it
 *   counts in neither, and the next window does not open with it);
 * - a request still unanswered when the window ends is carried into the next window too, whatever
 *   the guard, until its answer says which server window counted it: until a request is answered
 *   nothing proves it reached the server before the server's window ended (on a cold start the
 *   time from send to response can exceed the guard, and the next window would draw 429s). An
 *   answer whose `X-RateLimit-Reset` lies about a window later than ours was counted in the next
 *   window; one counted in ours gives the carried cost back;
 * - the server's count replaces ours when it is higher (another process spends on the account);
 * - the server's `X-RateLimit-Limit` is the window's limit (never above the one it was made with),
 *   until a later report says otherwise; one report alone lowers it at most to half (see
 *   `learnLimit`), so a single odd answer cannot slow the account for good;
 * - once the server has counted requests that are not ours in this window, we also hold back room
 *   for the other process's requests in flight that no count shows yet: as many as we have in
 *   flight, times the others' pace (their cost per cost of ours since the previous report, see
 *   `RateClassWindows`). Each report replaces that room: it is a guess about requests in flight,
 *   and once their answers are in, the server's count shows what they really cost. Kept, a guess
 *   made while others were busy would close a steady window that still has room after they
 *   stopped, and the requests left would wait the whole window (60 s) for nothing;
 * - a window opens with what others spent in the last window that told us, by a report or by a
 *   refusal of ours with the window full (at most half the limit, so a busy neighbour can slow us
 *   but never starve us): two processes that both ride the windows then share them instead of
 *   colliding at every window start. Halfway through the window (the server's, once a report gave
 *   its end), the part of that room the server's count has not shown them spend is released:
 *   others who ride the windows spend at the window's start, so by then they are done, or
 *   finished, or late, and the room held for them would otherwise stay unspent (at the end of a
 *   run, a burst window a unit short costs a whole burst window more).
 *
 * A window closes when time reaches its end. The queries (`waitMs`, `view`) compute on the state as
 * it would be closed at their `now` without storing it; the changes (`charge`, `applyServerReport`,
 * `settle`, `refund`) close first. Closing is idempotent and depends only on the
 * state and `now`, so a query never changes what a later call sees.
 */
import { z } from "zod";
import { notAfter, windowReachMs } from "./plausibleTimes";

/**
 * Everything a `FixedWindow` knows, as plain JSON, so limiters can share a window through a
 * `LimiterStore` (`limiterStore.ts`). Times are on the limiter's clock (the shared epoch clock when
 * shared), ms; `null` stands for "none".
 */
export const FixedWindowStateSchema = z.object({
  /** Cost allowed per window: the window's most, or less as the server reported (`learnLimit`). */
  limit: z.number(),
  /**
   * The last limit the server reported below half the window's most, until one at or above it:
   * a second such report corroborates it (`learnLimit`). Absent in states written before it.
   */
  lowReport: z.number().nullable().default(null),
  /** Increments each time a window opens; a mark remembers the generation it was admitted in. */
  generation: z.number(),
  /** End of the current window; null when none is open. */
  end: z.number().nullable(),
  /** End of the previous window, to age out the cost charged ahead; null before one closed. */
  previousEnd: z.number().nullable(),
  /** Cost charged to the current window (ours, raised to the server's count when higher). */
  used: z.number(),
  /**
   * Room held for others' requests in flight that the server has not counted yet, as the last
   * report put it (`applyServerReport`). Absent in states written before it.
   */
  othersPending: z.number().default(0),
  /** Our own cost charged to the current window. */
  own: z.number(),
  /** Most cost the server counted in this window that was not ours, from its reports. */
  othersSeen: z.number(),
  /** Whether the server reported on this window at all. */
  reported: z.boolean(),
  /** What we expect others to spend in a window: `othersSeen` of the last reported window, capped. */
  othersExpected: z.number(),
  /** Of `used`, the room this window opened with for others (`othersExpected`); 0 once released. */
  reserved: z.number().default(0),
  /** When the part of `reserved` the others did not spend is released; null when none is held. */
  releaseAt: z.number().nullable().default(null),
  /** Cost charged ahead to the next window (admitted within the guard before the end). */
  ahead: z.number(),
  /** Cost of this window's requests not yet answered (and not charged ahead). */
  unanswered: z.number(),
  /** The previous window's `unanswered` when it closed: carried into this one until answered. */
  lateCarry: z.number(),
  /** True when the end comes from the server's `X-RateLimit-Reset`. */
  synced: z.boolean(),
});

/** See `FixedWindowStateSchema`. */
export type FixedWindowState = z.infer<typeof FixedWindowStateSchema>;

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

/** One window in a snapshot. */
export interface WindowView {
  readonly used: number;
  readonly limit: number;
  /** ms until the current window ends; undefined when none is open. */
  readonly endsInMs: number | undefined;
  readonly synced: boolean;
}

/** The most a window holds for what others are expected to spend: half its limit (the class comment). */
const othersShareCap = (limit: number): number => Math.floor(limit / 2);

/** `previousEnd`, with "none" as minus infinity: nothing carried ages against it. */
const previousEndOf = (s: FixedWindowState): number => s.previousEnd ?? Number.NEGATIVE_INFINITY;

/**
 * Whether the window is past its end but held open: its end is our guess (no answer gave the
 * server's) and some of its requests are unanswered, so the server's window, opened by the first
 * of them to arrive, may well run on (on a cold start the first answers can come later than our
 * guessed end, and our next window's first requests would draw 429s).
 */
const held = (s: FixedWindowState, now: number): boolean => s.end !== null && now >= s.end && !s.synced && s.unanswered > 0;

/**
 * The state with the room held for others released once `now` reached `releaseAt`: what the
 * server's count showed them spend stays in `used`, the rest of `reserved` leaves it. The state
 * itself when nothing is released; otherwise a new object.
 */
function releasedAt(s: FixedWindowState, now: number): FixedWindowState {
  if (s.releaseAt === null || now < s.releaseAt) return s;
  const unspent = Math.max(0, s.reserved - s.othersSeen);
  return { ...s, used: Math.max(0, s.used - unspent), reserved: 0, releaseAt: null };
}

export class FixedWindow {
  /** The whole state; replaced, never handed out (export and restore copy it). */
  private state: FixedWindowState;

  /**
   * @param lengthMs window length (1 s burst, 60 s steady on the platform; scaled in tests).
   * @param maxLimit cost allowed per window (the catalog's); the server may report less, never more.
   * @param heldPollMs how often a held window looks again for answers other processes received.
   *   An answer arrives on the time scale of a request, not of the window: the limiter passes the
   *   same poll to both windows (a steady window polling at its own length / 50 would wait 1.2 s
   *   on the platform after an answer had already arrived).
   */
  constructor(
    readonly lengthMs: number,
    readonly maxLimit: number,
    readonly heldPollMs: number,
  ) {
    this.state = {
      limit: maxLimit,
      lowReport: null,
      generation: 0,
      end: null,
      previousEnd: null,
      used: 0,
      othersPending: 0,
      own: 0,
      othersSeen: 0,
      reported: false,
      othersExpected: 0,
      reserved: 0,
      releaseAt: null,
      ahead: 0,
      unanswered: 0,
      lateCarry: 0,
      synced: false,
    };
  }

  /** Cost allowed per window. */
  get limit(): number {
    return this.state.limit;
  }

  /** The generation of the window open now or last (a mark of an earlier window has a lower one). */
  get generation(): number {
    return this.state.generation;
  }

  /**
   * The state as it is at `now`: the current window closed once `now` reached its end (unless
   * held, see `held`). The state itself when nothing closes; otherwise a new object.
   */
  private closedAt(now: number): FixedWindowState {
    const s = this.state;
    if (s.end === null || now < s.end || held(s, now)) return releasedAt(s, now);
    return {
      ...s,
      previousEnd: s.end,
      end: null,
      used: 0,
      othersPending: 0,
      synced: false,
      lateCarry: s.unanswered,
      unanswered: 0,
      othersExpected: s.reported ? Math.min(s.othersSeen, othersShareCap(s.limit)) : s.othersExpected,
      othersSeen: 0,
      reported: false,
      reserved: 0,
      releaseAt: null,
    };
  }

  /** Closes the current window once `now` reached its end (see `closedAt`). */
  private close(now: number): void {
    this.state = this.closedAt(now);
  }

  /**
   * Cost charged ahead still counts while the server window it may have opened can be running:
   * up to one length after the previous end.
   */
  private carried(s: FixedWindowState, now: number): number {
    return now < previousEndOf(s) + this.lengthMs ? s.ahead + s.lateCarry : 0;
  }

  /** What a window opening now starts with: our carried cost plus what others are expected to spend. */
  private opening(s: FixedWindowState, now: number): number {
    return this.carried(s, now) + s.othersExpected;
  }

  /** Milliseconds until `cost` may be charged (0: now). Changes nothing. */
  waitMs(cost: number, now: number, guardMs: number): number {
    const s = this.closedAt(now);
    if (s.end === null) {
      // A new window would open now, holding what was charged ahead to it. The expected share of
      // others is at most half the limit, so a single request always fits once the carry expired.
      const opening = this.opening(s, now);
      if (opening + cost <= s.limit || opening === 0) return 0;
      const carryExpires = previousEndOf(s) + this.lengthMs - now;
      return carryExpires > 0 ? carryExpires : 0;
    }
    // Held past its guessed end: an answer ends the hold (and pumps); look again shortly, for the
    // answers other processes of the machine receive.
    if (held(s, now)) return this.heldPollMs;
    const untilEnd = s.end - now;
    if (s.used + s.othersPending + cost > s.limit) {
      // Room may come sooner: the part of the room held for others they did not spend (`releasedAt`).
      if (s.releaseAt !== null && s.releaseAt < s.end) {
        const released = releasedAt(s, s.releaseAt);
        if (released.used + released.othersPending + cost <= s.limit) return s.releaseAt - now;
      }
      return untilEnd;
    }
    if (untilEnd <= guardMs && s.ahead + cost > s.limit) return untilEnd;
    return 0;
  }

  /**
   * Charges `cost` at `now` (only after `waitMs` returned 0 at the same `now`). Returns the mark
   * that a later server report on this request refers to.
   */
  charge(cost: number, now: number, guardMs: number): WindowMark {
    this.close(now);
    const s = this.state;
    if (s.end === null) {
      if (this.carried(s, now) === 0) {
        s.ahead = 0;
        s.lateCarry = 0;
      }
      s.own = this.carried(s, now);
      s.used = this.opening(s, now);
      s.reserved = s.othersExpected;
      s.releaseAt = s.othersExpected > 0 ? now + this.lengthMs / 2 : null;
      s.ahead = 0;
      s.end = now + this.lengthMs + guardMs;
      s.generation += 1;
    }
    s.used += cost;
    s.own += cost;
    const ahead = s.end - now <= guardMs;
    if (ahead) s.ahead += cost;
    else s.unanswered += cost;
    return { generation: s.generation, ownCost: s.own, ahead };
  }

  /**
   * The least limit a single report can set: half the window's most. Below it, a report is believed
   * only when the one before it was below it too.
   */
  private get limitFloor(): number {
    return Math.ceil(this.maxLimit / 2);
  }

  /**
   * Takes the server's `X-RateLimit-Limit` for this window (spec, Limits 5: "requests permitted in
   * the current window"): the server's limit is the truth, also when it rises again, but never above
   * `maxLimit`. Call before `applyServerReport` on the same report: a window that ended then closes
   * with the limit the server gives, so the share it expects of others stays at most half of it.
   */
  learnLimit(reported: number): void {
    // Decision (not shown in spec): every operation is in class C (spec, Limits 3), so a limit below
    // the class's is already an odd answer. One such answer far below (a proxy's header, another
    // API's) would otherwise hold the account at its value until a later answer raised it, and with
    // the window full none would come before the window ends: one report alone lowers the limit at
    // most to half, a second one below half confirms it (the higher of the two is taken).
    const s = this.state;
    const floor = this.limitFloor;
    if (reported >= floor) {
      s.limit = Math.min(reported, this.maxLimit);
      s.lowReport = null;
      return;
    }
    s.limit = s.lowReport === null ? floor : Math.min(floor, Math.max(1, reported, s.lowReport));
    s.lowReport = reported;
  }

  /**
   * The server reports, for the request admitted at `mark`, that its window ends at `boundary`
   * (now + reset; undefined without `X-RateLimit-Reset`) and had counted `serverCount` when it
   * took that request. `admittedSince` is the cost we admitted after it; `unansweredSince`, of that,
   * the cost still unanswered, which the server may not have seen yet (the rest was counted before
   * this request or in a higher count its own answer reported). `othersPace` is the others' cost
   * per cost of ours lately (see `RateClassWindows`): the room held for their requests in flight is
   * `unansweredSince` times it.
   * Ignored unless the request was admitted in the current window: a response that travelled
   * across a boundary must not fill the new window with the old window's count.
   */
  applyServerReport(
    mark: WindowMark,
    boundary: number | undefined,
    serverCount: number,
    admittedSince: number,
    now: number,
    machineShared = false,
    othersPace = 1,
    unansweredSince = admittedSince,
  ): void {
    this.close(now);
    const s = this.state;
    if (s.end === null || mark.generation !== s.generation) return;
    // What the server counted that was not ours: another process spends on this account. When the
    // machine's processes share this window (`machineShared`), our count is the machine's, and
    // requests of one process overtake those of another on the way: only a server count above all
    // we admitted in the window proves a spender elsewhere.
    const others = machineShared ? serverCount - (mark.ownCost + admittedSince) : serverCount - mark.ownCost;
    s.reported = true;
    s.othersSeen = Math.max(s.othersSeen, others);
    // Its requests in flight are invisible until they are counted: hold room for them in proportion
    // to ours in flight, at the pace it has been spending beside us, rather than collide with them.
    s.othersPending = others > 0 ? Math.min(s.limit, Math.ceil(unansweredSince * othersPace)) : 0;
    // Shared by the machine and nobody else counted: our count is exact; the server's may include
    // requests that overtook this one, which adding `unansweredSince` would count twice.
    if (!machineShared || others > 0) s.used = Math.max(s.used, serverCount + unansweredSince);
    if (boundary !== undefined) {
      // Every report's boundary is at or after the server's end (it is `now + reset`, read after
      // the response travelled); the earliest one is the closest, so a synced end only moves earlier.
      s.end = s.synced ? Math.min(s.end, boundary) : boundary;
      s.synced = true;
      // Halfway is the server's: a window we opened late in it (woken by a refusal's bound, which
      // lies anywhere in the next window) would otherwise hold the others' room past the server's
      // end, and the window closes a few units short with our requests waiting.
      if (s.releaseAt !== null) s.releaseAt = Math.min(s.releaseAt, s.end - this.lengthMs / 2);
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
    const s = this.state;
    if (mark.ahead) {
      // Charged to both windows from the start: nothing was carried for it. Refused, the server
      // counted it in neither, so the next window does not open with it (while it has not opened
      // yet; a refusal answers within a round trip, and the pause it sets lasts until the end).
      if (answer.refused && mark.generation === s.generation) s.ahead = Math.max(0, s.ahead - cost);
      return;
    }
    // Counted in a server window later than the one this request was admitted in: the next one.
    const late = (ownEnd: number) => !answer.refused && answer.boundary !== undefined && answer.boundary > ownEnd + this.lengthMs / 2;
    if (mark.generation === s.generation && s.end !== null) {
      // Answered while its window is still open.
      s.unanswered = Math.max(0, s.unanswered - cost);
      if (late(s.end)) s.ahead += cost;
    } else if (mark.generation === s.generation) {
      // Its window closed since and no other opened: its cost waits in `lateCarry`.
      const carried = Math.min(cost, s.lateCarry);
      s.lateCarry -= carried;
      if (late(previousEndOf(s))) s.ahead += carried;
    } else if (mark.generation === s.generation - 1 && s.lateCarry > 0) {
      // The window after its own opened with its cost carried in.
      const carried = Math.min(cost, s.lateCarry);
      s.lateCarry -= carried;
      // Counted in its own window, or refused: the carried cost goes back. Counted late, or where
      // unknown: it stays.
      const earlier = answer.refused || (answer.boundary !== undefined && !late(previousEndOf(s)));
      if (earlier) {
        s.used = Math.max(0, s.used - carried);
        s.own = Math.max(0, s.own - carried);
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
    const s = this.state;
    if (s.end === null || mark.generation !== s.generation) return;
    s.used = Math.max(0, s.used - cost);
    s.own = Math.max(0, s.own - cost);
  }

  /**
   * The server refused the request admitted at `mark` because this window is full (a 429 whose
   * `Retry-After` is within the window's length), and said its window ends by `bound`
   * (`receivedAt + Retry-After`: read after the answer travelled, and rounded up, so no earlier than
   * the server's end, like `X-RateLimit-Reset`). Counts the window full until its end, which for a
   * request of this window is the earliest of its reported ends and refusals' bounds: each bounds
   * the same end, so a second refusal that arrives later does not push it back. A request of an
   * earlier window says nothing about this one's end; then only a reported end counts. A refusal
   * that arrives after its own window ended, before another opened, is about that window: its end
   * (past). Returns the end, or undefined when the window has none known.
   *
   * With `roundTripMs` (the refused request's), our own guess of the end counts too, when no answer
   * gave one: it assumes our first request of the window reached the server within `guard` (the
   * class comment), and one may have taken as long as this answer did, so the guess counts that much
   * later. That is for the steady window: `Retry-After` is whole seconds, so the bound lies anywhere
   * up to a second after its end, while the guess is late by about a round trip. A burst refusal's
   * bound is about as close as the guess (one second counted from an answer to a request sent at the
   * window's start), and the guess can be a quarter window late (the guard), so there only the bound
   * and reported ends count. A request charged ahead may be about the next server window: its guess
   * does not count.
   */
  fillUntilEnd(mark: WindowMark, bound: number, now: number, roundTripMs?: number): number | undefined {
    this.close(now);
    const s = this.state;
    if (s.end === null) {
      // Its window ended while the refusal travelled back, and no other opened since: the refusal
      // was about that window (a request charged ahead may be about the next one), which no longer
      // holds anyone back. Its bound lies up to a window later: waiting for it idles a window.
      return mark.generation === s.generation && !mark.ahead && s.previousEnd !== null ? s.previousEnd : undefined;
    }
    if (mark.generation === s.generation) {
      const guess = !s.synced && !mark.ahead && roundTripMs !== undefined ? s.end + Math.max(0, roundTripMs) : bound;
      s.end = Math.min(s.synced ? s.end : guess, bound);
      s.synced = true;
      s.used = Math.max(s.used, s.limit);
      return s.end;
    }
    // A request of an earlier window was refused by the server window it reached: the one that
    // ended, or this one. Not counted full here: the limiter's pause holds the account until this
    // window's end, or until an answer in it shows room (`RateLimiter.observe`).
    return s.synced ? s.end : undefined;
  }

  /**
   * The server refused the request of `cost` admitted at `mark` because this window was full: of
   * its count, ours is at most the rest of our cost in the window, and the others spent what is
   * left, which the next window opens with as a report showing them spend would (see the class
   * comment). A machine the others keep refusing hears no report (a 429 carries no
   * `X-RateLimit-*`): expecting nobody, it sent its whole in-flight cap into every window they had
   * filled again by the time its pause ended, and drew that many 429s each time. A refusal of a
   * request of an earlier window says nothing about this one.
   */
  countOthersFromRefusal(mark: WindowMark, cost: number, now: number): void {
    this.close(now);
    const s = this.state;
    if (s.end === null || mark.generation !== s.generation) return;
    const others = s.limit - (s.own - cost);
    if (others <= 0) return;
    s.othersSeen = Math.max(s.othersSeen, others);
    s.reported = true;
  }

  /**
   * Stops waiting for the answers of this window's unanswered requests: for when nothing of the
   * account is in flight any more, so no answer is still to come. That happens when a process died
   * with requests in flight (the store dropped its entries: a dead pid, a lapsed lease); without
   * this, a window whose end is our guess would be held open for those answers forever (`held`).
   */
  forgetUnanswered(): void {
    if (this.state.unanswered > 0) this.state = { ...this.state, unanswered: 0 };
  }

  /** The whole state, for sharing (a copy). */
  exportState(): FixedWindowState {
    return { ...this.state };
  }

  /**
   * Takes over a shared state (written by `exportState`, here or in another process), read at
   * `now`. What a store hands back is bounded by what a window can hold (`plausibleTimes.ts`): a
   * limit within 1 and `maxLimit` (below half only when a report confirmed it, see `learnLimit`), an
   * end no later than a window opened now could end, a previous end not in the future, no negative
   * cost, at most half the limit expected of others. So a state written by a broken or hostile
   * process delays the account by a few windows at most: its end, then its carried cost ageing out.
   */
  restoreState(state: FixedWindowState, now: number): void {
    const least = state.lowReport === null ? this.limitFloor : 1;
    const limit = Math.min(this.maxLimit, Math.max(least, state.limit));
    const cost = (value: number) => Math.max(0, value);
    this.state = {
      ...state,
      limit,
      end: state.end === null ? null : notAfter(state.end, now, windowReachMs(this.lengthMs)),
      previousEnd: state.previousEnd === null ? null : notAfter(state.previousEnd, now, 0),
      used: cost(state.used),
      othersPending: Math.min(cost(state.othersPending), limit),
      own: cost(state.own),
      othersSeen: cost(state.othersSeen),
      othersExpected: Math.min(cost(state.othersExpected), othersShareCap(limit)),
      reserved: Math.min(cost(state.reserved), othersShareCap(limit)),
      releaseAt: state.releaseAt === null ? null : notAfter(state.releaseAt, now, this.lengthMs),
      ahead: cost(state.ahead),
      unanswered: cost(state.unanswered),
      lateCarry: cost(state.lateCarry),
    };
  }

  /** An independent copy, to try a charge without making it (see the limiter's backfilling). */
  clone(): FixedWindow {
    const copy = new FixedWindow(this.lengthMs, this.maxLimit, this.heldPollMs);
    copy.state = { ...this.state };
    return copy;
  }

  /** A plain view at `now`, for snapshots. Changes nothing. */
  view(now: number): WindowView {
    const s = this.closedAt(now);
    return {
      used: s.end === null ? this.carried(s, now) : s.used + s.othersPending,
      limit: s.limit,
      endsInMs: s.end === null ? undefined : s.end - now,
      synced: s.synced,
    };
  }
}
