/**
 * One window on its own: its queries change nothing, and its state is one JSON object that exports,
 * restores and clones as a copy. What the window does with charges and server reports is tested
 * through a class's two windows in `rateClassWindows.test.ts`.
 */
import { FixedWindow, FixedWindowStateSchema, type WindowMark } from "../../../provider/client/fixedWindow";

const LENGTH_MS = 1_000;
const POLL_MS = 20;
const T0 = 1_000;

/** A window of limit 10 with `count` requests charged at T0 (none answered). */
function charged(count: number): { window: FixedWindow; marks: WindowMark[] } {
  const window = new FixedWindow(LENGTH_MS, 10, POLL_MS);
  const marks = Array.from({ length: count }, () => window.charge(1, T0, 0));
  return { window, marks };
}

describe("fixed window", () => {
  it("answers waitMs and view past its end without closing the window", () => {
    const { window, marks } = charged(10);
    for (const mark of marks) window.settle(mark, 1, { refused: false, boundary: undefined }, T0);
    const before = window.exportState();
    expect(window.waitMs(1, T0, 0)).toBe(LENGTH_MS);
    expect(window.waitMs(1, T0 + LENGTH_MS, 0)).toBe(0);
    expect(window.view(T0 + LENGTH_MS)).toEqual({ used: 0, limit: 10, endsInMs: undefined, synced: false });
    expect(window.exportState()).toEqual(before);
    expect(before).toMatchObject({ end: T0 + LENGTH_MS, used: 10, generation: 1 });
    // The change that comes later closes it as the queries computed it: a new window opens.
    window.charge(1, T0 + LENGTH_MS, 0);
    expect(window.exportState()).toMatchObject({ end: T0 + 2 * LENGTH_MS, previousEnd: T0 + LENGTH_MS, used: 1, generation: 2 });
  });

  it("answers the same whether or not a query looked at it in between", () => {
    const looked = charged(4);
    const untouched = charged(4);
    for (const { window, marks } of [looked, untouched]) {
      window.settle(marks[0]!, 1, { refused: false, boundary: T0 + 400 }, T0);
      window.refund(marks[1]!, 1, T0);
      for (const mark of marks.slice(1)) window.settle(mark, 1, { refused: false, boundary: undefined }, T0);
    }
    for (let t = T0; t <= T0 + 3 * LENGTH_MS; t += 250) {
      looked.window.waitMs(3, t, 0);
      looked.window.view(t);
    }
    expect(looked.window.exportState()).toEqual(untouched.window.exportState());
    const later = T0 + 3 * LENGTH_MS;
    expect(looked.window.view(later)).toEqual(untouched.window.view(later));
    expect(looked.window.charge(1, later, 0)).toEqual(untouched.window.charge(1, later, 0));
    expect(looked.window.exportState()).toEqual(untouched.window.exportState());
  });

  it("reports a held window's poll while its requests are unanswered past its guessed end", () => {
    const { window } = charged(3);
    expect(window.waitMs(1, T0 + LENGTH_MS, 0)).toBe(POLL_MS);
    expect(window.view(T0 + LENGTH_MS + 5)).toMatchObject({ used: 3, endsInMs: -5 });
  });

  it("stops holding its end once told that no answer is still to come", () => {
    const { window } = charged(3);
    expect(window.waitMs(1, T0 + LENGTH_MS, 0)).toBe(POLL_MS);
    window.forgetUnanswered();
    expect(window.waitMs(1, T0 + LENGTH_MS, 0)).toBe(0);
    expect(window.exportState()).toMatchObject({ unanswered: 0, used: 3 });
  });

  it("exports its whole state as JSON the schema accepts, and a change to the export changes nothing", () => {
    const { window } = charged(3);
    const exported = window.exportState();
    expect(FixedWindowStateSchema.parse(JSON.parse(JSON.stringify(exported)))).toEqual(exported);
    expect(new FixedWindow(LENGTH_MS, 10, POLL_MS).exportState()).toMatchObject({ end: null, previousEnd: null, used: 0 });
    exported.used = 99;
    expect(window.exportState().used).toBe(3);
  });

  it("restores a state as a copy, keeping the lower of its limit and the state's", () => {
    const { window: source } = charged(3);
    const state = source.exportState();
    const lower = new FixedWindow(LENGTH_MS, 8, POLL_MS);
    lower.restoreState(state, T0);
    expect(lower.exportState()).toEqual({ ...state, limit: 8 });
    state.used = 99;
    expect(lower.exportState().used).toBe(3);
    const higher = new FixedWindow(LENGTH_MS, 20, POLL_MS);
    higher.restoreState({ ...source.exportState(), limit: 10 }, T0);
    expect(higher.limit).toBe(10);
  });

  it("clones into an independent window", () => {
    const { window } = charged(3);
    const copy = window.clone();
    copy.charge(5, T0, 0);
    expect(copy.exportState().used).toBe(8);
    expect(window.exportState().used).toBe(3);
    expect({ ...copy.exportState(), used: 3, own: 3, unanswered: 3 }).toEqual(window.exportState());
  });

  it("takes the server's limit, up to its own, and raises it again when a later report does", () => {
    const window = new FixedWindow(LENGTH_MS, 10, POLL_MS);
    window.learnLimit(6);
    expect(window.limit).toBe(6);
    window.learnLimit(12);
    expect(window.limit).toBe(10);
    window.learnLimit(8);
    window.learnLimit(10);
    expect(window.limit).toBe(10);
  });

  it("lowers its limit below half only when a second report confirms it, and recovers at the next report above", () => {
    const window = new FixedWindow(LENGTH_MS, 150, POLL_MS);
    window.learnLimit(1); // one odd answer
    expect(window.limit).toBe(75);
    window.learnLimit(150);
    expect(window.limit).toBe(150);
    window.learnLimit(1);
    window.learnLimit(3); // confirmed: the higher of the two
    expect(window.limit).toBe(3);
    window.learnLimit(1);
    expect(window.limit).toBe(3);
    window.learnLimit(1);
    expect(window.limit).toBe(1);
    window.learnLimit(140);
    expect(window.limit).toBe(140);
  });

  it("bounds what a shared state holds: a planted far end, previous end, limit or count delays it by a few windows at most", () => {
    const planted = {
      ...new FixedWindow(LENGTH_MS, 10, POLL_MS).exportState(),
      limit: 0,
      lowReport: null,
      generation: 7,
      end: 1e300,
      previousEnd: 1e300,
      used: 1e9,
      own: -5,
      ahead: 1e9,
      lateCarry: 1e9,
      othersExpected: 1e9,
    };
    const window = new FixedWindow(LENGTH_MS, 10, POLL_MS);
    window.restoreState(planted, T0);
    const restored = window.exportState();
    expect(restored).toMatchObject({ limit: 5, end: T0 + 1.25 * LENGTH_MS, previousEnd: T0, own: 0, othersExpected: 2 });
    expect(window.waitMs(1, T0, 0)).toBe(1.25 * LENGTH_MS);
    // Then the cost carried from it ages out one length later, and a request goes.
    expect(window.waitMs(1, T0 + 1.25 * LENGTH_MS, 0)).toBe(LENGTH_MS);
    expect(window.waitMs(1, T0 + 2.25 * LENGTH_MS, 0)).toBe(0);
    // A confirmed low limit is kept.
    window.restoreState({ ...planted, lowReport: 1 }, T0);
    expect(window.limit).toBe(1);
  });
});
