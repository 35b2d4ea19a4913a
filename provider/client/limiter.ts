/**
 * The account's rate limiter (spec, Limits; docs/ARCHITECTURE.md, "The rate limiter"): the queue
 * every request of the account waits in, and the one place that decides when it may go. One
 * instance per account per process (see `limiterRegistry.ts`), shared by every call; it wraps the
 * one request function the way octokit's `plugin-throttling` does. The queue, its backfilling, its
 * timers and the way responses reach the units are one admission procedure, whose public types are
 * declared with it.
 *
 * It orchestrates three units, each with its rules and tests:
 * - `RateClassWindows` (`rateClassWindows.ts`, on `FixedWindow`): per rate class, the burst and
 *   steady windows as the server counts them, kept in step with its `X-RateLimit-*` headers;
 * - `InFlightCap` (`inFlightCap.ts`): the adaptive cap on requests in flight;
 * - a `LimiterStore` (`limiterStore.ts`), optional: where the account's limiters share all of it,
 *   reached through `StoreTransactions` (`storeTransactions.ts`), which runs this limiter's
 *   transactions one at a time.
 *
 * Guarantees:
 * - never admits a request before both windows of its class have room for it, nor more than the
 *   cap in flight (counting the requests in flight of every limiter on the store);
 * - rides the fixed windows: admits up to a window's limit as fast as the cap allows, then waits
 *   for the boundary. It does not spread requests evenly, because the server counts in fixed
 *   windows and a window's unused budget is lost when it turns (300 class C requests take ~75 s:
 *   150 in the first minute at 10 per second, the rest after the minute turns);
 * - admits in FIFO order, with backfilling: when the request at the head cannot go yet (its cost
 *   does not fit what is left of the window), a request behind it may go first, but only if that
 *   does not make the head wait one moment longer (tried on a copy of the windows). So a costly
 *   request (`fields`) is never starved nor delayed by cheap ones, and the budget it cannot use in
 *   this window is not lost: under strict FIFO a cost-3 head that does not fit idles the rest of
 *   the window, which cost-1 requests behind it could fill (on a 3+1+1+1 mix, windows of 10, 8,
 *   10, 8 ...: a tenth of the budget);
 * - after a 429 with `Retry-After: N`, admits nothing for N seconds (spec, Limits 4), at most one
 *   steady window, or until the end of the refused window when an answer or our guess puts it
 *   sooner (N is whole seconds, rounded up), or, for a request sent before the current burst
 *   window, until an answer in it shows room (see `observeLocked`); and gives the refused cost
 *   back to the steady window (the server did not count it);
 * - never waits longer than the spec's windows make plausible for anything a header or a shared
 *   store says (`plausibleTimes.ts`): an odd answer or a broken store slows the account by at most
 *   a window at a time, and no timer it sets can fire early and spin (`clock.ts`);
 * - with a `sharedStore`, all of the above holds for every limiter on the store together (the
 *   Pulumi program and the provider plugin are two processes on one account): the windows, the
 *   admitted cost, the pause, the in-flight counts and the cap live in the store, and every
 *   decision is taken in one of its transactions. A limiter's transactions run one at a time, in
 *   the order asked for: while one is pending on an asynchronous store, the next waits its turn.
 *   A waiting call fails with the store's error when an asynchronous store fails a transaction.
 *
 * Pure apart from the injected clock and the optional store: no wall-clock reads.
 */
import { BURST_WINDOW_MS, RATE_CLASSES, STEADY_WINDOW_MS } from "../catalog/rateClasses";
import type { RateClass, RateClassName } from "../catalog/types";
import { type Clock, type TimerHandle, systemClock } from "./clock";
import type { WindowView } from "./fixedWindow";
import { type CapAdmission, type ConcurrencyOptions, InFlightCap } from "./inFlightCap";
import { type LimiterState, type LimiterStore, limiterId } from "./limiterStore";
import { MAX_GUARD_SHARE, notAfter } from "./plausibleTimes";
import { type ClassMark, RateClassWindows, type ReportedWindow } from "./rateClassWindows";
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";
import { StoreTransactions } from "./storeTransactions";

export type { ConcurrencyOptions } from "./inFlightCap";

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
  readonly sharedStore?: LimiterStore;
}

// Decision (not shown in spec): the platform's in-flight limit is not given (spec, Limits 6). We
// start at 4 (enough for 10 per second at latencies up to 400 ms) and adapt between 1 and 8 (8 in
// flight carry a full burst window at latencies up to 800 ms; more would only probe for -1s).
/** Every default in one object, with units. */
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

/** One window in a snapshot. */
export type WindowSnapshot = WindowView;

/** State for debugging and tests. */
export interface LimiterSnapshot {
  readonly inFlight: number;
  readonly concurrency: number;
  readonly queued: number;
  /** Time left of a `Retry-After` pause, ms (0: none). */
  readonly pausedForMs: number;
  readonly guardMs: number;
  readonly windows: Readonly<Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>>>;
}

interface PermitRecord extends Permit, CapAdmission {
  /** Where the request stands in its class's windows. */
  readonly mark: ClassMark;
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

/**
 * Whether `request` cannot be admitted before `head`, which waits: of the head's rate class and
 * costing no less, it does not fit where the head does not (only a cheaper request of the head's
 * class, or one of another class, may backfill).
 */
function cannotPass(head: AdmissionRequest, request: AdmissionRequest): boolean {
  return request.rateClass === head.rateClass && request.cost >= head.cost;
}

/** The limiter. Construct through `sharedLimiter` so each account has exactly one per process. */
export class RateLimiter {
  readonly options: LimiterOptions;
  private readonly clock: Clock;
  private readonly classes = new Map<RateClassName, RateClassWindows>();
  private readonly cap: InFlightCap;
  private readonly queue: Waiter[] = [];
  private inFlight = 0;
  /**
   * Requests admitted whose answer the windows have not taken in yet (`settle`): a released
   * request stays here until the transaction that settles it, so the store never shows fewer
   * requests pending than the windows still wait to hear about.
   */
  private unsettled = 0;
  /** Requests in flight of the other limiters sharing the store, as of the last transaction. */
  private othersInFlight = 0;
  private pausedUntil = -Infinity;
  /**
   * When the pause was set by a refusal of a request admitted in an earlier burst window than the
   * current one, that current window's generation: an answer in it showing room ends the pause
   * (`observeLocked`). Null for any other pause.
   */
  private pauseLiftableIn: number | null = null;
  private latencyMs = 0;
  /** The pending wake-up; undefined when none (a `TimerHandle` is opaque, so the type says both). */
  private timer: TimerHandle = undefined;
  private timerAt = Infinity;
  /** This limiter's name in the store's in-flight table, unique across machines (`limiterId`). */
  private readonly id = limiterId(++limiterCount);
  /** This limiter's transactions on `options.sharedStore`; none without a store. */
  private readonly transactions: StoreTransactions | undefined;

  constructor(options: Partial<LimiterOptions> = {}) {
    this.options = {
      ...LIMITER_DEFAULTS,
      ...options,
      concurrency: { ...LIMITER_DEFAULTS.concurrency, ...options.concurrency },
    };
    this.clock = this.options.clock;
    // Decision (not shown in spec, Limits 6): the in-flight limit is a number the server does not
    // publish, an account setting rather than a load signal; once a -1 showed it, the cap tries
    // past it again once per steady window (60 s), so a raised limit is found within a minute at
    // the cost of one refusal a minute. Counting good answers instead would probe more often the
    // smaller the limit is (a small cap's worth of answers comes fast), each probe a refusal.
    this.cap = new InFlightCap(this.options.concurrency, this.options.steadyWindowMs);
    const store = this.options.sharedStore;
    this.transactions = store
      ? new StoreTransactions(store, {
          adopt: (state) => this.adopt(state),
          publish: (state) => this.publish(state),
          failed: (error) => this.failWaiting(error),
        })
      : undefined;
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
      // Skip the look at the store when it cannot admit this call: with this process's cap full
      // (the next release pumps), or behind a head of its class that costs no more and is waiting
      // (a pump could not admit this one before it, see `backfill`; the head's timer or a release
      // pumps). Hundreds of calls issued at once would otherwise cost one store transaction each,
      // every one of them reading what another process wrote, before the first of them is sent.
      if (this.inFlight < this.cap.value && !this.behindWaitingHead(waiter)) this.pump();
    });
  }

  /** Whether `waiter` queued behind a head it cannot pass (see `cannotPass`), which a pump left waiting. */
  private behindWaitingHead(waiter: Waiter): boolean {
    const head = this.queue[0]!;
    return head !== waiter && cannotPass(head.request, waiter.request);
  }

  /**
   * Queues `waiter` in the order its calls first queued (FIFO for first attempts). A retry keeps
   * its call's place: at the back, a call whose attempt failed near the end of a run would wait
   * behind every first attempt issued since, then its backoff, and finish alone in a window of
   * its own after them.
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
   * first and then calls this once, so a response costs one store transaction instead of two.
   */
  observe(permit: Permit, observation: ResponseObservation, options: { receivedAt?: number; release?: boolean } = {}): void {
    const record = permit as PermitRecord;
    const receivedAt = options.receivedAt ?? this.clock.now();
    if (options.release) this.markReleased(record);
    this.transact(() => {
      this.observeLocked(record, observation, receivedAt);
      this.pumpLocked();
    });
  }

  private observeLocked(record: PermitRecord, observation: ResponseObservation, receivedAt: number): void {
    const now = this.clock.now();
    // Decaying maximum: one slow response widens the guard, which then narrows again.
    this.latencyMs = Math.max(receivedAt - record.admittedAt, this.latencyMs * 0.9);
    const windows = this.windowsOf(record.rateClass);
    const machineShared = this.options.sharedStore !== undefined;
    const reported = observation.rateLimit
      ? windows.applyServerReport(record.mark, observation.rateLimit, receivedAt, now, machineShared)
      : undefined;
    const refused = observation.status === 429;
    this.settle(record, refused ? { refused: true } : { refused: false, reported }, now);
    if (refused && observation.retryAfter?.kind === "delay") {
      // spec, Limits 4: the account is at its limit; nobody on it gets through until Retry-After.
      // Decision (not shown in spec): no longer than a steady window (spec, Limits 1), which is the
      // longest any full window takes to refresh. A longer Retry-After (an hour, 10^12 s) is the
      // refused call's answer, which its retry budget judges (`retryPolicy.ts`); the account's other
      // calls, and every process sharing its state, try again after a window and hear for themselves.
      const pauseMs = Math.min(observation.retryAfter.ms, this.options.steadyWindowMs);
      // Refused, so not counted: the steady window keeps the budget (before the refusal fills the
      // window it is about, which may be the steady one).
      windows.refundSteady(record.mark, record.cost, now);
      // Decision (not shown in spec): Retry-After is whole seconds rounded up (HTTP's delta-seconds),
      // so up to a second later than the end of the window the refusal is about: the burst window
      // when it is no longer than that window, else the steady one. The account waits until the
      // earliest end it knows of that window instead, counting it full (`FixedWindow.fillUntilEnd`:
      // an answer's `X-RateLimit-Reset`, the account's window, spec Limits 5; another refusal's
      // bound; for the steady window, our own guess). Waiting the whole Retry-After would leave most
      // of the next burst window idle for this machine, and start the next steady window up to a
      // second late, which is what refusals are about when others share the account.
      const bound = receivedAt + pauseMs;
      const aboutBurst = observation.retryAfter.ms <= this.options.burstWindowMs;
      // Decision: only a burst refusal counts the others' spend. A steady window opens with that
      // room held until halfway, half a minute at the platform, and a refusal there can also come
      // from our own window being out of step with the server's, not from others.
      if (aboutBurst) windows.burst.countOthersFromRefusal(record.mark.burst, Math.min(record.cost, windows.burst.limit), now);
      const about = aboutBurst
        ? windows.burst.fillUntilEnd(record.mark.burst, bound, now)
        : observation.retryAfter.ms <= this.options.steadyWindowMs
          ? windows.steady.fillUntilEnd(record.mark.steady, bound, now, receivedAt - record.admittedAt)
          : undefined;
      const pauseEnd = about !== undefined && about < bound ? about : bound;
      // A request admitted before the current burst window opened reached a server window that was
      // full: the one that has ended since (it was sent near its end), or the current one, which
      // another machine filled. Which, an answer in the current window tells: room there ends the
      // pause. Otherwise a refusal about a window already over idles the whole next one.
      const current = windows.burst.generation;
      const earlier = aboutBurst && record.mark.burst.generation < current;
      if (pauseEnd > this.pausedUntil) {
        this.pausedUntil = pauseEnd;
        this.pauseLiftableIn = earlier ? current : null;
      } else if (!earlier) {
        this.pauseLiftableIn = null;
      }
    } else if (refused && observation.retryAfter?.kind === "concurrency") {
      this.cap.refused(record, this.clock.now());
    } else if (!refused) {
      this.cap.answered(this.clock.now());
      // Room in whichever window the headers describe: near a steady window's end they describe
      // that one, and the answer still shows the current burst window admitting our request.
      const room = (observation.rateLimit?.remaining ?? 0) > 0;
      if (room && record.mark.burst.generation === this.pauseLiftableIn && this.pausedUntil > now) {
        this.pausedUntil = now;
        this.pauseLiftableIn = null;
      }
    }
  }

  /**
   * What this limiter shows the others as pending (its `inFlight` entry in the store): its requests
   * in flight, and those released but not settled yet (see `unsettled`), which it also shows apart
   * (`settling`) so the others count only the first against the cap.
   */
  private pending(): number {
    return Math.max(this.inFlight, this.unsettled);
  }

  /** Tells the windows once that `record`'s request was answered (see `RateClassWindows.settle`). */
  private settle(record: PermitRecord, answer: { refused: true } | { refused: false; reported?: ReportedWindow }, now: number): void {
    if (record.settled) return;
    record.settled = true;
    this.unsettled -= 1;
    this.windowsOf(record.rateClass).settle(record.mark, record.cost, answer, now);
  }

  /**
   * Current state, for debug lines and tests. With a store, read from it first; an asynchronous
   * store's answer cannot be waited for: this snapshot shows the state as of the last transaction,
   * and the state read shows in the next one.
   */
  snapshot(): LimiterSnapshot {
    this.transactions?.look();
    const now = this.clock.now();
    const windows: Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>> = {};
    for (const [name, classWindows] of this.classes) windows[name] = classWindows.view(now);
    return {
      inFlight: this.inFlight,
      concurrency: this.cap.value,
      queued: this.queue.length,
      pausedForMs: Math.max(0, this.pausedUntil - now),
      guardMs: this.guardMs(),
      windows,
    };
  }

  /** The windows of `rateClass`, created at its first use. */
  private windowsOf(rateClass: RateClassName): RateClassWindows {
    let windows = this.classes.get(rateClass);
    if (!windows) {
      const lengths = { burstMs: this.options.burstWindowMs, steadyMs: this.options.steadyWindowMs };
      windows = new RateClassWindows(this.options.classes[rateClass], lengths, this.pollMs());
      this.classes.set(rateClass, windows);
    }
    return windows;
  }

  /**
   * How often to look again for what other limiters on the store did (their answers and releases,
   * which we do not hear): a fiftieth of a burst window, at least 0.5 ms.
   */
  private pollMs(): number {
    return Math.max(0.5, this.options.burstWindowMs / 50);
  }

  private guardMs(): number {
    return Math.min(this.options.burstWindowMs * MAX_GUARD_SHARE, Math.max(this.options.guardMs, this.latencyMs));
  }

  /** Runs `fn` in a store transaction (see `StoreTransactions`); without a store, just runs it. */
  private transact(fn: () => void): void {
    if (this.transactions) this.transactions.run(fn);
    else fn();
  }

  /** An asynchronous store failed a transaction: the calls waiting fail with its error. */
  private failWaiting(error: unknown): void {
    for (const waiter of this.queue.splice(0)) {
      this.detach(waiter);
      waiter.reject(error);
    }
  }

  /**
   * Takes over the store's view of the account, every time in it bounded by what the windows make
   * plausible (a store written by a broken or hostile process must not hang the account). Changes
   * nothing in `state`.
   */
  private adopt(state: LimiterState): void {
    const now = this.clock.now();
    for (const [name, saved] of Object.entries(state.classes)) {
      if (!(name in this.options.classes)) continue;
      this.windowsOf(name as RateClassName).restoreState(saved, now);
    }
    if (state.pausedUntil !== null) {
      this.pausedUntil = Math.max(this.pausedUntil, notAfter(state.pausedUntil, now, this.options.steadyWindowMs));
    }
    if (state.concurrency) this.cap.restoreState(state.concurrency, now);
    // The others' requests pending for their windows, and of those the ones still in flight, which
    // are all that count against the cap: with an asynchronous store a limiter's answers arrive
    // faster than its transactions settle them, and counted whole its entry showed the cap full
    // to the others while the server had room (workload g: entries of 9 and 10 under a cap of 8).
    let othersPending = 0;
    this.othersInFlight = 0;
    for (const [id, count] of Object.entries(state.inFlight)) {
      if (id === this.id) continue;
      othersPending += count;
      // Bounded by the entry: a store's odd `settling` can free the entry's part of the cap, no more.
      this.othersInFlight += count - Math.min(count, Math.max(0, state.settling?.[id] ?? 0));
    }
    // Nothing of the account pending: no answer is still to come, also for requests of a process
    // that died with them in flight (the store dropped its entries), which the windows would
    // otherwise wait for forever.
    if (this.pending() + othersPending === 0) for (const windows of this.classes.values()) windows.forgetUnanswered();
  }

  /** Writes this limiter's view back for the others. */
  private publish(state: LimiterState): void {
    for (const [name, windows] of this.classes) state.classes[name] = windows.exportState();
    state.pausedUntil = Number.isFinite(this.pausedUntil) ? this.pausedUntil : null;
    state.concurrency = this.cap.exportState();
    if (this.pending() > 0) state.inFlight[this.id] = this.pending();
    else delete state.inFlight[this.id];
    const settling = { ...state.settling };
    // Entries whose limiter's `inFlight` entry is gone (a process the store dropped) say nothing.
    for (const id of Object.keys(settling)) if (state.inFlight[id] === undefined) delete settling[id];
    if (this.pending() > this.inFlight) settling[this.id] = this.pending() - this.inFlight;
    else delete settling[this.id];
    if (Object.keys(settling).length > 0) state.settling = settling;
    else delete state.settling;
  }

  /**
   * Admits waiters in order while they fit (see `pumpLocked`), in one store transaction. Every
   * transaction ends with this, so one already waiting its turn will do.
   */
  private pump(): void {
    if (this.transactions && this.transactions.queued > 0) return;
    this.transact(() => this.pumpLocked());
  }

  /** Admits waiters in order while they fit; otherwise sets one timer for when the head may fit. */
  private pumpLocked(): void {
    while (this.queue.length > 0) {
      if (this.inFlight >= this.cap.value) return; // a release pumps again
      if (this.inFlight + this.othersInFlight >= this.cap.value) {
        // The cap is full with other limiters' requests, whose releases we do not hear: look again
        // shortly. On an ordinary timer: a release is not a moment to be on time for, and a
        // precise timer polls the event loop for its last stretch, which is all of a poll this
        // short; four processes doing that on two cores delay the answers they are waiting for.
        this.wakeAt(this.clock.now() + this.pollMs(), false);
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
      this.grant(head, now);
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
    const headWindows = this.windowsOf(head.rateClass);
    const headAt = headWindows.earliestFit(head.cost, now, guard);
    for (let i = 1; i < this.queue.length;) {
      if (this.inFlight >= this.cap.value || this.inFlight + this.othersInFlight >= this.cap.value) return;
      const waiter = this.queue[i]!;
      const { request } = waiter;
      const sameClass = request.rateClass === head.rateClass;
      if (cannotPass(head, request) || this.waitMs(request, now) > 0) {
        i += 1;
        continue;
      }
      if (sameClass) {
        // Try the charge on a copy: the head must still fit at `headAt`.
        const trial = headWindows.clone(now);
        trial.charge(request.cost, now, guard);
        if (trial.earliestFit(head.cost, now, guard) > headAt) {
          i += 1;
          continue;
        }
      }
      this.queue.splice(i, 1);
      this.grant(waiter, now);
    }
  }

  private waitMs(request: AdmissionRequest, now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    return this.windowsOf(request.rateClass).waitMs(request.cost, now, this.guardMs());
  }

  /** Admits `waiter` (already out of the queue) at `now`. */
  private grant(waiter: Waiter, now: number): void {
    this.detach(waiter);
    waiter.resolve(this.admit(waiter.request, now));
  }

  private detach(waiter: Waiter): void {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
  }

  private admit(request: AdmissionRequest, now: number): Permit {
    const mark = this.windowsOf(request.rateClass).charge(request.cost, now, this.guardMs());
    this.inFlight += 1;
    this.unsettled += 1;
    const record: PermitRecord = {
      sequence: this.cap.admitted(),
      inFlightAtAdmission: this.inFlight + this.othersInFlight,
      rateClass: request.rateClass,
      cost: request.cost,
      admittedAt: now,
      mark,
      released: false,
      settled: false,
      release: () => {
        if (!this.markReleased(record)) return;
        this.transact(() => {
          // Released without an answer (network failure): counted, where unknown.
          this.settle(record, { refused: false }, this.clock.now());
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

  /**
   * Pumps at `at`: one timer, the earliest asked for. `precise` for a moment worth being on time
   * for (a window's end, `Clock.setPreciseTimer`); a poll for what other limiters did is not one.
   */
  private wakeAt(at: number, precise = true): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    // Precise for a window boundary: every millisecond late idles the window.
    const setTimer = (precise ? this.clock.setPreciseTimer?.bind(this.clock) : undefined) ?? this.clock.setTimer.bind(this.clock);
    this.timer = setTimer(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, at - this.clock.now());
  }
}
