/**
 * The account's rate limiter (spec, Limits 1-7: windows per account, shared by every process and
 * machine spending on it): the driver of the model in
 * `limiterModel.ts`. It queues callers (in the order their calls first queued, so a retry keeps its
 * call's place), collects what happened to their requests, runs `decide` through the store whenever
 * something happened or a wake-up is due, hands out the grants of the decision that was committed,
 * and sleeps until the next wake-up. Decisions asked for while one is on its way are taken together
 * in the next one. One instance per account per process (`limiterRegistry.ts`), wrapping the one
 * request function the way octokit's `plugin-throttling` does.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { BURST_WINDOW_MS, RATE_CLASSES, STEADY_WINDOW_MS } from "../catalog";
import type { RateClass, RateClassName } from "../catalog";
import { type Clock, type TimerHandle, systemClock } from "../infrastructure";
import { ATTEMPT_MS, type Decision, type LimiterEvent, type ModelConfig, decide, heartbeatMs } from "./limiterModel";
import { type LimiterState, type Ticket } from "./limiterState";
import { type LimiterStore, MemoryLimiterStore } from "./limiterStores";
import { type LimitWait, WaitReports } from "./limiterWaits";
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";

/** Bounds of the adaptive in-flight cap (spec, Limits 6). */
export interface ConcurrencyOptions {
  readonly initial: number;
  readonly min: number;
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
  /** How long a request may take to reach the server, for a window's end guessed before any answer, ms. */
  readonly guardMs: number;
  readonly concurrency: ConcurrencyOptions;
  /** The share of every window a request that names none may spend, in (0, 1] (`AdmissionRequest.share`). */
  readonly share: number;
  /** How long an attempt may last when a request does not say (`AdmissionRequest.lifeMs`): its ticket's life, ms. */
  readonly ticketLifeMs: number;
  readonly clock: Clock;
  /**
   * Share the account's state with the other processes of this machine, and machines through a
   * limits URL (default true; `sharedLimiter` then supplies `sharedStore` and the epoch clock).
   */
  readonly shareAcrossProcesses: boolean;
  /** Where the state is kept; none: this limiter's memory. Times in it are `clock` times. */
  readonly sharedStore?: LimiterStore;
  /** The state's name in the store (`sharedStateName` of the account key). */
  readonly stateName?: string;
}

// Decision (not shown in spec): the platform's in-flight limit is not given (spec, Limits 6). We
// start at 4 (enough for 10 per second at latencies up to 400 ms) and adapt between 1 and 8 (8 in
// flight carry a full burst window at latencies up to 800 ms; more would only probe for -1s).
/** Every default in one object, with units. */
export const LIMITER_DEFAULTS: LimiterOptions = Object.freeze({
  classes: RATE_CLASSES,
  burstWindowMs: BURST_WINDOW_MS, // 1 s
  steadyWindowMs: STEADY_WINDOW_MS, // 60 s
  guardMs: 10, // 10 ms
  concurrency: Object.freeze({ initial: 4, min: 1, max: 8 }),
  share: 1, // the whole limit
  ticketLifeMs: ATTEMPT_MS, // 60 s, the client's default request timeout
  clock: systemClock,
  shareAcrossProcesses: true,
});

/** What a caller wants admitted. */
export interface AdmissionRequest {
  readonly rateClass: RateClassName;
  /** Calls this request counts as (spec, Limits 7: 1 + one per `fields` subresource). */
  readonly cost: number;
  /** When its call first queued (limiter clock); default now. A retry keeps its call's place. */
  readonly queuedSince?: number;
  /** Its caller's share of every window, in (0, 1] (the caller's `rateLimitShare`); default `options.share`. */
  readonly share?: number;
  /** How long its attempt may last (the client's request timeout), ms: its ticket counts against the in-flight cap that long at most. */
  readonly lifeMs?: number;
  /** Told while it waits on the windows longer than a few seconds, how much longer (`limiterWaits.ts`). */
  readonly onWait?: (wait: LimitWait) => void;
}

/** An admitted request: holds its ticket until released. */
export interface Permit {
  readonly rateClass: RateClassName;
  readonly cost: number;
  /** Clock time of the decision that admitted it (the time its windows count it from), ms. */
  readonly admittedAt: number;
  /** Releases the ticket; idempotent. */
  release(): void;
}

/** What the limiter learns from a response. */
export interface ResponseObservation {
  readonly status: number;
  readonly rateLimit?: RateLimitInfo;
  readonly retryAfter?: RetryAfter;
}

/** One window in a snapshot. */
export interface WindowSnapshot {
  readonly limit: number;
  readonly used: number;
  /** Time until the window surely ended, ms (0: none open). */
  readonly endsInMs: number;
}

/** State for debugging and tests, as of the last decision. */
export interface LimiterSnapshot {
  /** This limiter's requests in flight. */
  readonly inFlight: number;
  readonly concurrency: number;
  readonly queued: number;
  readonly guardMs: number;
  readonly windows: Readonly<Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>>>;
}

interface Waiter {
  readonly id: string;
  readonly request: AdmissionRequest;
  readonly since: number;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

interface PermitRecord extends Permit {
  readonly id: string;
  readonly ticket: Ticket;
  released: boolean;
}

/** The queue's first entries a decision looks at: enough to fill any cap and backfill behind a costly head. */
const LOOK_AHEAD = 64;
let limiterCount = 0;
/** What tells this process from every other one on every machine (a pid alone repeats). */
const PROCESS_TAG = `${hostname()}/${process.pid}/${randomBytes(4).toString("hex")}`;

export class RateLimiter {
  readonly options: LimiterOptions;
  private readonly clock: Clock;
  private model: ModelConfig;
  private readonly store: LimiterStore;
  private readonly name: string;
  private readonly waits: WaitReports;
  /** Ticket ids are `<this>#<n>`, unique across processes and machines. */
  private readonly self = `${PROCESS_TAG}/${++limiterCount}#`;
  private issued = 0;
  private readonly queue: Waiter[] = [];
  private events: LimiterEvent[] = [];
  /** The ids of the permits handed out and not yet released. */
  private readonly held = new Set<string>();
  private last: LimiterState | undefined;
  /** A decision is asked for (`scheduled`) or on its way to the store (`deciding`). */
  private scheduled = false;
  private deciding: Promise<void> | undefined;
  private timer: TimerHandle = undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** While it holds permits, the limiter decides at least every `heartbeatMs`: the others see it lives. */
  private heartbeat: TimerHandle = undefined;
  /** Ends the watch for others' releases (`LimiterStore.watch`), kept while callers wait. */
  private unwatch: (() => void) | undefined;

  constructor(options: Partial<LimiterOptions> = {}) {
    this.options = { ...LIMITER_DEFAULTS, ...options, concurrency: { ...LIMITER_DEFAULTS.concurrency, ...options.concurrency } };
    this.clock = this.options.clock;
    const { classes, burstWindowMs, steadyWindowMs, guardMs, concurrency, share, ticketLifeMs } = this.options;
    this.model = { classes, burstWindowMs, steadyWindowMs, guardMs, concurrency, share, ticketLifeMs };
    this.waits = new WaitReports(this.model);
    this.store = this.options.sharedStore ?? new MemoryLimiterStore();
    this.name = this.options.stateName ?? "account";
  }

  /**
   * Waits until the request may be sent, then returns its permit; release it once the answer is in.
   * @throws the signal's reason when `signal` aborts while waiting, or the store's last failure.
   */
  acquire(request: AdmissionRequest, signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // The longest a ticket lives is the longest attempt asked for: a longer timeout than the default keeps its slot.
    if (request.lifeMs !== undefined && request.lifeMs > (this.model.ticketLifeMs ?? 0))
      this.model = { ...this.model, ticketLifeMs: request.lifeMs };
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        id: `${this.self}${++this.issued}`,
        request,
        since: request.queuedSince ?? this.clock.now(),
        resolve,
        reject,
        signal,
        onAbort: signal
          ? () => {
              const index = this.queue.indexOf(waiter);
              if (index >= 0) this.queue.splice(index, 1);
              if (this.queue.length === 0) this.listen(false);
              reject(signal.reason);
            }
          : undefined,
      };
      if (signal && waiter.onAbort) signal.addEventListener("abort", waiter.onAbort, { once: true });
      let index = this.queue.length;
      while (index > 0 && this.queue[index - 1]!.since > waiter.since) index -= 1;
      this.queue.splice(index, 0, waiter);
      this.decideSoon();
    });
  }

  /**
   * Tells the model what the response to `permit`'s request said; `receivedAt` (default now) dates
   * its headers. With `release`, also releases the permit, in the same decision.
   */
  observe(permit: Permit, observation: ResponseObservation, options: { receivedAt?: number; release?: boolean } = {}): void {
    const record = permit as PermitRecord;
    const release = options.release === true && this.markReleased(record);
    this.events.push({
      kind: "answer",
      id: record.id,
      ticket: record.ticket,
      receivedAt: options.receivedAt ?? this.clock.now(),
      status: observation.status,
      release,
      ...(observation.rateLimit ? { report: observation.rateLimit } : {}),
      ...(observation.retryAfter ? { retryAfter: observation.retryAfter } : {}),
    });
    this.decideSoon();
  }

  /** Resolves once every event so far is in a committed decision (a process that exits on purpose). */
  async flush(): Promise<void> {
    while (this.scheduled || this.deciding || this.events.length > 0) {
      await (this.deciding ?? new Promise<void>((resolve) => setImmediate(resolve)));
    }
  }

  snapshot(): LimiterSnapshot {
    const now = this.clock.now();
    const windows: Partial<Record<RateClassName, { burst: WindowSnapshot; steady: WindowSnapshot }>> = {};
    for (const [name, saved] of Object.entries(this.last?.classes ?? {})) {
      const view = (w: typeof saved.burst) => ({
        limit: w.limit,
        used: now < w.endsBy ? w.spent : 0,
        endsInMs: Math.max(0, w.endsBy - now),
      });
      windows[name as RateClassName] = { burst: view(saved.burst), steady: view(saved.steady) };
    }
    return {
      inFlight: this.held.size,
      concurrency: this.last?.cap.value ?? this.model.concurrency.initial,
      queued: this.queue.length,
      guardMs: this.model.guardMs,
      windows,
    };
  }

  private markReleased(record: PermitRecord): boolean {
    if (record.released) return false;
    record.released = true;
    this.held.delete(record.id);
    return true;
  }

  /** Decides once this turn's calls and answers are in (one decision for hundreds of calls issued at once). */
  private decideSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      if (!this.deciding) this.decideNow();
    });
  }

  private decideNow(): void {
    this.scheduled = false;
    const events: LimiterEvent[] = [...this.events, { kind: "holds", owner: this.self, ids: [...this.held] }];
    this.events = [];
    const waiting = this.queue
      .slice(0, LOOK_AHEAD)
      .map(({ id, request: { rateClass, cost, share, lifeMs } }) => ({ id, cls: rateClass, cost, share, lifeMs }));
    let decision: Decision | undefined;
    let decidedAt = 0;
    const run = (state: LimiterState | undefined) => {
      decidedAt = this.clock.now();
      decision = decide(state, events, waiting, decidedAt, this.model);
      return decision.state;
    };
    let stored: void | Promise<void>;
    try {
      stored = this.store.update(this.name, run, this.self);
    } catch (error) {
      return this.failed(error);
    }
    if (stored === undefined) return this.decided(decision!, decidedAt);
    this.deciding = stored.then(
      () => this.decided(decision!, decidedAt),
      (error: unknown) => this.failed(error),
    );
  }

  private decided(decision: Decision, decidedAt: number): void {
    this.deciding = undefined;
    this.last = decision.state;
    for (const grant of decision.grants) {
      const index = this.queue.findIndex((w) => w.id === grant.id);
      const waiter = index >= 0 ? this.queue.splice(index, 1)[0] : undefined;
      if (waiter === undefined) {
        // Aborted while the decision was on its way: the next decision gives its ticket back, as
        // this limiter does not hold it.
        this.scheduled = true;
        continue;
      }
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      this.held.add(grant.id);
      const record: PermitRecord = {
        id: grant.id,
        ticket: grant.ticket,
        rateClass: waiter.request.rateClass,
        cost: waiter.request.cost,
        admittedAt: decidedAt,
        released: false,
        release: () => {
          if (!this.markReleased(record)) return;
          this.events.push({ kind: "release", id: record.id });
          this.decideSoon();
        },
      };
      waiter.resolve(record);
    }
    this.waits.decided(decision, this.queue, this.clock.now());
    this.beat();
    this.listen(this.queue.length > 0 && !decision.precise);
    if (this.queue.length === 0) this.sleepNoMore();
    else if (decision.wakeAt < Number.POSITIVE_INFINITY) this.wakeAt(decision.wakeAt, decision.precise);
    if (this.scheduled || this.events.length > 0) this.decideNow();
  }

  /**
   * The store failed past its last fallback: the calls waiting fail with its error, and the events of
   * the decision are lost with it. Events that came meanwhile go to the next decision, as after one
   * that succeeded, so a later call is decided on whatever the store can do then.
   */
  private failed(error: unknown): void {
    this.deciding = undefined;
    this.scheduled = false;
    for (const waiter of this.queue.splice(0)) {
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      waiter.reject(error);
    }
    this.sleepNoMore();
    this.beat();
    this.listen(false);
    if (this.events.length > 0) this.decideNow();
  }

  /**
   * While the queue waits for the cap (a decision's wake-up that is not a window's end), hears the
   * others' releases through the store: a slot they free decides again at once. A queue held by a
   * window, or none, hears nothing: a release frees no window room, so waking on it is a decision
   * for nothing (one per release of every other process).
   */
  private listen(waiting: boolean): void {
    if (waiting && this.unwatch === undefined && this.store.watch !== undefined) {
      try {
        this.unwatch = this.store.watch(this.name, this.self, () => {
          if (this.queue.length > 0) this.decideSoon();
        });
      } catch {
        this.unwatch = () => undefined; // hears nothing: wakes at the time the model knows
      }
    } else if (!waiting && this.unwatch !== undefined) {
      this.unwatch();
      this.unwatch = undefined;
    }
  }

  /**
   * While it holds permits, decides again within a heartbeat, so the others see its tickets' owner
   * live (`livenessMs`). Unref'd: a heartbeat alone keeps no process alive.
   */
  private beat(): void {
    if (this.held.size === 0 && this.heartbeat !== undefined) {
      this.clock.clearTimer(this.heartbeat);
      this.heartbeat = undefined;
    }
    if (this.held.size === 0 || this.heartbeat !== undefined) return;
    this.heartbeat = this.clock.setTimer(() => {
      this.heartbeat = undefined;
      if (this.held.size > 0) this.decideSoon();
    }, heartbeatMs(this.model));
    (this.heartbeat as { unref?: () => void } | undefined)?.unref?.();
  }

  /** Nobody waits: no wake-up is due (one left would decide for no one, after the process's work is done). */
  private sleepNoMore(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** One timer, the earliest asked for; precise for a window's end (every late millisecond idles it). */
  private wakeAt(at: number, precise: boolean): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    const setTimer = (precise ? this.clock.setPreciseTimer?.bind(this.clock) : undefined) ?? this.clock.setTimer.bind(this.clock);
    this.timer = setTimer(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.decideSoon();
    }, at - this.clock.now());
  }
}
