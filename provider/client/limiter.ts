/**
 * The account's rate limiter (spec, Limits; DESIGN.md "Rate limits"). One instance per account per
 * process (see `limiterRegistry.ts`), shared by every call; it wraps the one request function the
 * way octokit's `plugin-throttling` does (STYLE.md 3).
 *
 * Guarantees, per rate class:
 * - never admits more than `burst` cost within one burst window as we know it, nor more than
 *   `steady` cost within one steady window (see `FixedWindow` for the boundary guard);
 * - rides the fixed windows: admits up to a window's limit as fast as the concurrency cap allows,
 *   then waits for the boundary. It does not spread requests evenly, because the server counts in
 *   fixed windows and a window's unused budget is lost when it turns (300 class C requests take
 *   ~75 s: 150 in the first minute at 10 per second, the rest after the minute turns);
 * - believes the server: when `X-RateLimit-Remaining` says fewer remain than we think, another
 *   process spends on the same account, and our count is raised to the server's; our window's end
 *   moves to the server's `X-RateLimit-Reset` (see `FixedWindow` for why that is safe); once the
 *   server shows another process spending, we hold back its share too (see `FixedWindow`);
 * - admits in FIFO order, with backfilling: when the request at the head cannot go yet (its cost
 *   does not fit what is left of the window), a request behind it may go first, but only if that
 *   does not make the head wait one moment longer (checked on copies of the windows). So a costly
 *   request (`fields`) is never starved nor delayed by cheap ones, and the budget it cannot use in
 *   this window is not lost: strict FIFO left a cost-3 head idling while cost-1 requests behind it
 *   could fill the window (10, 8, 10, 8 ... per window on a 3+1+1+1 mix: 10% of the budget);
 * - never has more than `concurrency` requests in flight. A `Retry-After: -1` (spec, Limits 6)
 *   on a request admitted with k in flight (the machine's) proves the server allows fewer than k:
 *   the cap drops to k - 1 (by at most half, once per congestion event), and when k - 1 explains
 *   the refusal it is remembered as the ceiling. Below the ceiling the cap grows by one after each cap's worth of good
 *   responses; past it only once a steady window has passed since it was lowered (see
 *   `probeCeilingAfterMs`), since every probe past a limit the server really has costs a refused
 *   request and its backoff (AIMD with a memory);
 * - after a 429 with `Retry-After: N`, admits nothing for N seconds, and gives the refused cost back
 *   to the steady window (the server did not count it);
 * - with a `sharedStore`, all of the above holds for every limiter of the account on the machine
 *   together (the Pulumi program and the provider plugin are two processes on one account): the
 *   windows, the admitted cost, the pause, the in-flight count, the in-flight cap and its learned
 *   ceiling live in the store, and every decision is taken under its lock (see `sharedWindows.ts`).
 *   The in-flight cap then bounds the machine's requests in flight, not only this process's, and
 *   what one process learned of the in-flight limit spares the others their own refusals.
 *
 * Pure apart from the injected clock and the optional shared store: no wall-clock reads.
 */
import { BURST_WINDOW_MS, RATE_CLASSES, STEADY_WINDOW_MS } from "../catalog/rateClasses";
import type { RateClass, RateClassName } from "../catalog/types";
import { type Clock, type TimerHandle, systemClock } from "./clock";
import { FixedWindow, type WindowMark } from "./fixedWindow";
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";
import { processAlive, type SharedLimiterState, type SharedStore } from "./sharedWindows";

/** Bounds of the adaptive in-flight cap. */
export interface ConcurrencyOptions {
  /** Cap at start. */
  readonly initial: number;
  /** The cap never drops below this. */
  readonly min: number;
  /** The cap never grows above this. */
  readonly max: number;
}

/** Tunables of the limiter. Defaults in `LIMITER_DEFAULTS`. */
export interface LimiterOptions {
  /** Limits per rate class (spec, Limits 2). */
  readonly classes: Readonly<Record<RateClassName, RateClass>>;
  /** Burst window length, ms (1 s on the platform; scaled in tests and benchmarks). */
  readonly burstWindowMs: number;
  /** Steady window length, ms (60 s on the platform). */
  readonly steadyWindowMs: number;
  /**
   * Least guard around window boundaries, ms. The guard used is the larger of this and the
   * recently observed time from admission to response (an upper bound on the time a request takes
   * to reach the server), capped at a quarter of the burst window.
   */
  readonly guardMs: number;
  readonly concurrency: ConcurrencyOptions;
  readonly clock: Clock;
  /**
   * Share the account's budget with the other processes of this machine (default true; used by
   * `sharedLimiter`, which then supplies `sharedStore` and `epochClock` unless a clock is injected).
   */
  readonly shareAcrossProcesses: boolean;
  /** Where the budget is shared; none: this limiter counts alone. Times in it are `clock` times. */
  readonly sharedStore?: SharedStore;
}

// Decision (not shown in spec): the platform's in-flight limit is not given (spec, Limits 6). We
// start at 4 (enough for 10 per second at latencies up to 400 ms) and adapt between 1 and 8 (8 in
// flight carry a full burst window at latencies up to 800 ms; more would only probe for -1s).
/** Every default in one object, with units (STYLE.md 4). */
export const LIMITER_DEFAULTS: LimiterOptions = Object.freeze({
  classes: RATE_CLASSES,
  burstWindowMs: BURST_WINDOW_MS, // 1 s
  steadyWindowMs: STEADY_WINDOW_MS, // 60 s
  guardMs: 10, // 10 ms; grows with observed latency
  concurrency: Object.freeze({ initial: 4, min: 1, max: 8 }),
  clock: systemClock,
  shareAcrossProcesses: true,
});

/** Numbers the limiters of this process apart in a shared store. */
let limiterCount = 0;

/** What a caller wants admitted. */
export interface AdmissionRequest {
  readonly rateClass: RateClassName;
  /** Calls this request counts as (spec, Limits 7: 1 + one per `fields` subresource). */
  readonly cost: number;
  /**
   * When its call first queued (limiter clock); default: now. The queue is in this order, so a
   * retry goes back to its call's place instead of behind every call issued since.
   */
  readonly queuedSince?: number;
}

/** An admitted request: holds one in-flight slot until released. */
export interface Permit {
  readonly rateClass: RateClassName;
  readonly cost: number;
  /** Clock time of admission, ms. */
  readonly admittedAt: number;
  /** Releases the in-flight slot; idempotent. */
  release(): void;
}

/** What the limiter learns from a response. */
export interface ResponseObservation {
  readonly status: number;
  readonly rateLimit?: RateLimitInfo;
  readonly retryAfter?: RetryAfter;
}

/** State for debugging and tests. */
export interface LimiterSnapshot {
  readonly inFlight: number;
  readonly concurrency: number;
  readonly queued: number;
  /** Time left of a `Retry-After` pause, ms (0: none). */
  readonly pausedForMs: number;
  readonly guardMs: number;
  readonly windows: Readonly<
    Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>>
  >;
}

/** One window in a snapshot. */
export interface WindowSnapshot {
  readonly used: number;
  readonly limit: number;
  /** ms until the current window ends; undefined before first use. */
  readonly endsInMs: number | undefined;
  readonly synced: boolean;
}

interface ClassState {
  readonly burst: FixedWindow;
  readonly steady: FixedWindow;
  /** Cost admitted so far in this class: tells which admissions came after a given one. */
  admittedCost: number;
}

interface PermitRecord extends Permit {
  /** `admittedCost` of the class right after this admission. */
  readonly costMark: number;
  /** Order of admission, from 1. */
  readonly sequence: number;
  /** Requests in flight on the machine (this one included) right after its admission. */
  readonly inFlightAtAdmission: number;
  /** Where the request stands in the burst and steady windows it was charged to. */
  readonly burstMark: WindowMark;
  readonly steadyMark: WindowMark;
  released: boolean;
  /** Whether the windows were told where the server counted it (see `FixedWindow.settle`). */
  settled: boolean;
}

interface Waiter {
  readonly request: AdmissionRequest;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

/** The limiter. Construct through `sharedLimiter` so each account has exactly one per process. */
export class RateLimiter {
  readonly options: LimiterOptions;
  private readonly clock: Clock;
  private readonly states = new Map<RateClassName, ClassState>();
  private readonly queue: Waiter[] = [];
  private inFlight = 0;
  private cap: number;
  private goodSinceChange = 0;
  private admissions = 0;
  /** `admissions` when the cap was last lowered. */
  private admissionsAtDecrease = 0;
  /** Clock time the cap was last lowered. */
  private decreasedAt = Number.NEGATIVE_INFINITY;
  /** Highest cap the server's in-flight limit was seen to allow (Infinity: never refused). */
  private ceiling = Infinity;
  private pausedUntil = -Infinity;
  private latencyMs = 0;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  /** This limiter's name in the shared store's in-flight table: `<pid>:<n>`. */
  private readonly id = `${process.pid}:${++limiterCount}`;
  /** Requests in flight of the other limiters sharing the store, as of the last look. */
  private othersInFlight = 0;
  /** True while a shared-store transaction runs (transactions do not nest). */
  private inTransaction = false;

  constructor(options: Partial<LimiterOptions> = {}) {
    this.options = {
      ...LIMITER_DEFAULTS,
      ...options,
      concurrency: { ...LIMITER_DEFAULTS.concurrency, ...options.concurrency },
    };
    this.clock = this.options.clock;
    const { initial, min, max } = this.options.concurrency;
    this.cap = Math.min(max, Math.max(min, initial));
  }

  /**
   * Waits until the request may be sent inside both windows of its class and under the in-flight
   * cap, then returns a permit. Release the permit when the response body has been read.
   *
   * A cost above a window's limit could never be admitted; it is charged as the whole window
   * (the server counts it as one request with subresources, spec Limits 7).
   *
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  acquire(request: AdmissionRequest, signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        request,
        resolve,
        reject,
        signal,
        onAbort: signal
          ? () => {
              const index = this.queue.indexOf(waiter);
              if (index >= 0) this.queue.splice(index, 1);
              reject(signal.reason);
              this.pump();
            }
          : undefined,
      };
      if (signal && waiter.onAbort) signal.addEventListener("abort", waiter.onAbort, { once: true });
      this.enqueue(waiter);
      // With this process's cap full nothing can be admitted (see `pumpLocked`), and the next
      // release pumps: skip the look at the shared state. Hundreds of calls issued at once would
      // otherwise cost one lock-read-write each before the first of them is sent (~12 ms for 300).
      if (this.inFlight < this.cap) this.pump();
    });
  }

  /**
   * Queues `waiter` in the order its calls first queued (FIFO for first attempts). A retry keeps
   * its call's place: at the back, a call whose attempt met a 500 in the last windows of a run
   * waited behind every first attempt, then its backoff, and finished alone in a window of its own
   * after them (workload e of the bench ended 8, 1 instead of 9 in its last windows).
   */
  private enqueue(waiter: Waiter): void {
    const since = waiter.request.queuedSince;
    let index = this.queue.length;
    if (since !== undefined) {
      while (index > 0 && (this.queue[index - 1]!.request.queuedSince ?? Number.POSITIVE_INFINITY) > since) index -= 1;
    }
    this.queue.splice(index, 0, waiter);
  }

  /**
   * Learns from a response to `permit`'s request: the server's window (`X-RateLimit-*`), a pause
   * (`Retry-After` seconds), the in-flight limit (`Retry-After: -1`), and the latency that sizes
   * the boundary guard. Call once per response; `receivedAt` (clock time its headers arrived,
   * default now) dates what the headers say.
   *
   * With `release`, also releases the permit, in the same step: the client reads the (small) body
   * first and then calls this once, so a response costs one look at the machine's shared state
   * instead of two (each ~0.1-0.2 ms under load: a turn of the in-flight workload waited on both).
   */
  observe(permit: Permit, observation: ResponseObservation, options: { receivedAt?: number; release?: boolean } = {}): void {
    const record = permit as PermitRecord;
    this.transact(() => {
      this.observeLocked(record, observation, options.receivedAt ?? this.clock.now());
      if (options.release) this.markReleased(record);
      this.pumpLocked();
    });
  }

  private observeLocked(record: PermitRecord, observation: ResponseObservation, receivedAt: number): void {
    const now = this.clock.now();
    // Decaying maximum: one slow response widens the guard, which then narrows again.
    this.latencyMs = Math.max(receivedAt - record.admittedAt, this.latencyMs * 0.9);
    const described = observation.rateLimit ? this.sync(record, observation.rateLimit, receivedAt, now) : undefined;
    this.settle(record, observation.status === 429, described, now);
    if (observation.status === 429 && observation.retryAfter?.kind === "delay") {
      // spec, Limits 4: the account is at its limit; nobody on it gets through until Retry-After.
      this.pausedUntil = Math.max(this.pausedUntil, receivedAt + observation.retryAfter.ms);
      // Refused, so not counted: the steady window keeps the budget (the pause covers the burst
      // window, which the refusal shows full on the server).
      const state = this.state(record.rateClass);
      state.steady.refund(record.steadyMark, Math.min(record.cost, state.steady.limit), now);
    } else if (observation.status === 429 && observation.retryAfter?.kind === "concurrency") {
      this.lowerConcurrency(record);
    } else if (observation.status !== 429) {
      this.raiseConcurrencySlowly();
    }
  }

  /** Current state, for debug lines and tests. */
  snapshot(): LimiterSnapshot {
    if (this.options.sharedStore) this.transact(() => undefined);
    const now = this.clock.now();
    const windows: Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>> = {};
    for (const [name, state] of this.states) windows[name] = { burst: state.burst.view(now), steady: state.steady.view(now) };
    return {
      inFlight: this.inFlight,
      concurrency: this.cap,
      queued: this.queue.length,
      pausedForMs: Math.max(0, this.pausedUntil - now),
      guardMs: this.guardMs(),
      windows,
    };
  }

  private state(rateClass: RateClassName): ClassState {
    let state = this.states.get(rateClass);
    if (!state) {
      const limits = this.options.classes[rateClass];
      state = {
        burst: new FixedWindow(this.options.burstWindowMs, limits.burst, this.pollMs()),
        steady: new FixedWindow(this.options.steadyWindowMs, limits.steady, this.pollMs()),
        admittedCost: 0,
      };
      this.states.set(rateClass, state);
    }
    return state;
  }

  /**
   * How often to look again for what other processes of the machine did (their answers and
   * releases, which we do not hear): a fiftieth of a burst window, at least 0.5 ms.
   */
  private pollMs(): number {
    return Math.max(0.5, this.options.burstWindowMs / 50);
  }

  private guardMs(): number {
    return Math.min(this.options.burstWindowMs / 4, Math.max(this.options.guardMs, this.latencyMs));
  }

  /**
   * Runs `fn` with the shared state loaded into this limiter and saves it after, under the store's
   * lock; without a store, just runs `fn`.
   */
  private transact<T>(fn: () => T): T {
    const store = this.options.sharedStore;
    if (!store || this.inTransaction) return fn();
    return store.update((shared) => {
      this.inTransaction = true;
      try {
        this.load(shared);
        const result = fn();
        this.save(shared);
        return result;
      } finally {
        this.inTransaction = false;
      }
    });
  }

  /** Takes over the machine's view of the account. */
  private load(shared: SharedLimiterState): void {
    for (const [name, saved] of Object.entries(shared.classes)) {
      if (!(name in this.options.classes)) continue;
      const state = this.state(name as RateClassName);
      state.burst.restoreState(saved.burst);
      state.steady.restoreState(saved.steady);
      state.admittedCost = saved.admittedCost;
    }
    if (shared.pausedUntil !== null) this.pausedUntil = Math.max(this.pausedUntil, shared.pausedUntil);
    if (shared.concurrency) {
      const { min, max } = this.options.concurrency;
      this.cap = Math.min(max, Math.max(min, shared.concurrency.cap));
      this.ceiling = shared.concurrency.ceiling ?? Infinity;
      this.decreasedAt = shared.concurrency.decreasedAt ?? Number.NEGATIVE_INFINITY;
    }
    this.othersInFlight = 0;
    for (const [id, count] of Object.entries(shared.inFlight)) {
      if (id === this.id) continue;
      const pid = Number(id.split(":")[0]);
      // A process that died has nothing in flight any more.
      if (pid !== process.pid && !processAlive(pid)) {
        delete shared.inFlight[id];
        continue;
      }
      this.othersInFlight += count;
    }
  }

  /** Writes this limiter's view back for the machine. */
  private save(shared: SharedLimiterState): void {
    for (const [name, state] of this.states) {
      shared.classes[name] = { burst: state.burst.exportState(), steady: state.steady.exportState(), admittedCost: state.admittedCost };
    }
    shared.pausedUntil = Number.isFinite(this.pausedUntil) ? this.pausedUntil : null;
    shared.concurrency = {
      cap: this.cap,
      ceiling: Number.isFinite(this.ceiling) ? this.ceiling : null,
      decreasedAt: Number.isFinite(this.decreasedAt) ? this.decreasedAt : null,
    };
    if (this.inFlight > 0) shared.inFlight[this.id] = this.inFlight;
    else delete shared.inFlight[this.id];
  }

  /** Admits waiters in order while they fit (see `pumpLocked`), in one shared-store transaction. */
  private pump(): void {
    this.transact(() => this.pumpLocked());
  }

  /** Admits waiters in order while they fit; otherwise sets one timer for when the head may fit. */
  private pumpLocked(): void {
    while (this.queue.length > 0) {
      if (this.inFlight >= this.cap) return; // a release pumps again
      if (this.inFlight + this.othersInFlight >= this.cap) {
        // The machine's cap is full with other processes' requests, whose releases we do not hear:
        // look again shortly.
        this.wakeAt(this.clock.now() + this.pollMs());
        return;
      }
      const head = this.queue[0]!;
      const now = this.clock.now();
      const wait = this.waitMs(head.request, now);
      if (wait > 0) {
        this.wakeAt(now + wait);
        this.backfill(head.request, now);
        return;
      }
      this.queue.shift();
      if (head.signal && head.onAbort) head.signal.removeEventListener("abort", head.onAbort);
      head.resolve(this.admit(head.request, now));
    }
  }

  /**
   * Admits waiters behind a head that must wait, while they fit now and do not delay the head
   * (EASY backfilling, as batch schedulers do it: a job may jump the queue only if the first job's
   * start does not move). Nothing jumps a `Retry-After` pause. Only a cheaper request of the head's
   * class, or one of another class, can fit where the head does not.
   */
  private backfill(head: AdmissionRequest, now: number): void {
    if (now < this.pausedUntil) return;
    const guard = this.guardMs();
    const headState = this.state(head.rateClass);
    const headAt = this.earliestFit(head, [headState.burst.clone(), headState.steady.clone()], now, guard);
    for (let i = 1; i < this.queue.length; ) {
      if (this.inFlight >= this.cap || this.inFlight + this.othersInFlight >= this.cap) return;
      const waiter = this.queue[i]!;
      const { request } = waiter;
      const sameClass = request.rateClass === head.rateClass;
      if ((sameClass && request.cost >= head.cost) || this.waitMs(request, now) > 0) {
        i += 1;
        continue;
      }
      if (sameClass) {
        // Try the charge on copies: the head must still fit at `headAt`.
        const windows = [headState.burst.clone(), headState.steady.clone()];
        for (const w of windows) w.charge(Math.min(request.cost, w.limit), now, guard);
        if (this.earliestFit(head, windows, now, guard) > headAt) {
          i += 1;
          continue;
        }
      }
      this.queue.splice(i, 1);
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      waiter.resolve(this.admit(request, now));
    }
  }

  /** Earliest time from `now` at which `request` fits both `windows` (copies: they are changed). */
  private earliestFit(request: AdmissionRequest, windows: readonly FixedWindow[], now: number, guard: number): number {
    let at = now;
    // Each step moves to a window end or the expiry of a carried charge; a few steps settle it.
    for (let step = 0; step < 8; step += 1) {
      const wait = Math.max(...windows.map((w) => w.waitMs(Math.min(request.cost, w.limit), at, guard)));
      if (wait <= 0) return at;
      at += wait;
    }
    return at;
  }

  private waitMs(request: AdmissionRequest, now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const state = this.state(request.rateClass);
    const guard = this.guardMs();
    for (const window of [state.burst, state.steady]) {
      const wait = window.waitMs(Math.min(request.cost, window.limit), now, guard);
      if (wait > 0) return wait;
    }
    return 0;
  }

  private admit(request: AdmissionRequest, now: number): Permit {
    const state = this.state(request.rateClass);
    const guard = this.guardMs();
    const charge = (window: FixedWindow) => window.charge(Math.min(request.cost, window.limit), now, guard);
    const burstMark = charge(state.burst);
    const steadyMark = charge(state.steady);
    state.admittedCost += request.cost;
    this.inFlight += 1;
    this.admissions += 1;
    const record: PermitRecord = {
      sequence: this.admissions,
      inFlightAtAdmission: this.inFlight + this.othersInFlight,
      rateClass: request.rateClass,
      cost: request.cost,
      admittedAt: now,
      costMark: state.admittedCost,
      burstMark,
      steadyMark,
      released: false,
      settled: false,
      release: () => {
        if (!this.markReleased(record)) return;
        this.transact(() => {
          // Released without an answer (network failure): counted, where unknown.
          this.settle(record, false, undefined, this.clock.now());
          this.pumpLocked();
        });
      },
    };
    return record;
  }

  /** Frees `record`'s in-flight slot; false when it was already freed. */
  private markReleased(record: PermitRecord): boolean {
    if (record.released) return false;
    record.released = true;
    this.inFlight -= 1;
    return true;
  }

  private wakeAt(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    // A window boundary is worth waking for on time: every millisecond late idles the window.
    const setTimer = this.clock.setPreciseTimer?.bind(this.clock) ?? this.clock.setTimer.bind(this.clock);
    this.timer = setTimer(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, at - this.clock.now());
  }

  /**
   * Stays in step with the server (spec, Limits 5). The headers describe one window: the one whose
   * limit `X-RateLimit-Limit` equals; when it equals neither, the steady one.
   */
  private sync(permit: PermitRecord, info: RateLimitInfo, receivedAt: number, now: number): { window: FixedWindow; boundary: number | undefined } {
    const state = this.state(permit.rateClass);
    const limits = this.options.classes[permit.rateClass];
    // Decision (not shown in spec): which window the X-RateLimit headers describe is not said;
    // we match `X-RateLimit-Limit` against the class's burst and steady limits, steady otherwise.
    const window = info.limit === limits.burst && limits.burst !== limits.steady ? state.burst : state.steady;
    // The server's limit is the truth when it is lower (never raise above the catalog's class).
    window.lowerLimit(info.limit);
    // Believe the server when it has counted more than we have: what it counted up to this request,
    // plus what we admitted after it (which it may not have seen yet).
    const serverCount = info.limit - info.remaining;
    const admittedSince = state.admittedCost - permit.costMark;
    const boundary = info.resetMs === undefined ? undefined : receivedAt + info.resetMs;
    const mark = window === state.burst ? permit.burstMark : permit.steadyMark;
    window.applyServerReport(mark, boundary, serverCount, admittedSince, now, this.options.sharedStore !== undefined);
    return { window, boundary };
  }

  /**
   * Tells both windows of `record`'s class that its request was answered: refused (a 429, not
   * counted), or counted in the server window the response's headers describe (`described`).
   */
  private settle(
    record: PermitRecord,
    refused: boolean,
    described: { window: FixedWindow; boundary: number | undefined } | undefined,
    now: number,
  ): void {
    if (record.settled) return;
    record.settled = true;
    const state = this.state(record.rateClass);
    for (const [window, mark] of [[state.burst, record.burstMark], [state.steady, record.steadyMark]] as const) {
      const cost = Math.min(record.cost, window.limit);
      const boundary = described?.window === window ? described.boundary : undefined;
      window.settle(mark, cost, refused ? { refused: true } : { refused: false, boundary }, now);
    }
  }

  private lowerConcurrency(permit: PermitRecord): void {
    // One decrease per congestion event: responses to requests admitted before the last decrease
    // describe the old cap. The decrease may have been another process's (shared `decreasedAt`):
    // then only the time tells.
    if (permit.sequence <= this.admissionsAtDecrease || permit.admittedAt < this.decreasedAt) return;
    // The server had its limit in flight when this request arrived: it allows fewer than we had.
    const allowed = Math.max(this.options.concurrency.min, permit.inFlightAtAdmission - 1);
    // Down to what it allows, but by at most half at once (a refusal caused by another machine's
    // requests says little about the limit), and always by at least one.
    this.cap = Math.max(this.options.concurrency.min, Math.floor(this.cap / 2), Math.min(allowed, this.cap - 1));
    // Our own count explains the refusal: that is the server's limit, remembered. A refusal with
    // fewer of ours in flight than the new cap came from someone else's requests: no ceiling. Nor
    // when it was alone in flight: no server allows fewer than one, so someone else's requests (or
    // a storm) filled the limit, and a ceiling of 1 would hold the cap there for a whole steady window.
    if (allowed >= this.cap && permit.inFlightAtAdmission > 1) this.ceiling = this.cap;
    this.admissionsAtDecrease = this.admissions;
    this.decreasedAt = this.clock.now();
    this.goodSinceChange = 0;
  }

  // Decision (not shown in spec, Limits 6): the in-flight limit is a number the server does not
  // publish, an account setting rather than a load signal; once a -1 showed it, the cap tries past
  // it again once per steady window (60 s), so a raised limit is found within a minute at the cost
  // of one refusal a minute. (Counting good answers instead, 32 caps' worth, probed every ~30 s at
  // a limit of 2 and cost workload d of the bench 4 of its 6 refusals and ~1.5% of its time.)
  /** Time after a decrease before the cap grows past a learned ceiling, ms (clock units). */
  private probeCeilingAfterMs(): number {
    return this.options.steadyWindowMs;
  }

  private raiseConcurrencySlowly(): void {
    this.goodSinceChange += 1;
    if (this.goodSinceChange < this.cap || this.cap >= this.options.concurrency.max) return;
    if (this.cap >= this.ceiling && this.clock.now() - this.decreasedAt < this.probeCeilingAfterMs()) return;
    this.cap += 1;
    this.goodSinceChange = 0;
  }
}
