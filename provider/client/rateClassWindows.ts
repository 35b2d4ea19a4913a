/**
 * The two windows of one rate class (spec, Limits 2: a burst and a steady limit per class), and the
 * cost admitted in the class so far, which tells which admissions came after a given one. A
 * request is charged to both windows; a cost above a window's limit is charged as the whole window
 * (the server counts it as one request with subresources, spec Limits 7), so it can still go.
 *
 * Pure data and arithmetic, like `FixedWindow`; time is passed in.
 */
import { z } from "zod";
import type { RateClass } from "../catalog/types";
import { FixedWindow, FixedWindowStateSchema, type WindowMark, type WindowView } from "./fixedWindow";
import { notAfter } from "./plausibleTimes";
import type { RateLimitInfo } from "./rateLimitHeaders";

/**
 * The report the account's pace is measured from (see `RateClassWindows`): which window it
 * described and in which of our generations of it, the server's count, and our class's admitted
 * cost right after the reported request.
 */
const PaceReportSchema = z.object({
  window: z.enum(["burst", "steady"]),
  generation: z.number(),
  count: z.number(),
  costMark: z.number(),
});

/** A class's windows as shared through a `LimiterStore`. */
export const RateClassStateSchema = z.object({
  burst: FixedWindowStateSchema,
  steady: FixedWindowStateSchema,
  admittedCost: z.number(),
  /** Of `admittedCost`, the cost whose answers were settled; 0 in older states (nothing known answered). */
  settledCost: z.number().default(0),
  /** The last report with the highest count in its window, for the next pace; absent in older states. */
  paceReport: PaceReportSchema.nullable().default(null),
  /** The others' cost per cost of ours, averaged over the last reports that showed it; 1 until then. */
  othersPace: z.number().default(1),
});

/** See `RateClassStateSchema`. */
export type RateClassState = z.infer<typeof RateClassStateSchema>;

/** Where one admission stands in its class: in each window, and in the class's admitted cost. */
export interface ClassMark {
  readonly burst: WindowMark;
  readonly steady: WindowMark;
  /** The class's admitted cost right after this admission. */
  readonly costMark: number;
  /** The admission's cost. */
  readonly cost: number;
}

/** Which window a response's `X-RateLimit-*` headers described, and the end they gave it. */
export interface ReportedWindow {
  readonly window: "burst" | "steady";
  /** `receivedAt + X-RateLimit-Reset`, at most one window length ahead; undefined without the header. */
  readonly boundary: number | undefined;
}

/** Window lengths, ms. */
export interface WindowLengths {
  readonly burstMs: number;
  readonly steadyMs: number;
}

export class RateClassWindows {
  readonly burst: FixedWindow;
  readonly steady: FixedWindow;
  /** Cost admitted so far in this class. */
  private admittedCost = 0;
  /** Of `admittedCost`, the cost whose answers were settled (`settle`). */
  private settledCost = 0;
  /**
   * The account's pace as the headers show it (spec, Limits 5: `X-RateLimit-Remaining` is the
   * account's, not ours): between two reports on one window, the server's count rose by what every
   * client of the account spent, ours being the cost we admitted between the two requests; the rest
   * is the others'. Their cost per cost of ours is how much room their requests in flight need
   * beside ours (`FixedWindow.applyServerReport`). Near 0 once the count has risen only by ours
   * for a few reports: the others stopped, and nearly nothing is held back for them. 1 (they spend
   * as we do) until a pair showed it.
   */
  private othersPace = 1;
  /** The report the next pace is measured from. */
  private paceReport: RateClassState["paceReport"] = null;

  /**
   * @param limits the class's limits in the catalog (the windows may learn lower ones).
   * @param heldPollMs see `FixedWindow`.
   */
  constructor(
    readonly limits: RateClass,
    lengths: WindowLengths,
    heldPollMs: number,
  ) {
    this.burst = new FixedWindow(lengths.burstMs, limits.burst, heldPollMs);
    this.steady = new FixedWindow(lengths.steadyMs, limits.steady, heldPollMs);
  }

  /**
   * Milliseconds until a request of `cost` fits (0: now): the burst window's wait when it has one,
   * else the steady window's. Changes nothing.
   */
  waitMs(cost: number, now: number, guardMs: number): number {
    for (const window of [this.burst, this.steady]) {
      const wait = window.waitMs(Math.min(cost, window.limit), now, guardMs);
      if (wait > 0) return wait;
    }
    return 0;
  }

  /** Earliest time from `now` at which a request of `cost` fits both windows. Changes nothing. */
  earliestFit(cost: number, now: number, guardMs: number): number {
    let at = now;
    // Each step moves to a window end or the expiry of a carried charge; a few steps settle it.
    for (let step = 0; step < 8; step += 1) {
      const wait = Math.max(
        this.burst.waitMs(Math.min(cost, this.burst.limit), at, guardMs),
        this.steady.waitMs(Math.min(cost, this.steady.limit), at, guardMs),
      );
      if (wait <= 0) return at;
      at += wait;
    }
    return at;
  }

  /**
   * Charges a request of `cost` to both windows at `now` (only after `waitMs` returned 0 at the
   * same `now`, or on a `clone` to try it).
   */
  charge(cost: number, now: number, guardMs: number): ClassMark {
    const burst = this.burst.charge(Math.min(cost, this.burst.limit), now, guardMs);
    const steady = this.steady.charge(Math.min(cost, this.steady.limit), now, guardMs);
    this.admittedCost += cost;
    return { burst, steady, costMark: this.admittedCost, cost };
  }

  /**
   * Stays in step with the server (spec, Limits 5): applies what a response to the request charged
   * at `mark` says, its headers `info` received at `receivedAt`, to the window they describe (the
   * one whose limit `X-RateLimit-Limit` equals; when it equals neither, the steady one). With
   * `machineShared`, these windows are the machine's (see `FixedWindow.applyServerReport`).
   *
   * A reset longer than the window it describes cannot be (spec, Limits 1): it is read as the
   * window's length, so an odd header delays the account by one window at most.
   */
  applyServerReport(mark: ClassMark, info: RateLimitInfo, receivedAt: number, now: number, machineShared: boolean): ReportedWindow {
    // Decision (not shown in spec): which window the X-RateLimit headers describe is not said;
    // we match `X-RateLimit-Limit` against the class's burst and steady limits, steady otherwise.
    const described = info.limit === this.limits.burst && this.limits.burst !== this.limits.steady ? "burst" : "steady";
    const window = this[described];
    window.learnLimit(info.limit);
    // Believe the server when it has counted more than we have: what it counted up to this request,
    // plus what we admitted after it that is still unanswered (which it may not have seen yet).
    // Answers overtake each other: a later request answered before this one was either counted
    // before it, so in this count, or after it, so in the higher count its own answer reported;
    // adding it again would close a window with room left, and the request that finds it full
    // waits a whole steady window.
    const serverCount = info.limit - info.remaining;
    const admittedSince = this.admittedCost - mark.costMark;
    const unansweredSince = Math.max(0, Math.min(admittedSince, this.admittedCost - this.settledCost - mark.cost));
    const boundary = info.resetMs === undefined ? undefined : notAfter(receivedAt + info.resetMs, receivedAt, window.lengthMs);
    this.measurePace(described, mark[described].generation, serverCount, mark.costMark);
    window.applyServerReport(mark[described], boundary, serverCount, admittedSince, now, machineShared, this.othersPace, unansweredSince);
    return { window: described, boundary };
  }

  /**
   * Takes the pace from this report and the last one, when both describe the same window of ours
   * and this one shows a higher count with more of our cost admitted before it (answers overtake
   * each other on the way back; an older count says nothing new). The report with the highest
   * count is the one the next pace is measured from.
   */
  private measurePace(window: "burst" | "steady", generation: number, count: number, costMark: number): void {
    const last = this.paceReport;
    const sameWindow = last !== null && last.window === window && last.generation === generation;
    if (sameWindow && count <= last.count) return;
    if (sameWindow && costMark > last.costMark) {
      const ours = costMark - last.costMark;
      const others = Math.max(0, count - last.count - ours);
      // Half the last pace, half this pair's: one pair in which the others' requests happened not
      // to fall between ours halves the room held for them, a few in a row release it.
      this.othersPace = (this.othersPace + others / ours) / 2;
    }
    this.paceReport = { window, generation, count, costMark };
  }

  /**
   * Tells both windows that the request of `cost` charged at `mark` was answered: refused (a 429,
   * not counted), or counted in the server window `reported` describes (undefined: where unknown,
   * as for a request released without an answer). Once per request, after `applyServerReport`.
   */
  settle(
    mark: ClassMark,
    cost: number,
    answer: { readonly refused: true } | { readonly refused: false; readonly reported?: ReportedWindow },
    now: number,
  ): void {
    this.settledCost = Math.min(this.admittedCost, this.settledCost + cost);
    for (const name of ["burst", "steady"] as const) {
      const window = this[name];
      const boundary = !answer.refused && answer.reported?.window === name ? answer.reported.boundary : undefined;
      window.settle(mark[name], Math.min(cost, window.limit), answer.refused ? { refused: true } : { refused: false, boundary }, now);
    }
  }

  /**
   * Gives a refused request's cost back to the steady window (a 429 with `Retry-After: N`: the
   * server did not count it; the pause that follows covers the burst window, which the refusal
   * shows full on the server).
   */
  refundSteady(mark: ClassMark, cost: number, now: number): void {
    this.steady.refund(mark.steady, Math.min(cost, this.steady.limit), now);
  }

  /** An independent copy at `now`, to try a charge without making it. */
  clone(now: number): RateClassWindows {
    const copy = new RateClassWindows(this.limits, { burstMs: this.burst.lengthMs, steadyMs: this.steady.lengthMs }, this.burst.heldPollMs);
    copy.restoreState(this.exportState(), now);
    return copy;
  }

  /** Stops waiting for answers in both windows (see `FixedWindow.forgetUnanswered`). */
  forgetUnanswered(): void {
    this.settledCost = this.admittedCost;
    this.burst.forgetUnanswered();
    this.steady.forgetUnanswered();
  }

  /** The whole state, for sharing (a copy). */
  exportState(): RateClassState {
    return {
      burst: this.burst.exportState(),
      steady: this.steady.exportState(),
      admittedCost: this.admittedCost,
      settledCost: this.settledCost,
      paceReport: this.paceReport === null ? null : { ...this.paceReport },
      othersPace: this.othersPace,
    };
  }

  /** Takes over a shared state at `now`, bounded as `FixedWindow.restoreState` says. */
  restoreState(state: RateClassState, now: number): void {
    this.burst.restoreState(state.burst, now);
    this.steady.restoreState(state.steady, now);
    this.admittedCost = state.admittedCost;
    // Settled beyond admitted cannot be; read so, a store would hide our requests in flight.
    this.settledCost = Math.min(this.admittedCost, Math.max(0, state.settledCost));
    this.paceReport = state.paceReport === null ? null : { ...state.paceReport };
    // Whatever pace a store hands back, the room it holds is at most a window's limit per report.
    this.othersPace = Number.isFinite(state.othersPace) ? Math.max(0, state.othersPace) : 1;
  }

  /** Both windows at `now`, for snapshots. Changes nothing. */
  view(now: number): { burst: WindowView; steady: WindowView } {
    return { burst: this.burst.view(now), steady: this.steady.view(now) };
  }
}
