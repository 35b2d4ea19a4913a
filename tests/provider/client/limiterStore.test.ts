/**
 * The shared limiter state's schema: what every store reads and writes. Each store is tested in
 * its own file (`fileLimiterStore.test.ts`, `memoryLimiterStore.test.ts`).
 */
import { emptyLimiterState, isPromiseLike, LimiterStateSchema } from "../../../provider/client/limiterStore";
import { RateClassWindows } from "../../../provider/client/rateClassWindows";

describe("limiter state", () => {
  it("starts empty and valid", () => {
    expect(LimiterStateSchema.parse(emptyLimiterState())).toEqual({ version: 1, classes: {}, pausedUntil: null, inFlight: {} });
  });

  it("holds what the units export, through JSON", () => {
    const windows = new RateClassWindows({ burst: 10, steady: 150 }, { burstMs: 1_000, steadyMs: 60_000 }, 20);
    windows.charge(2, 1_000, 5);
    const state = {
      ...emptyLimiterState(),
      classes: { C: windows.exportState() },
      pausedUntil: 4_000,
      inFlight: { "12:1": 1 },
      concurrency: { cap: 3, ceiling: 3, decreasedAt: 900 },
    };
    expect(LimiterStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it("rejects another version or a foreign document", () => {
    expect(LimiterStateSchema.safeParse({ ...emptyLimiterState(), version: 2 }).success).toBe(false);
    expect(LimiterStateSchema.safeParse({ windows: [] }).success).toBe(false);
  });
});

describe("isPromiseLike", () => {
  it("tells an asynchronous store's answer from a synchronous one's", () => {
    expect(isPromiseLike(Promise.resolve(1))).toBe(true);
    expect(isPromiseLike(emptyLimiterState())).toBe(false);
    expect(isPromiseLike(undefined)).toBe(false);
  });
});
