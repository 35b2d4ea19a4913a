/**
 * The rate limiter's decisions (spec, Limits 1-7), tested rule by rule as traces since they are a pure
 * function of the account's state, the events since the last decision, the queue and the time.
 * No I/O and no clock: the driver (`limiter.ts`) brings the time, a store brings the state.
 *
 * Each rule of the model is one function here: `fits` (room), `windowsAt` and `learn` (a window's
 * uncertain end, what others spend), `refused` (a refusal of either kind), tickets that expire by
 * themselves (`live`), and `bounded` (no wait longer than the windows allow).
 */
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";
import { freshState, type LimiterState, type Ticket, type WindowState } from "./limiterState";

/** The model's parameters. */
export interface ModelConfig {
  readonly classes: Readonly<Record<string, { readonly burst: number; readonly steady: number }>>;
  readonly burstWindowMs: number;
  readonly steadyWindowMs: number;
  /** How long a request may take to reach the server, for a window's end guessed before any answer, ms. */
  readonly guardMs: number;
  readonly concurrency: { readonly initial: number; readonly min: number; readonly max: number };
  /** The share of every window a request that names none may spend (1: all of it). */
  readonly share: number;
  /**
   * How long an attempt may last (the client's request timeout), ms: the life of a ticket whose
   * request names none, and the longest any ticket read lives. None: `ATTEMPT_MS`.
   */
  readonly ticketLifeMs?: number;
}

/** A request waiting for a grant: its ticket id, rate class and cost (spec, Limits 7). */
export interface Waiting {
  readonly id: string;
  readonly cls: string;
  readonly cost: number;
  /**
   * Its caller's share of every window (the caller's `rateLimitShare`); none: the model's `share`.
   * Requests of one account with different shares share its windows, and each fits only within
   * its own share's room, so together they never spend more than the largest share.
   */
  readonly share?: number;
  /** How long its attempt may last (its request's timeout), ms: its ticket's life; none: the model's `ticketLifeMs`. */
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
  /**
   * The limiter `owner` holds exactly the permits `ids`: its other tickets were released, perhaps
   * while it decided on another store (a fallback ladder's lower rung), where the release was applied.
   * Sent with every decision, so it also says the owner lives (`LimiterState.owners`).
   */
  | { readonly kind: "holds"; readonly owner: string; readonly ids: readonly string[] };

export interface Decision {
  readonly state: LimiterState;
  /** Tickets granted, in queue order. */
  readonly grants: readonly { readonly id: string; readonly ticket: Ticket }[];
  /** When to decide again if nothing else happens (Infinity: on the next event). */
  readonly wakeAt: number;
  /** Whether `wakeAt` is a window's end, worth a precise timer (not a look for others' releases). */
  readonly precise: boolean;
}

// Decision (not shown in spec): latency is not specified; the client's default whole-attempt
// timeout (`provider/client/timeouts.ts`, `requestMs`) is 60 s, and a ticket lives as long as its
// attempt can, so a slow request counts against the cap until it ends.
/** How long an attempt may last when the limiter is told nothing else, ms (the client's default `requestMs`). */
export const ATTEMPT_MS = 60_000;
/** The longest a ticket lives (60 s on the platform) unless released first, or its owner stops deciding. */
export const ticketLifeMs = (config: ModelConfig) => config.ticketLifeMs ?? ATTEMPT_MS;
/**
 * An owner (a limiter) lives while it decides: one holding tickets decides at least every
 * `heartbeatMs`, and one not seen for `livenessMs` is taken for dead, its tickets no longer counted
 * against the cap. A sixth of a steady window (10 s on the platform): a killed process holds the
 * cap no longer than tickets lived before they lived as long as their attempt (`ticketLifeMs`).
 */
export const livenessMs = (config: ModelConfig) => config.steadyWindowMs / 6;
/** How often a limiter holding tickets decides at least, ms: half the liveness period, so one late heartbeat is not a death. */
export const heartbeatMs = (config: ModelConfig) => livenessMs(config) / 2;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * Bounded waits: every time and count read is cut to what the windows make plausible, so a state
 * written by a broken or hostile process slows the account by at most a window, once.
 */
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
      // Per-limiter counts are part of `own`: ones that are not are not believed.
      const by = Object.entries(w.by ?? {}).filter(([, cost]) => cost > 0);
      w.by = by.reduce((sum, [, cost]) => sum + cost, 0) <= w.own ? Object.fromEntries(by) : undefined;
      w.carry = Math.max(0, w.carry);
      w.carryUntil = Math.min(w.carryUntil, reach(length));
      w.limit = clamp(w.limit, Math.ceil(limit / 2), limit);
    }
  }
  // A ticket whose owner is kept lives its attempt's life at most; one whose owner is not (written by
  // a release that kept no owners, whose tickets lived that long) the liveness period at most.
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

/** Tickets in flight: one not released expires by itself, giving back its slot in the cap but not its cost: the state
 *  keeps it, uncounted, until `windowsAt` carried it into the window after each window it lived in. */
function live(state: LimiterState, now: number): [string, Ticket][] {
  return Object.entries(state.tickets).filter(([, ticket]) => ticket.exp > now);
}

/**
 * The windows of `cls` as they stand at `now`: a window surely over is replaced by the next, empty
 * but for the requests that may have been counted in it. The server opens its next window at the
 * first request to arrive after the last one ended: no later than our first one arrives (within a
 * guard), and no earlier than the last window ended, when one of those requests may have opened it.
 */
function windowsAt(state: LimiterState, cls: string, now: number, config: ModelConfig): { burst: WindowState; steady: WindowState } {
  const limits = config.classes[cls]!;
  const saved = state.classes[cls];
  const next = (w: WindowState | undefined, kind: "burst" | "steady", length: number, limit: number): WindowState => {
    if (w !== undefined && (now < w.endsBy || unheard(state, cls, kind, w, now))) return w;
    // Requests unanswered as it ends (admitted in it or before, their tickets alive in it) may arrive after it ended.
    const unanswered = Object.values(state.tickets).filter((t) => t.cls === cls && w !== undefined && t.exp > w.opened);
    // An answered one opened the server's next window no later than its answer arrived: once that
    // window is surely over, its cost is in no window our grants can reach.
    const late = w !== undefined && now < w.carryUntil ? w.carry : 0;
    const carry = late + unanswered.reduce((sum, t) => sum + t.cost, 0);
    // What each limiter's unanswered requests may add to the next window is theirs there too.
    const by: Record<string, number> = {};
    for (const [id, t] of Object.entries(state.tickets))
      if (t.cls === cls && w !== undefined && t.exp > w.opened) by[ownerOf(id)] = (by[ownerOf(id)] ?? 0) + t.cost;
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

/**
 * A window whose end is still our guess does not end while its requests are unanswered: the guess
 * assumed they reached the server within the guard, and only an answer says whether they did. Their
 * tickets expire by themselves, so this holds a window a ticket's life at most.
 */
function unheard(state: LimiterState, cls: string, kind: "burst" | "steady", w: WindowState, now: number): boolean {
  return !w.heard && Object.values(state.tickets).some((t) => t.cls === cls && t[kind] === w.opened && t.exp > now);
}

/**
 * Room: `cost` fits when our own spend stays within the window's limit × the request's share and the account's
 * (ours and others', as the server counted it) within the limit; an empty window takes any cost
 * (as the server does).
 */
function fits(w: WindowState, cost: number, share: number): boolean {
  return w.spent === 0 || (w.own + cost <= roomOf(w.limit, share) && w.spent + cost <= w.limit);
}

/** A window's room for the sharers' own spend: the share of its limit, at least 1. */
export function roomOf(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}

/**
 * What an answer says about the windows its request was admitted in. The server counted it when it
 * arrived, between its admission and its answer: in its window when the answer came before the
 * window's earliest end, or its `X-RateLimit-Reset` gives an end before the next window's earliest
 * one; else it may have been counted in the next window, and is charged there too. An answer
 * counted in its window raises the count to the server's (`X-RateLimit-Remaining` is the account's,
 * spec Limits 5) and narrows the span of its end (`X-RateLimit-Reset` was written between admission
 * and arrival). `X-RateLimit-Limit` above the class's burst limit describes the steady window; one
 * below half the class's limit is not believed (it contradicts spec, Limits 2, too far).
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
    // The server's window was open when the request arrived: it ends a length after the answer at
    // the latest, or where the Reset says. The first answer replaces our guess; later ones narrow it.
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
 * A refusal: the server did not count the request, so its cost leaves every window it was charged
 * to. `Retry-After: N` reports that the window it was counted in (the burst one when N is no
 * longer, else the steady one) is full until its end, no later than N (cut to a steady window);
 * about a window already over it says nothing. `Retry-After: -1` is the concurrency limit (spec,
 * Limits 6): the cap drops to the tickets live at the request's admission less one (by at most
 * half, at least to 1), once per congestion.
 */
function refused(
  state: LimiterState,
  owner: string,
  ticket: Ticket,
  retryAfter: RetryAfter | undefined,
  receivedAt: number,
  now: number,
  config: ModelConfig,
): void {
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
  const { ticket, receivedAt } = event;
  if (event.status === 429) return refused(state, ownerOf(event.id), ticket, event.retryAfter, receivedAt, now, config);
  answered(state, now, config);
  learn(state, ticket, event.report, receivedAt, config);
}

/**
 * The decision: the events applied, expired tickets dropped, then the queue admitted in order
 * while requests fit. A request behind a head that does not fit may go first only when it fits
 * now, is not charged to a next window, and leaves the head its room in every window the head is
 * not waiting for the end of: the head's earliest grant does not move.
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
  // An owner not seen for the liveness period is dead: its tickets stop counting against the cap
  // (their cost stays in their windows, as an expired ticket's does). A ticket whose owner has no
  // record (written by a release before owners were kept) lives to its expiry.
  const deadline = (id: string) => {
    const seen = state.owners?.[ownerOf(id)];
    return seen === undefined ? Number.POSITIVE_INFINITY : seen + livenessMs(config);
  };
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
      // The next release frees a slot (ours wake the driver, others' are heard through the store),
      // or the first ticket to stop counting: the time is known.
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
        // A window held past its guessed end for answers: an answer decides again (ours, or others'
        // heard through the store), else it ends when the last ticket holding it stops counting.
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
  // Owners are kept while they have tickets (a dead one's too: its record is what keeps them uncounted).
  if (state.owners !== undefined) {
    const holding = new Set(Object.keys(state.tickets).map(ownerOf));
    for (const owner of Object.keys(state.owners)) if (!holding.has(owner)) delete state.owners[owner];
    if (Object.keys(state.owners).length === 0) delete state.owners;
  }
  return { state, grants, wakeAt, precise: wakeAt === headWake };
}

/** The limiter a ticket id belongs to: ids are `<limiter>#<n>`. */
export function ownerOf(id: string): string {
  return id.slice(0, id.lastIndexOf("#") + 1);
}
