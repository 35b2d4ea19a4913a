/** The process clocks' precise timer: never early, and cleared like any timer. */
import { epochClock, systemClock } from "../../provider/client/clock";

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
