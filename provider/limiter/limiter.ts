/**
 * The account's rate limiter (spec, Limits 1-7), the driver of `limiterModel.ts` (docs/rate-limiter.md): it queues
 * callers (a retry keeps its call's place), runs `decide` through the store on every event or due wake-up, hands out
 * the committed grants and sleeps until the next wake-up; events during a decision go in the next one. One per account
 * per process (`limiterRegistry.ts`), wrapping the request function as octokit's `plugin-throttling` does.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { BURST_WINDOW_MS, RATE_CLASSES, STEADY_WINDOW_MS } from "../catalog";
import type { RateClass, RateClassName } from "../catalog";
import { type Clock, type TimerHandle, systemClock } from "../infrastructure";
import { ATTEMPT_MS, type Decision, type LimiterEvent, type ModelConfig, decide, heartbeatMs } from "./limiterModel";
import { type LimiterState, type Ticket, type WindowState } from "./limiterState";
import { type LimiterStore, MemoryLimiterStore } from "./limiterStores";
import { type LimitWait, WaitReports } from "./limiterWaits";
import type { RateLimitInfo, RetryAfter } from "./rateLimitHeaders";

/** Tunables of the limiter (the model's are documented on `ModelConfig`). Defaults in `LIMITER_DEFAULTS`. */
export interface LimiterOptions extends Omit<Required<ModelConfig>, "classes"> {
  readonly classes: Readonly<Record<RateClassName, RateClass>>;
  readonly clock: Clock;
  /** Share the state with this machine's processes, and machines through a limits URL (default true; `sharedLimiter`). */
  readonly shareAcrossProcesses: boolean;
  /** Where the state is kept; none: this limiter's memory. Times in it are `clock` times. */
  readonly sharedStore?: LimiterStore;
  /** The state's name in the store (`sharedStateName` of the account key). */
  readonly stateName?: string;
}

// Decision (not shown in spec): the in-flight limit is not given (spec, Limits 6): from 4 within 1..8, docs/rate-limiter.md
// ("in-flight cap"; 4 carry 10 per second at 400 ms latency, 8 a burst window at 800 ms; more would only probe for -1s).
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

export interface AdmissionRequest {
  readonly rateClass: RateClassName;
  /** spec, Limits 7: 1 + one per `fields` subresource. */
  readonly cost: number;
  /** When its call first queued (limiter clock; default now): a retry keeps its call's place. */
  readonly queuedSince?: number;
  /** Its caller's `rateLimitShare`, in (0, 1]; default `options.share`. */
  readonly share?: number;
  /** Its attempt's timeout, ms: its ticket counts against the in-flight cap that long at most. */
  readonly lifeMs?: number;
  /** Told how much longer, while it waits on the windows more than a few seconds (`limiterWaits.ts`). */
  readonly onWait?: (wait: LimitWait) => void;
}

/** An admitted request: holds its ticket until released. */
export interface Permit {
  readonly rateClass: RateClassName;
  readonly cost: number;
  /** Clock time of the decision that admitted it, ms. */
  readonly admittedAt: number;
  /** Idempotent. */
  release(): void;
}

export interface ResponseObservation {
  readonly status: number;
  readonly rateLimit?: RateLimitInfo;
  readonly retryAfter?: RetryAfter;
}

export interface WindowSnapshot {
  readonly limit: number;
  readonly used: number;
  /** Until the window surely ended, ms (0: none open). */
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
  /** Stops listening to the caller's abort signal. */
  readonly detach: () => void;
}

interface PermitRecord extends Permit {
  readonly id: string;
  readonly ticket: Ticket;
  released: boolean;
}

/** The queue's first entries a decision looks at (docs/rate-limiter.md, "queue look-ahead"). */
const LOOK_AHEAD = 64;
let limiterCount = 0;
/** Tells this process from every other on every machine (a pid alone repeats). */
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
  private heartbeat: TimerHandle = undefined;
  /** Ends the watch for others' releases, kept while callers wait. */
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

  /** The request's permit once it may be sent; release it once the answer is in. @throws the abort reason, or the store's. */
  acquire(request: AdmissionRequest, signal?: AbortSignal): Promise<Permit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // A ticket lives at most the longest attempt asked for: a timeout longer than the default keeps its slot.
    if (request.lifeMs !== undefined && request.lifeMs > (this.model.ticketLifeMs ?? 0))
      this.model = { ...this.model, ticketLifeMs: request.lifeMs };
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        if (this.queue.length === 0) this.listen(false);
        reject(signal!.reason);
      };
      const since = request.queuedSince ?? this.clock.now();
      const detach = () => signal?.removeEventListener("abort", onAbort);
      const waiter: Waiter = { id: `${this.self}${++this.issued}`, request, since, resolve, reject, detach };
      signal?.addEventListener("abort", onAbort, { once: true });
      let index = this.queue.length;
      while (index > 0 && this.queue[index - 1]!.since > waiter.since) index -= 1;
      this.queue.splice(index, 0, waiter);
      this.decideSoon();
    });
  }

  /** Tells the model what `permit`'s response said, dated `receivedAt` (default now); `release` in the same decision. */
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
    const view = (w: WindowState) => ({ limit: w.limit, used: now < w.endsBy ? w.spent : 0, endsInMs: Math.max(0, w.endsBy - now) });
    for (const [name, saved] of Object.entries(this.last?.classes ?? {}))
      windows[name as RateClassName] = { burst: view(saved.burst), steady: view(saved.steady) };
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
        // Aborted while the decision was on its way: the next one gives its ticket back (not held).
        this.scheduled = true;
        continue;
      }
      waiter.detach();
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
   * The store failed past its last fallback: the waiting calls fail with its error, the decision's events are lost.
   * Events that came meanwhile go to the next decision, decided on whatever the store can do then.
   */
  private failed(error: unknown): void {
    this.deciding = undefined;
    this.scheduled = false;
    for (const waiter of this.queue.splice(0)) {
      waiter.detach();
      waiter.reject(error);
    }
    this.sleepNoMore();
    this.beat();
    this.listen(false);
    if (this.events.length > 0) this.decideNow();
  }

  /**
   * While the queue waits for the cap (a wake-up not a window's end), hears others' releases through
   * the store; a queue a window holds, or none, watches nothing: a release frees no window room.
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

  /** While it holds permits, decides within a heartbeat so others see it live (rule 5); unref'd, it keeps no process alive. */
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

  /** Nobody waits: no wake-up is due (one left would decide for no one after the process's work is done). */
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
