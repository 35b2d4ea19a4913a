/**
 * A hand-driven `Clock` for limiter tests: time moves only when the test calls `advance`, and due
 * timers fire in time order, so tests never depend on the wall clock.
 */
import type { Clock, TimerHandle } from "../../provider/infrastructure";

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** A fake clock starting at `start` ms. */
export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start = 1_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order; after each, lets promise callbacks
   * run so admissions they cause happen at that instant.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
    }
    this.time = target;
    await flush();
  }
}

/** Lets every queued promise callback run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A fake clock with a precise timer that records the delay of every wake it is asked for. */
export class PreciseFakeClock extends FakeClock {
  readonly wakes: number[] = [];
  setPreciseTimer(callback: () => void, ms: number) {
    this.wakes.push(ms);
    return this.setTimer(callback, ms);
  }
}
