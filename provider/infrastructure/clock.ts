/** Time as the limiter and the retry loop see it, injected so unit tests drive time by hand. */

export type TimerHandle = unknown;

/** The longest delay a Node timer takes, ms (24.8 days); a longer one is set to 1 ms, and a caller waiting again would spin. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` clamped to 0..`MAX_TIMER_MS` (`NaN`: the maximum), for every timer of the process clocks, so no wait spins. */
export function timerDelayMs(ms: number): number {
  return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(MAX_TIMER_MS, Math.max(0, ms));
}

/** A monotonic clock with timers. */
export interface Clock {
  /** Milliseconds on a monotonic scale (not wall-clock time). */
  now(): number;
  setTimer(callback: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
  /**
   * Like `setTimer`, but wakes as soon as possible after `ms` instead of a timer's usual 1-2 ms late;
   * never early. Optional: the limiter falls back to `setTimer`. Cleared with `clearTimer`.
   */
  setPreciseTimer?(callback: () => void, ms: number): TimerHandle;
}

// Decision: Node's timers fire a millisecond or two late, and a limiter waking for a burst window
// boundary on one idles the window that long every time. A precise timer sleeps on an ordinary timer
// until `PRECISE_SPIN_MS` before the moment, then polls the event loop (setImmediate, which lets I/O
// run in between) until it is reached.
const PRECISE_SPIN_MS = 1.5;

class PreciseTimer {
  timeout: ReturnType<typeof setTimeout> | undefined;
  immediate: ReturnType<typeof setImmediate> | undefined;

  constructor(
    private readonly now: () => number,
    private readonly at: number,
    private readonly callback: () => void,
  ) {
    const sleepMs = at - now() - PRECISE_SPIN_MS;
    if (sleepMs > 0) this.timeout = setTimeout(() => this.poll(), sleepMs);
    else this.poll();
  }

  private poll(): void {
    this.timeout = undefined;
    if (this.now() >= this.at) {
      this.immediate = undefined;
      this.callback();
      return;
    }
    this.immediate = setImmediate(() => this.poll());
  }

  cancel(): void {
    clearTimeout(this.timeout);
    clearImmediate(this.immediate);
  }
}

/** A clock of this process reading `now`, with `setTimeout` timers, which keep a waiting process alive. */
function processClock(now: () => number): Clock {
  return Object.freeze({
    now,
    setTimer: (callback: () => void, ms: number) => setTimeout(callback, timerDelayMs(ms)),
    clearTimer: (handle: TimerHandle) =>
      handle instanceof PreciseTimer ? handle.cancel() : clearTimeout(handle as ReturnType<typeof setTimeout>),
    setPreciseTimer: (callback: () => void, ms: number) => new PreciseTimer(now, now() + timerDelayMs(ms), callback),
  });
}

export const systemClock = processClock(() => performance.now());

/** On the Unix epoch: unlike `performance.now()`, one scale for every process, so limiters can share window ends through a file. */
export const epochClock = processClock(() => performance.timeOrigin + performance.now());

/** `base` read on another clock's scale: `now()` is `base.now()` plus `offsetMs()`; timers are `base`'s. */
export function offsetClock(base: Clock, offsetMs: () => number): Clock {
  return Object.freeze({
    now: () => base.now() + offsetMs(),
    setTimer: (callback: () => void, ms: number) => base.setTimer(callback, ms),
    clearTimer: (handle: TimerHandle) => base.clearTimer(handle),
    ...(base.setPreciseTimer ? { setPreciseTimer: base.setPreciseTimer.bind(base) } : {}),
  });
}

/** Resolves after `ms` on `clock`; rejects with the signal's reason when `signal` aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clock.clearTimer(handle);
      reject(signal!.reason);
    };
    const handle = clock.setTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
