/** The process clocks' timers: precise ones never early and cleared like any timer; none of any delay spins. */
import { epochClock, MAX_TIMER_MS, systemClock, timerDelayMs } from "../../../provider/infrastructure/clock";

describe("precise timers", () => {
  it.each([
    ["systemClock", systemClock],
    ["epochClock", epochClock],
  ])("%s: fires at or after the moment asked for, never before", async (_name, clock) => {
    const firedLate: number[] = [];
    await Promise.all(
      [0, 1, 3, 7].map(
        (ms) =>
          new Promise<void>((resolve) => {
            const at = clock.now() + ms;
            clock.setPreciseTimer!(() => {
              firedLate.push(clock.now() - at);
              resolve();
            }, ms);
          }),
      ),
    );
    expect(firedLate).toHaveLength(4);
    for (const late of firedLate) expect(late).toBeGreaterThanOrEqual(0);
  });

  it("is cancelled by clearTimer, in its sleeping and in its polling stretch", async () => {
    let fired = 0;
    const sleeping = systemClock.setPreciseTimer!(() => (fired += 1), 5);
    const polling = systemClock.setPreciseTimer!(() => (fired += 1), 0.5);
    systemClock.clearTimer(sleeping);
    systemClock.clearTimer(polling);
    // A later timer that does fire: by then both cleared ones would have.
    await new Promise<void>((resolve) => systemClock.setPreciseTimer!(resolve, 10));
    expect(fired).toBe(0);
  });
});

describe("timers of any delay", () => {
  it("bounds a delay to what a Node timer takes: never negative, never past 2^31 - 1 ms, NaN as the longest", () => {
    expect(timerDelayMs(-5)).toBe(0);
    expect(timerDelayMs(250)).toBe(250);
    expect(timerDelayMs(1e15)).toBe(MAX_TIMER_MS);
    expect(timerDelayMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(timerDelayMs(Number.NaN)).toBe(MAX_TIMER_MS);
  });

  it.each([
    ["systemClock", systemClock],
    ["epochClock", epochClock],
  ])("%s: a delay past the longest a timer takes (Retry-After: 1000000000000) neither fires at once nor warns", async (_name, clock) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    let fired = 0;
    const handles = [1e15, Number.POSITIVE_INFINITY, Number.NaN].flatMap((ms) => [
      clock.setTimer(() => (fired += 1), ms),
      clock.setPreciseTimer!(() => (fired += 1), ms),
    ]);
    try {
      // An overflowing timer is set to 1 ms: one of 20 ms fires after it.
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
      expect(fired).toBe(0);
      expect(warnings).not.toContain("TimeoutOverflowWarning");
    } finally {
      for (const handle of handles) clock.clearTimer(handle);
      process.off("warning", onWarning);
    }
  });
});
