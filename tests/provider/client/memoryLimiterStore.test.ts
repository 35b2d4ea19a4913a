/**
 * The in-memory limiter store, the asynchronous implementation of `LimiterStore`: it answers on a
 * later turn, runs transactions one at a time in the order asked for, and keeps the state
 * serialized. Limiters on it are in `limiter.sharedStore.test.ts`.
 */
import { emptyLimiterState } from "../../../provider/client/limiterStore";
import { MemoryLimiterStore } from "../../../provider/client/memoryLimiterStore";

describe("memory limiter store", () => {
  it("runs a transaction on a later turn, after the call returned", async () => {
    const store = new MemoryLimiterStore();
    const seen: string[] = [];
    const result = store.transact((state) => {
      seen.push("fn");
      state.pausedUntil = 7;
      return "done";
    });
    seen.push("returned");
    expect(result).toBeInstanceOf(Promise);
    await expect(result).resolves.toBe("done");
    expect(seen).toEqual(["returned", "fn"]);
    expect((await store.load()).pausedUntil).toBe(7);
  });

  it("runs transactions one at a time, in the order asked for, each on what the previous one saved", async () => {
    const store = new MemoryLimiterStore();
    const order: number[] = [];
    const results = [1, 2, 3].map((n) =>
      store.transact((state) => {
        order.push(n);
        state.inFlight[`x:${n}`] = n;
        return Object.keys(state.inFlight).length;
      }),
    );
    expect(store.mostPending).toBe(3);
    expect(await Promise.all(results)).toEqual([1, 2, 3]);
    expect(order).toEqual([1, 2, 3]);
  });

  it("saves nothing of a transaction that throws, and runs the next one", async () => {
    const store = new MemoryLimiterStore();
    const failed = store.transact((state) => {
      state.pausedUntil = 1;
      throw new Error("broken decision");
    });
    const next = store.transact((state) => state.pausedUntil);
    await expect(failed).rejects.toThrow("broken decision");
    await expect(next).resolves.toBeNull();
  });

  it("reads without writing: a change to what load returned is not saved", async () => {
    const store = new MemoryLimiterStore();
    const read = await store.load();
    expect(read).toEqual(emptyLimiterState());
    read.pausedUntil = 9;
    expect((await store.load()).pausedUntil).toBeNull();
  });
});
