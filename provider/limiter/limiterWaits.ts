/**
 * What the limiter tells callers waiting on the windows: how much longer each, and once per busy stretch what the queue
 * costs in all. Read off a decision, changing no grant. An estimate: the cost queued ahead goes in the room left, then
 * a share's room per window (burst windows within a steady one); what moves it, the next report says.
 */
import type { AdmissionRequest } from "./limiter";
import { type Decision, type ModelConfig, roomOf } from "./limiterModel";
import { type LimiterState, type WindowState } from "./limiterState";

/** A window a wait is for: what the share lets through in it, what the class allows, its length. */
export interface WaitWindow {
  readonly room: number;
  readonly limit: number;
  readonly lengthMs: number;
  readonly share: number;
}

/** A report to a waiting request (`AdmissionRequest.onWait`). */
export interface LimitWait {
  readonly waitedMs: number;
  readonly leftMs: number;
  /** The steady window when it waits past the current one, else the burst one. */
  readonly window: WaitWindow;
  /**
   * Once per busy stretch (until a decision leaves the queue empty), when the head first waits for a steady window: the
   * stretch so far (the engine hands calls over as the program registers resources; the whole is never known ahead).
   */
  readonly backlog?: Backlog;
}

/** A busy stretch's requests (granted and queued), their cost, how long they should take in all, and the window that paces them. */
export interface Backlog {
  readonly requests: number;
  readonly cost: number;
  readonly expectedMs: number;
  readonly window: WaitWindow;
}

/** A waiting request as the reports see it. */
export interface QueuedRequest {
  readonly request: Pick<AdmissionRequest, "rateClass" | "cost" | "share" | "onWait">;
  readonly since: number;
}

// Decision: docs/rate-limiter.md, "wait reports" (each report is a line in a CI log that is not a terminal).
/** A request is told once its wait, waited and expected, reaches this, ms... */
export const REPORT_AFTER_MS = 5_000;
/** ...and again at most this often. */
export const REPORT_EVERY_MS = 10_000;

/** What is left for us in `w` at `now`: the share's room less our spend, and the limit less the account's. */
function leftIn(w: WindowState | undefined, limit: number, now: number, share: number): number {
  if (w === undefined || now >= w.endsBy) return roomOf(limit, share);
  return Math.max(0, Math.min(roomOf(w.limit, share) - w.own, w.limit - w.spent));
}

type Expected = { ms: number; window: WaitWindow };

/** How long until `cost` more of `cls` is granted, and the window that holds it. */
export function expectedWait(state: LimiterState, cls: string, cost: number, now: number, config: ModelConfig): Expected {
  const limits = config.classes[cls] ?? { burst: 1, steady: 1 };
  const windows = state.classes[cls];
  const { share, burstWindowMs, steadyWindowMs } = config;
  const burstRoom = roomOf(limits.burst, share);
  const steadyRoom = roomOf(limits.steady, share);
  const steadyLeft = leftIn(windows?.steady, limits.steady, now, share);
  const endIn = (w: WindowState | undefined) => (w !== undefined && now < w.endsBy ? w.endsBy - now : 0);
  const burstLeft = leftIn(windows?.burst, limits.burst, now, share);
  /** Time to grant `c` in a steady window with `b` left in the current burst window ending in `end`. */
  const paced = (c: number, b: number, end: number) => (c <= b ? 0 : end + Math.ceil((c - b) / burstRoom - 1) * burstWindowMs);
  const window = (limit: number, lengthMs: number, room: number): WaitWindow => ({ room, limit, lengthMs, share });
  if (cost <= steadyLeft) {
    return { ms: paced(cost, burstLeft, endIn(windows?.burst)), window: window(limits.burst, burstWindowMs, burstRoom) };
  }
  const beyond = cost - steadyLeft;
  const windowsMore = Math.ceil(beyond / steadyRoom) - 1;
  const last = beyond - windowsMore * steadyRoom;
  return {
    ms: endIn(windows?.steady) + windowsMore * steadyWindowMs + paced(last, burstRoom, burstWindowMs),
    window: window(limits.steady, steadyWindowMs, steadyRoom),
  };
}

/** The reports of one limiter: who was told when, and the busy stretch so far. */
export class WaitReports {
  private readonly told = new WeakMap<QueuedRequest, number>();
  private stretch: { since: number; requests: number; cost: number; told: boolean } | undefined;

  constructor(private readonly config: ModelConfig) {}

  /** Counts the decision's grants and tells the requests still `queued` (in queue order). */
  decided(decision: Decision, queued: readonly QueuedRequest[], now: number): void {
    const { grants } = decision;
    if (this.stretch === undefined && (grants.length > 0 || queued.length > 0))
      this.stretch = { since: now, requests: 0, cost: 0, told: false };
    const stretch = this.stretch;
    if (stretch === undefined) return;
    stretch.requests += grants.length;
    stretch.cost += grants.reduce((sum, grant) => sum + grant.ticket.cost, 0);
    if (queued.length === 0) {
      this.stretch = undefined;
      return;
    }
    const ahead = new Map<string, number>();
    let backlog: LimitWait["backlog"];
    const head = queued[0]!.request;
    const { steadyWindowMs } = this.config;
    // Each request waits within its own caller's share (the backlog: within the head's).
    const at = (share: number | undefined) => (share === undefined ? this.config : { ...this.config, share });
    if (!stretch.told && expectedWait(decision.state, head.rateClass, head.cost, now, at(head.share)).window.lengthMs === steadyWindowMs) {
      // The limits start to cost the stretch a steady window: what it costs so far, in all.
      const waits = [...new Set(queued.map((w) => w.request.rateClass))].map((cls) => {
        const cost = queued.filter((w) => w.request.rateClass === cls).reduce((sum, w) => sum + w.request.cost, 0);
        return expectedWait(decision.state, cls, cost, now, at(head.share));
      });
      const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
      stretch.told = true;
      backlog = {
        requests: stretch.requests + queued.length,
        cost: stretch.cost + queued.reduce((sum, w) => sum + w.request.cost, 0),
        expectedMs: now - stretch.since + longest.ms,
        window: longest.window,
      };
    }
    for (const waiting of queued) {
      const { rateClass, cost, onWait, share } = waiting.request;
      const through = (ahead.get(rateClass) ?? 0) + cost;
      ahead.set(rateClass, through);
      if (onWait === undefined) continue;
      const toldAt = this.told.get(waiting);
      if (toldAt !== undefined && now - toldAt < REPORT_EVERY_MS && backlog === undefined) continue;
      const wait = expectedWait(decision.state, rateClass, through, now, at(share));
      const waitedMs = now - waiting.since;
      if (waitedMs + wait.ms < REPORT_AFTER_MS && backlog === undefined) continue;
      this.told.set(waiting, now);
      try {
        onWait({ waitedMs, leftMs: wait.ms, window: wait.window, ...(backlog ? { backlog } : {}) });
      } catch {
        // a courtesy: a caller's failure to take it changes nothing
      }
      backlog = undefined;
    }
  }
}

/** `38 s`, `1 m 25 s`: whole seconds, at least 1. */
export function durationText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} m${s % 60 === 0 ? "" : ` ${s % 60} s`}`;
}

/** `150 per minute`; with a share, `75 of 150 per minute (rateLimitShare 0.5)`. */
export function rateText(window: WaitWindow): string {
  const per = window.lengthMs === 60_000 ? "per minute" : window.lengthMs === 1_000 ? "per second" : `per ${durationText(window.lengthMs)}`;
  return window.share < 1 ? `${window.room} of ${window.limit} ${per} (rateLimitShare ${window.share})` : `${window.limit} ${per}`;
}

/** The status of a waiting request: `waiting 38 s for the account's rate limit, 150 per minute`. */
export function waitStatusText(wait: LimitWait): string {
  return `waiting ${durationText(wait.leftMs)} for the account's rate limit, ${rateText(wait.window)}`;
}

/** The info line of a busy stretch: `212 requests so far at 150 per minute: about 1 m 25 s`. */
export function backlogText(backlog: Backlog): string {
  const cost = backlog.cost === backlog.requests ? "" : ` (counting as ${backlog.cost})`;
  return (
    `the account's rate limit paces this update: ${backlog.requests} requests so far${cost} at ${rateText(backlog.window)}: ` +
    `about ${durationText(backlog.expectedMs)}`
  );
}
