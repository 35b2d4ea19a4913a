/**
 * The adaptive in-flight cap on its own: time is passed in, admissions and answers are told to it
 * one by one, as the limiter does (its wiring to responses is in `limiter.test.ts`).
 */
import { type CapAdmission, InFlightCap, InFlightCapStateSchema } from "../../../provider/client/inFlightCap";

const BURST_MS = 1_000;
const STEADY_MS = 60_000;

/** Admits `count` requests at `at`, the k-th with k in flight (as when they go out together). */
function admitTogether(cap: InFlightCap, count: number, at: number, alreadyInFlight = 0): CapAdmission[] {
  return Array.from({ length: count }, (_, k) => ({
    sequence: cap.admitted(),
    admittedAt: at,
    inFlightAtAdmission: alreadyInFlight + k + 1,
  }));
}

/** `times` requests, each sent alone at `now` and refused with `Retry-After: -1` 1 ms later. */
function refuseAlone(cap: InFlightCap, times: number, now: number): number {
  for (let i = 0; i < times; i += 1) {
    const [alone] = admitTogether(cap, 1, now);
    now += 1;
    cap.refused(alone!, now);
  }
  return now;
}

describe("in-flight cap", () => {
  it("starts at its initial value, within its bounds", () => {
    expect(new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS).value).toBe(4);
    expect(new InFlightCap({ initial: 20, min: 1, max: 8 }, STEADY_MS).value).toBe(8);
    expect(new InFlightCap({ initial: 0, min: 2, max: 8 }, STEADY_MS).value).toBe(2);
  });

  it("halves on Retry-After: -1, once per congestion event, then grows by one after a cap's worth of good answers", () => {
    const cap = new InFlightCap({ initial: 8, min: 1, max: 8 }, STEADY_MS);
    const admitted = admitTogether(cap, 8, 0);
    // Three requests sent together are refused together: one decrease, not three.
    for (const admission of admitted.slice(0, 3)) cap.refused(admission, 1);
    expect(cap.value).toBe(4);
    for (let i = 0; i < 3; i += 1) cap.answered(BURST_MS);
    expect(cap.value).toBe(4);
    cap.answered(BURST_MS);
    expect(cap.value).toBe(5);
  });

  it("drops the cap to what a -1 proves the server allows, and probes past it again only rarely", () => {
    const cap = new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS);
    // A server that allows 2 in flight: the requests admitted 3rd and 4th are refused.
    const first = admitTogether(cap, 4, 0);
    cap.refused(first[2]!, 0);
    cap.refused(first[3]!, 0);
    expect(cap.value).toBe(2);
    // Plain AIMD would try 3 after 2 good responses; with the ceiling learned it waits a steady window.
    let good = 0;
    let now = 0;
    while (cap.value === 2 && good < 1000) {
      now += BURST_MS;
      admitTogether(cap, 1, now);
      cap.answered(now);
      good += 1;
    }
    // One good answer a second: the first after the minute is up makes the cap try 3.
    expect(good).toBe(STEADY_MS / BURST_MS);
    expect(cap.value).toBe(3);
  });

  it("never lowers the cap below its minimum", () => {
    const cap = new InFlightCap({ initial: 2, min: 1, max: 4 }, STEADY_MS);
    refuseAlone(cap, 3, 0);
    expect(cap.value).toBe(1);
  });

  it("learns no ceiling from a -1 on a request alone in flight: the cap grows back without waiting a steady window", () => {
    const cap = new InFlightCap({ initial: 2, min: 1, max: 4 }, STEADY_MS);
    // Refused with nothing else of ours in flight: someone else's requests (or a storm) filled the
    // limit, so it says nothing about the limit itself.
    let now = refuseAlone(cap, 2, 0);
    expect(cap.value).toBe(1);
    // One cap's worth of good answers later (one, a second apart) the cap is 2 again, well inside the minute.
    now += BURST_MS;
    admitTogether(cap, 1, now);
    cap.answered(now);
    expect(cap.value).toBe(2);
  });

  it("ignores a refusal of a request admitted before a decrease another limiter made (the shared decrease time)", () => {
    const cap = new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS);
    const [before] = admitTogether(cap, 1, 100, 3);
    cap.restoreState({ cap: 2, ceiling: 2, decreasedAt: 150 }, 150);
    cap.refused(before!, 200);
    expect(cap.value).toBe(2);
    const [after] = admitTogether(cap, 1, 300, 1);
    cap.refused(after!, 310);
    expect(cap.value).toBe(1);
  });

  it("shares the cap, its ceiling and when it was lowered, and takes them over within its own bounds", () => {
    const learner = new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS);
    expect(learner.exportState()).toEqual({ cap: 4, ceiling: null, decreasedAt: null });
    const admitted = admitTogether(learner, 4, 0);
    learner.refused(admitted[2]!, 5);
    const shared = InFlightCapStateSchema.parse(JSON.parse(JSON.stringify(learner.exportState())));
    expect(shared).toEqual({ cap: 2, ceiling: 2, decreasedAt: 5 });
    // Another limiter takes it over: it does not try past the ceiling before a steady window passed.
    const other = new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS);
    other.restoreState(shared, 5);
    for (let i = 0; i < 10; i += 1) other.answered(1_000);
    expect(other.value).toBe(2);
    other.answered(5 + STEADY_MS);
    expect(other.value).toBe(3);
    // Its own bounds hold over a shared cap.
    const narrow = new InFlightCap({ initial: 3, min: 3, max: 6 }, STEADY_MS);
    narrow.restoreState(shared, 5);
    expect(narrow.value).toBe(3);
  });

  it("takes a decrease dated in the future (a planted store) as made now, so it probes past the ceiling a steady window later", () => {
    const cap = new InFlightCap({ initial: 4, min: 1, max: 8 }, STEADY_MS);
    cap.restoreState({ cap: 2, ceiling: 2, decreasedAt: 1e300 }, 100);
    expect(cap.exportState().decreasedAt).toBe(100);
    cap.answered(100 + STEADY_MS);
    cap.answered(100 + STEADY_MS);
    expect(cap.value).toBe(3);
    // A refusal is no longer taken for one of before the decrease.
    const [refused] = admitTogether(cap, 1, 200 + STEADY_MS, 3);
    cap.refused(refused!, 210 + STEADY_MS);
    expect(cap.value).toBe(2);
  });
});
