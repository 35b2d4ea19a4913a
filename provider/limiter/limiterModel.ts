/**
 * The rate limiter's decisions (spec, Limits 1-7; the rules: docs/rate-limiter.md): a pure function of the
 * state, the events, the queue and the time, tested as traces. The driver (`limiter.ts`) brings the time,
 * a store the state. One function per rule: `fits` (room), `windowsAt` and `learn` (a window's uncertain
 * end, what others spend), `refused`, `live` (tickets in flight), `bounded` (bounded waits).
 */
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";
import { freshState, type LimiterState, ownerOf, type Ticket, type WindowState } from "./limiterState";

export interface ModelConfig {
  /** Limits per rate class (spec, Limits 2). */
  readonly classes: Readonly<Record<string, { readonly burst: number; readonly steady: number }>>;
  /** Window lengths, ms (1 s and 60 s on the platform; scaled in tests and benchmarks). */
  readonly burstWindowMs: number;
  readonly steadyWindowMs: number;
  /** How long a request may take to reach the server, for a window's end guessed before any answer, ms. */
  readonly guardMs: number;
  /** Bounds of the adaptive in-flight cap (spec, Limits 6). */
  readonly concurrency: { readonly initial: number; readonly min: number; readonly max: number };
  /** The share of every window a request that names none may spend, in (0, 1]. */
  readonly share: number;
  /** A ticket's life when its request names none, and the longest any ticket lives, ms; none: `ATTEMPT_MS`. */
  readonly ticketLifeMs?: number;
}

/** A request waiting for a grant: its ticket id, rate class and cost (spec, Limits 7). */
export interface Waiting {
  readonly id: string;
  readonly cls: string;
  readonly cost: number;
  /** Its caller's `rateLimitShare` (none: the model's): shares share `own`, so together spend at most the largest (rule 1). */
  readonly share?: number;
  /** Its attempt's timeout, ms: its ticket's life; none: the model's `ticketLifeMs`. */
  readonly lifeMs?: number;
}

export type LimiterEvent =
  /** A response arrived: its status and headers, dated when they arrived; `release` frees its ticket. */
  | {
      readonly kind: "answer";
      readonly id: string;
      readonly ticket: Ticket;
      readonly receivedAt: number;
      readonly status: number;
      readonly report?: RateLimitInfo;
      readonly retryAfter?: RetryAfter;
      readonly release: boolean;
    }
  /** The request's slot is given back (answered before, or never answered). */
  | { readonly kind: "release"; readonly id: string }
  /** The limiter `owner` holds exactly the permits `ids` (others were released, perhaps on another store); sent with
   *  every decision, it is also the owner's heartbeat (rule 5). */
  | { readonly kind: "holds"; readonly owner: string; readonly ids: readonly string[] };

type Answer = Extract<LimiterEvent, { kind: "answer" }>;

export interface Decision {
  readonly state: LimiterState;
  /** Tickets granted, in queue order. */
  readonly grants: readonly { readonly id: string; readonly ticket: Ticket }[];
  /** When to decide again if nothing else happens (Infinity: on the next event). */
  readonly wakeAt: number;
  /** Whether `wakeAt` is a window's end, worth a precise timer (not a look for others' releases). */
  readonly precise: boolean;
}

// Decision (not shown in spec): a ticket lives as long as its attempt can, while its owner lives; the reasoning is in
// docs/rate-limiter.md's constants table ("ticket life", "owner liveness, heartbeat").
/** An attempt's timeout when the limiter is told none, ms: the client's default `requestMs`. */
export const ATTEMPT_MS = 60_000;
/** The longest a ticket lives unless released first, or its owner stops deciding (rule 5). */
export const ticketLifeMs = (config: ModelConfig) => config.ticketLifeMs ?? ATTEMPT_MS;
/** An owner silent this long is dead, its tickets uncounted: a sixth of a steady window (10 s). */
export const livenessMs = (config: ModelConfig) => config.steadyWindowMs / 6;
/** A limiter holding tickets decides at least this often: half the liveness period, so one late beat is no death. */
export const heartbeatMs = (config: ModelConfig) => livenessMs(config) / 2;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Bounded waits (rule 6): every time and count read is cut to what the windows allow, so a broken or hostile
 *  state slows the account by a window at most, once. */
function bounded(input: LimiterState | undefined, now: number, config: ModelConfig): LimiterState {
  const state: LimiterState = input ? structuredClone(input) : freshState(config);
  const reach = (length: number) => now + length + config.guardMs;
  for (const [cls, windows] of Object.entries(state.classes)) {
    const limits = config.classes[cls];
    if (limits === undefined) {
      delete state.classes[cls];
      continue;
    }
    for (const [w, length, limit] of [
      [windows.burst, config.burstWindowMs, limits.burst],
      [windows.steady, config.steadyWindowMs, limits.steady],
    ] as const) {
      w.endsBy = Math.min(w.endsBy, reach(length));
      w.endsAfter = Math.min(w.endsAfter, w.endsBy);
      w.opened = Math.min(w.opened, w.endsBy);
      w.spent = Math.max(0, w.spent);
      w.own = clamp(w.own, 0, w.spent);
      // Per-limiter counts are part of `own`, or not believed.
      const by = Object.entries(w.by ?? {}).filter(([, cost]) => cost > 0);
      w.by = by.reduce((sum, [, cost]) => sum + cost, 0) <= w.own ? Object.fromEntries(by) : undefined;
      w.carry = Math.max(0, w.carry);
      w.carryUntil = Math.min(w.carryUntil, reach(length));
      w.limit = clamp(w.limit, Math.ceil(limit / 2), limit);
    }
  }
  // A ticket lives its attempt's life at most; one without an owner record (a release that kept no owners) the liveness period.
  for (const [id, ticket] of Object.entries(state.tickets)) {
    const life = state.owners?.[ownerOf(id)] === undefined ? livenessMs(config) : ticketLifeMs(config);
    ticket.exp = Math.min(ticket.exp, now + life);
  }
  for (const owner of Object.keys(state.owners ?? {})) state.owners![owner] = Math.min(state.owners![owner]!, now);
  const { min, max } = config.concurrency;
  state.cap.value = clamp(Math.floor(state.cap.value), min, max);
  if (state.cap.loweredAt !== null) state.cap.loweredAt = Math.min(state.cap.loweredAt, now);
  return state;
}

/** Tickets in flight: an expired one gives back its slot, not its cost (kept until `windowsAt` carried it on). */
function live(state: LimiterState, now: number): [string, Ticket][] {
  return Object.entries(state.tickets).filter(([, ticket]) => ticket.exp > now);
}

/**
 * The windows of `cls` at `now` (rules 1, 2): one surely over is replaced by the next, empty but for what may be counted
 * in it. The server opens it at the first request after the last one ended: no later than our first one arrives (within
 * a guard), no earlier than the last window ended when a carried request may have opened it.
 */
function windowsAt(state: LimiterState, cls: string, now: number, config: ModelConfig): { burst: WindowState; steady: WindowState } {
  const limits = config.classes[cls]!;
  const saved = state.classes[cls];
  const next = (w: WindowState | undefined, kind: "burst" | "steady", length: number, limit: number): WindowState => {
    if (w !== undefined && (now < w.endsBy || unheard(state, cls, kind, w, now))) return w;
    // Requests unanswered as it ends (tickets alive in it) may arrive after it, and count for their limiter there; an
    // answered one opened the next window by its answer, so its `carry` lapses once that window is surely over.
    const unanswered = w === undefined ? [] : Object.entries(state.tickets).filter(([, t]) => t.cls === cls && t.exp > w.opened);
    const carry = (w !== undefined && now < w.carryUntil ? w.carry : 0) + unanswered.reduce((sum, [, t]) => sum + t.cost, 0);
    const by: Record<string, number> = {};
    for (const [id, t] of unanswered) by[ownerOf(id)] = (by[ownerOf(id)] ?? 0) + t.cost;
    const opensAfter = carry > 0 ? w!.endsAfter : now;
    return {
      opened: now,
      endsAfter: opensAfter + length,
      endsBy: now + length + config.guardMs,
      heard: false,
      spent: carry,
      own: carry,
      by,
      carry: 0,
      carryUntil: now,
      limit,
    };
  };
  return {
    burst: next(saved?.burst, "burst", config.burstWindowMs, limits.burst),
    steady: next(saved?.steady, "steady", config.steadyWindowMs, limits.steady),
  };
}

/** A window whose end is our guess does not end while its requests are unanswered: only an answer says whether they
 *  arrived within the guard. Tickets expire, so this holds a window a ticket's life at most (rule 2). */
function unheard(state: LimiterState, cls: string, kind: "burst" | "steady", w: WindowState, now: number): boolean {
  return !w.heard && Object.values(state.tickets).some((t) => t.cls === cls && t[kind] === w.opened && t.exp > now);
}

/** Room (rule 1): our spend within the share's room, the account's within the limit; an empty window takes any cost. */
function fits(w: WindowState, cost: number, share: number): boolean {
  return w.spent === 0 || (w.own + cost <= roomOf(w.limit, share) && w.spent + cost <= w.limit);
}

/** A window's room for the sharers' own spend: the share of its limit, at least 1. */
export function roomOf(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}

/**
 * What an answer says about its request's windows (rules 2, 3). The server counted it on arrival, between admission and
 * answer: in its window when the answer came before the earliest end or its Reset ends the window before the next one's
 * earliest end; else maybe in the next one too, so it is carried. A counted answer raises `spent` to the server's count
 * (Remaining is the account's, spec Limits 5) and narrows the end. A Limit above the class's burst one is the steady
 * window's; one below half the class's is not believed (spec, Limits 2).
 */
function learn(state: LimiterState, ticket: Ticket, report: RateLimitInfo | undefined, receivedAt: number, config: ModelConfig): void {
  const windows = state.classes[ticket.cls];
  const limits = config.classes[ticket.cls];
  if (windows === undefined || limits === undefined) return;
  const about = report && report.limit > limits.burst ? "steady" : "burst";
  for (const [kind, length] of [
    ["burst", config.burstWindowMs],
    ["steady", config.steadyWindowMs],
  ] as const) {
    const w = windows[kind];
    const carriedIn = w.opened !== ticket[kind]; // from an earlier window: maybe counted in the next too, nothing more sure
    const told = !carriedIn && report && kind === about && report.limit >= Math.ceil(limits[kind] / 2) ? report : undefined;
    const reported = told?.resetMs === undefined ? undefined : receivedAt + Math.min(told.resetMs, length);
    const counted = receivedAt < w.endsAfter || (reported !== undefined && reported < w.endsAfter + length);
    if (!counted) {
      w.carry += ticket.cost;
      w.carryUntil = Math.max(w.carryUntil, receivedAt + length);
    }
    if (carriedIn) continue;
    // It ends a length after the answer at the latest, or at the Reset; the first answer replaces our guess.
    const end = counted && reported !== undefined ? reported : receivedAt + length;
    w.endsBy = w.heard ? Math.min(w.endsBy, end) : end;
    w.heard = true;
    if (counted && told !== undefined) {
      w.limit = Math.min(told.limit, limits[kind]);
      // A Reset before the assumed earliest end shows others opened the window: it ends after the Reset less the round trip.
      if (reported !== undefined) w.endsAfter = Math.max(reported < w.endsAfter ? 0 : w.endsAfter, reported - (receivedAt - ticket.at));
      w.endsAfter = Math.min(w.endsAfter, w.endsBy);
      w.spent = Math.max(w.spent, w.limit - told.remaining);
    }
  }
}

/**
 * A refusal (rule 4): uncounted, its cost leaves its windows. `Retry-After: N` fills the window it is about (the burst
 * one when N is no longer) until N at most, and says nothing of one already over; `-1` (spec, Limits 6) drops the cap
 * to the live tickets at its admission less one (by half at most, to 1 at least), once per congestion.
 */
function refused(state: LimiterState, { id, ticket, retryAfter, receivedAt }: Answer, now: number, config: ModelConfig): void {
  const owner = ownerOf(id);
  const windows = state.classes[ticket.cls];
  if (windows !== undefined) {
    for (const kind of ["burst", "steady"] as const) {
      const w = windows[kind];
      if (w.opened !== ticket[kind]) continue;
      w.spent = Math.max(0, w.spent - ticket.cost);
      w.own = Math.max(0, w.own - ticket.cost);
      if (w.by?.[owner] !== undefined) w.by[owner] = Math.max(0, w.by[owner] - ticket.cost);
    }
    if (retryAfter?.kind === "delay") {
      const aboutBurst = retryAfter.ms <= config.burstWindowMs;
      const w = aboutBurst ? windows.burst : windows.steady;
      if (w.opened === (aboutBurst ? ticket.burst : ticket.steady)) {
        w.spent = Math.max(w.spent, w.limit);
        w.endsBy = Math.min(w.endsBy, receivedAt + Math.min(retryAfter.ms, config.steadyWindowMs));
        w.endsAfter = Math.min(w.endsAfter, w.endsBy);
      }
    }
  }
  const cap = state.cap;
  if (retryAfter?.kind !== "concurrency" || (cap.loweredAt !== null && ticket.at <= cap.loweredAt)) return;
  const { min } = config.concurrency;
  const allowed = Math.max(min, ticket.live - 1);
  cap.value = Math.max(min, Math.floor(cap.value / 2), Math.min(allowed, cap.value - 1));
  // Our own count explains the refusal (not someone else's requests, not a request alone in flight).
  if (allowed >= cap.value && ticket.live > 1) cap.ceiling = cap.value;
  cap.loweredAt = now;
  cap.good = 0;
}

/** A good answer: the cap grows by one after a cap's worth, past the ceiling only a steady window after it dropped. */
function answered(state: LimiterState, now: number, config: ModelConfig): void {
  const cap = state.cap;
  cap.good += 1;
  if (cap.good < cap.value || cap.value >= config.concurrency.max) return;
  const probing = cap.ceiling !== null && cap.value >= cap.ceiling;
  if (probing && cap.loweredAt !== null && now - cap.loweredAt < config.steadyWindowMs) return;
  cap.value += 1;
  cap.good = 0;
}

function apply(state: LimiterState, event: LimiterEvent, now: number, config: ModelConfig): void {
  if (event.kind === "holds") {
    for (const id of Object.keys(state.tickets)) if (ownerOf(id) === event.owner && !event.ids.includes(id)) delete state.tickets[id];
    state.owners = { ...state.owners, [event.owner]: now };
    return;
  }
  if (event.kind === "release" || event.release) delete state.tickets[event.id];
  if (event.kind === "release") return;
  if (event.status === 429) return refused(state, event, now, config);
  answered(state, now, config);
  learn(state, event.ticket, event.report, event.receivedAt, config);
}

/**
 * The decision: the events applied, expired tickets dropped, the queue admitted in order while requests fit. One behind
 * a head that does not fit goes first only when it fits now and leaves the head its room in every window the head does
 * not wait out: the head's earliest grant does not move (rule 1).
 */
export function decide(
  input: LimiterState | undefined,
  events: readonly LimiterEvent[],
  queue: readonly Waiting[],
  now: number,
  config: ModelConfig,
): Decision {
  const state = bounded(input, now, config);
  for (const event of events) apply(state, event, now, config);
  // An owner silent for the liveness period is dead: its tickets stop counting, their cost stays (rule 5). One without an
  // owner record lives to its expiry.
  const deadline = (id: string) => (state.owners?.[ownerOf(id)] ?? Number.POSITIVE_INFINITY) + livenessMs(config);
  for (const [id, ticket] of Object.entries(state.tickets)) if (deadline(id) <= now) ticket.exp = Math.min(ticket.exp, deadline(id));
  /** When a ticket stops counting if nothing is heard: its expiry, or its owner's liveness deadline. */
  const endOf = ([id, ticket]: [string, Ticket]) => Math.min(ticket.exp, deadline(id));
  const tickets = live(state, now);
  const lived = (t: Ticket) => [state.classes[t.cls]?.burst, state.classes[t.cls]?.steady].some((w) => w && w.opened < t.exp);
  state.tickets = Object.fromEntries(Object.entries(state.tickets).filter(([, t]) => t.exp > now || lived(t)));
  let count = tickets.length;
  const grants: { id: string; ticket: Ticket }[] = [];
  let head: { item: Waiting; blocked: { burst: boolean; steady: boolean } } | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  let headWake = Number.NaN;
  for (const item of queue) {
    if (count >= state.cap.value) {
      // A release frees a slot (ours wake the driver, others' are heard), else the first ticket to stop counting.
      wakeAt = Math.min(wakeAt, ...tickets.map(endOf), ...grants.map((g) => g.ticket.exp));
      break;
    }
    if (config.classes[item.cls] === undefined) continue;
    const windows = windowsAt(state, item.cls, now, config);
    const share = item.share ?? config.share;
    const blocked = { burst: !fits(windows.burst, item.cost, share), steady: !fits(windows.steady, item.cost, share) };
    if (head === undefined) {
      if (blocked.burst || blocked.steady) {
        head = { item, blocked };
        // A window held past its guessed end ends at an answer, else when the last ticket holding it stops counting.
        const holders = (kind: "burst" | "steady", w: WindowState) =>
          tickets.filter(([, t]) => t.cls === item.cls && t[kind] === w.opened).map(endOf);
        const until = (kind: "burst" | "steady", w: WindowState) => (now < w.endsBy ? w.endsBy : Math.max(now, ...holders(kind, w)));
        wakeAt = Math.max(blocked.burst ? until("burst", windows.burst) : now, blocked.steady ? until("steady", windows.steady) : now);
        if ((!blocked.burst || now < windows.burst.endsBy) && (!blocked.steady || now < windows.steady.endsBy)) headWake = wakeAt;
        continue;
      }
    } else {
      if (blocked.burst || blocked.steady) continue;
      if (item.cls === head.item.cls) {
        const headShare = head.item.share ?? config.share;
        // One no smaller, of no larger a share, fits only when the head does.
        if (item.cost >= head.item.cost && share <= headShare) continue;
        const keepsRoom = (w: WindowState, waitsForEnd: boolean) =>
          waitsForEnd || fits({ ...w, spent: w.spent + item.cost, own: w.own + item.cost }, head!.item.cost, headShare);
        if (!keepsRoom(windows.burst, head.blocked.burst) || !keepsRoom(windows.steady, head.blocked.steady)) continue;
      }
    }
    for (const w of [windows.burst, windows.steady]) {
      w.spent += item.cost;
      w.own += item.cost;
      w.by = { ...w.by, [ownerOf(item.id)]: (w.by?.[ownerOf(item.id)] ?? 0) + item.cost };
    }
    state.classes[item.cls] = windows;
    count += 1;
    const ticket: Ticket = {
      cls: item.cls,
      cost: item.cost,
      at: now,
      exp: now + Math.min(item.lifeMs ?? ticketLifeMs(config), ticketLifeMs(config)),
      burst: windows.burst.opened,
      steady: windows.steady.opened,
      live: count,
    };
    state.tickets[item.id] = ticket;
    // Granting is deciding: the owner is seen now.
    state.owners = { ...state.owners, [ownerOf(item.id)]: now };
    grants.push({ id: item.id, ticket });
  }
  // Owners are kept while they have tickets (a dead one's too: its record keeps them uncounted).
  if (state.owners !== undefined) {
    const holding = new Set(Object.keys(state.tickets).map(ownerOf));
    for (const owner of Object.keys(state.owners)) if (!holding.has(owner)) delete state.owners[owner];
    if (Object.keys(state.owners).length === 0) delete state.owners;
  }
  return { state, grants, wakeAt, precise: wakeAt === headWake };
}
