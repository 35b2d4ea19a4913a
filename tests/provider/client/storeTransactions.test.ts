/**
 * One limiter's transactions on a store, on both kinds of store: the file store answers at once,
 * the memory store on a later turn. The log records every step, so the tests see whether a
 * transaction ran inside another, or started before the previous one was saved.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileLimiterStore } from "../../../provider/client/fileLimiterStore";
import type { LimiterState, LimiterStore } from "../../../provider/client/limiterStore";
import { MemoryLimiterStore } from "../../../provider/client/memoryLimiterStore";
import { StoreTransactions } from "../../../provider/client/storeTransactions";
import { flush } from "../../helpers/fakeClock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-transactions-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Transactions on `store` whose hooks log what they see: the pause each adopted and published. */
function logged(store: LimiterStore) {
  const log: string[] = [];
  let pause = 0;
  const failures: unknown[] = [];
  const transactions = new StoreTransactions(store, {
    adopt: (state) => {
      pause = state.pausedUntil ?? 0;
      log.push(`adopt ${pause}`);
    },
    publish: (state) => {
      state.pausedUntil = pause;
      log.push(`publish ${pause}`);
    },
    failed: (error) => failures.push(error),
  });
  /** A decision: raises the pause by one. */
  const raise = (name: string, then?: () => void) => () => {
    pause += 1;
    log.push(name);
    then?.();
  };
  return { log, failures, transactions, raise };
}

describe("store transactions on a synchronous store", () => {
  it("have run when run returns, and one asked for inside a decision runs after it, not inside", () => {
    const { log, transactions, raise } = logged(new FileLimiterStore(join(dir, "account.json")));
    transactions.run(raise("first", () => transactions.run(raise("asked inside"))));
    expect(log).toEqual(["adopt 0", "first", "publish 1", "adopt 1", "asked inside", "publish 2"]);
  });

  it("read the store for a look at once", () => {
    const store = new FileLimiterStore(join(dir, "account.json"));
    store.transact((state) => void (state.pausedUntil = 7));
    const { log, transactions } = logged(store);
    transactions.look();
    expect(log).toEqual(["adopt 7"]);
  });
});

describe("store transactions on an asynchronous store", () => {
  it("run one at a time, in the order asked for, each on what the one before saved", async () => {
    const { log, transactions, raise } = logged(new MemoryLimiterStore());
    transactions.run(raise("first"));
    transactions.run(raise("second"));
    transactions.run(raise("third"));
    expect(log).toEqual([]);
    expect(transactions.queued).toBe(2);
    await flush();
    expect(log).toEqual(["adopt 0", "first", "publish 1", "adopt 1", "second", "publish 2", "adopt 2", "third", "publish 3"]);
    expect(transactions.queued).toBe(0);
  });

  it("never have two pending at once, though the store would run them concurrently", async () => {
    const store = new MemoryLimiterStore();
    let pending = 0;
    let mostPending = 0;
    const watched: LimiterStore = {
      transact: <T>(fn: (state: LimiterState) => T) => {
        mostPending = Math.max(mostPending, ++pending);
        return store.transact(fn).finally(() => pending--);
      },
      load: () => store.load(),
    };
    const { transactions, raise } = logged(watched);
    for (let i = 0; i < 5; i += 1) transactions.run(raise(`decision ${i}`));
    await flush();
    expect(mostPending).toBe(1);
  });

  it("take a look's answer over when it arrives, unless a transaction started meanwhile", async () => {
    const store = new MemoryLimiterStore();
    await store.transact((state) => void (state.pausedUntil = 4));
    const quiet = logged(store);
    quiet.transactions.look();
    expect(quiet.log).toEqual([]);
    await flush();
    expect(quiet.log).toEqual(["adopt 4"]);
    // A read that arrives late, after a transaction read and saved a newer state, is not taken over.
    const late: LimiterStore = {
      transact: (fn) => store.transact(fn),
      load: () => {
        const read = store.load();
        return new Promise((resolve) => setTimeout(() => resolve(read), 20));
      },
    };
    const busy = logged(late);
    busy.transactions.look();
    busy.transactions.run(busy.raise("decision"));
    await flush();
    expect(busy.log).toEqual(["adopt 4", "decision", "publish 5"]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(busy.log).toEqual(["adopt 4", "decision", "publish 5"]);
  });

  it("report a failed transaction and run the next one", async () => {
    let calls = 0;
    const store = new MemoryLimiterStore();
    const flaky: LimiterStore = {
      transact: (fn) => (++calls === 1 ? Promise.reject(new Error("store unreachable")) : store.transact(fn)),
      load: () => store.load(),
    };
    const { log, failures, transactions, raise } = logged(flaky);
    transactions.run(raise("lost"));
    transactions.run(raise("next"));
    await flush();
    expect(failures).toEqual([new Error("store unreachable")]);
    expect(log).toEqual(["adopt 0", "next", "publish 1"]);
  });
});
