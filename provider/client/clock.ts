/**
 * Time as the limiter and the retry loop see it. Injected so that unit tests drive time by hand and
 * never depend on the wall clock.
 */

/** Opaque handle of a scheduled callback. */
export type TimerHandle = unknown;

/** A monotonic clock with timers. */
export interface Clock {
  /** Milliseconds on a monotonic scale (not wall-clock time). */
  now(): number;
  /** Runs `callback` once, `ms` from now. */
  setTimer(callback: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** The process clock: `performance.now()` and `setTimeout`, which keep a waiting process alive. */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  setTimer: (callback: () => void, ms: number) => setTimeout(callback, Math.max(0, ms)),
  clearTimer: (handle: TimerHandle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/**
 * The process clock on the Unix epoch (`performance.timeOrigin + performance.now()`): monotonic
 * within a process and, unlike `performance.now()`, the same scale in every process of the
 * machine, so limiters of several processes can share window ends through a file.
 */
export const epochClock: Clock = Object.freeze({
  now: () => performance.timeOrigin + performance.now(),
  setTimer: systemClock.setTimer,
  clearTimer: systemClock.clearTimer,
});

/**
 * Resolves after `ms` on `clock`; rejects with the signal's reason when `signal` aborts first.
 */
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
