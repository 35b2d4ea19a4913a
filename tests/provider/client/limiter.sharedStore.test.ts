/**
 * Limiters of one account sharing its state through a `LimiterStore`. Two limiters on one store
 * and one hand-driven clock stand for two processes: together they never exceed a window, keep one
 * in-flight cap, share a pause and what the cap learned. Every case runs on the machine's file
 * store (synchronous: each limiter its own store object on one file, as two processes have) and on
 * the memory store (asynchronous: every transaction completes on a later turn, so a limiter's
 * calls arrive while its transaction is pending).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LimiterOptions, type LimiterSnapshot, type Permit, RateLimiter } from "../../../provider/client";
import { FallbackLimiterStore } from "../../../provider/client/fallbackLimiterStore";
import { FileLimiterStore, sharedStatePathForKey } from "../../../provider/client/fileLimiterStore";
import type { LimiterState, LimiterStore } from "../../../provider/client/limiterStore";
import { sharedLimiter, resetLimiters } from "../../../provider/client/limiterRegistry";
import { MemoryLimiterStore } from "../../../provider/client/memoryLimiterStore";
import { FakeClock, flush, PreciseFakeClock } from "../../helpers/fakeClock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-shared-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function limiterOn(clock: FakeClock, store: LimiterStore, options: Partial<LimiterOptions> = {}): RateLimiter {
  return new RateLimiter({
    clock,
    burstWindowMs: 1_000,
    steadyWindowMs: 60_000,
    guardMs: 0,
    concurrency: { initial: 1000, min: 1, max: 1000 },
    sharedStore: store,
    ...options,
  });
}

/** Starts `count` acquisitions on `l`, recording admission times; releases at once unless told. */
function acquireMany(l: RateLimiter, clock: FakeClock, count: number, release = true) {
  const admitted: { at: number; permit: Permit }[] = [];
  for (let i = 0; i < count; i++) {
    void l.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
      admitted.push({ at: clock.now(), permit });
      if (release) permit.release();
    });
  }
  return admitted;
}

/** Largest number of admissions inside any window of `length` starting at an admission. */
function maxInWindow(times: number[], length: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j < sorted.length && sorted[j]! < sorted[i]! + length) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

/** `l`'s snapshot once its read of the store has arrived (an asynchronous store answers later). */
async function snapshotRead(l: RateLimiter): Promise<LimiterSnapshot> {
  l.snapshot();
  await flush();
  return l.snapshot();
}

const STORES = [
  {
    kind: "file store (synchronous)",
    pair: (): [LimiterStore, LimiterStore] => [
      new FileLimiterStore(join(dir, "account.json")),
      new FileLimiterStore(join(dir, "account.json")),
    ],
  },
  {
    kind: "memory store (asynchronous)",
    pair: (): [LimiterStore, LimiterStore] => {
      const store = new MemoryLimiterStore();
      return [store, store];
    },
  },
];

describe.each(STORES)("two limiters on one $kind", ({ pair }) => {
  function limiters(clock: FakeClock, options: Partial<LimiterOptions> = {}): [RateLimiter, RateLimiter] {
    const [one, two] = pair();
    return [limiterOn(clock, one, options), limiterOn(clock, two, options)];
  }

  it("admit 10 per burst window and 150 per steady window together, and ride the windows", async () => {
    const clock = new FakeClock();
    const [a, b] = limiters(clock);
    const start = clock.now();
    const fromA = acquireMany(a, clock, 150);
    const fromB = acquireMany(b, clock, 150);
    for (let t = 0; t < 80_000; t += 50) await clock.advance(50);
    await flush();
    const times = [...fromA, ...fromB].map((x) => x.at - start);
    expect(times).toHaveLength(300);
    expect(maxInWindow(times, 1_000)).toBe(10);
    expect(maxInWindow(times, 60_000)).toBe(150);
    // Riding the windows: 150 by 14 s, the rest from 60 s, the last at 74 s (the physical bound).
    expect(Math.max(...times)).toBe(74_000);
    // Both got a share; neither starved.
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB.length).toBeGreaterThan(0);
  });

  it("keep one in-flight cap for the machine", async () => {
    const clock = new FakeClock();
    const [a, b] = limiters(clock, { concurrency: { initial: 3, min: 1, max: 3 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const fromB = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(fromA).toHaveLength(3);
    expect(fromB).toHaveLength(0);
    fromA[0]!.permit.release();
    await clock.advance(50);
    expect(fromB).toHaveLength(1);
  });

  it("look for the other's releases on an ordinary timer, not a precise one", async () => {
    // A precise timer polls the event loop for its last stretch, which is all of a poll this
    // short: processes waiting on each other's releases would spin the CPU their answers need.
    const clock = new PreciseFakeClock();
    const [a, b] = limiters(clock, { concurrency: { initial: 3, min: 1, max: 3 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const precise = clock.wakes.length;
    const fromB = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(fromB).toHaveLength(0);
    expect(clock.wakes.length).toBe(precise);
    fromA[0]!.permit.release();
    await clock.advance(50);
    expect(fromB).toHaveLength(1);
  });

  it("share what one learned of the in-flight limit, and probe past it once for the machine", async () => {
    const clock = new FakeClock();
    const [a, b] = limiters(clock, { concurrency: { initial: 4, min: 1, max: 8 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const fromB = acquireMany(b, clock, 1, false);
    await clock.advance(1);
    expect([fromA.length, fromB.length]).toEqual([3, 1]);
    // The server allows 2: it refuses a's third (sent with 2 in flight) and b's (sent with 3).
    a.observe(fromA[2]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    await flush();
    expect(a.snapshot().concurrency).toBe(2);
    // b's refusal describes the cap before a lowered it: the machine's cap stays at the limit.
    b.observe(fromB[0]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    await flush();
    expect(b.snapshot().concurrency).toBe(2);
    for (const { permit } of fromA.slice(0, 2)) a.observe(permit, { status: 200 }, { release: true });
    // b, never refused for its own count, sends at most 2 at once.
    const next = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(next).toHaveLength(2);
    // Past the ceiling only once a steady window has passed, and then for the whole machine.
    await clock.advance(60_000);
    for (const { permit } of next) b.observe(permit, { status: 200 }, { release: true });
    await flush();
    expect(b.snapshot().concurrency).toBe(3);
    expect((await snapshotRead(a)).concurrency).toBe(3);
  });

  it("share a Retry-After pause", async () => {
    const clock = new FakeClock();
    const [a, b] = limiters(clock);
    const admittedA = acquireMany(a, clock, 1, false);
    await clock.advance(1);
    const first = admittedA[0];
    a.observe(first!.permit, { status: 429, retryAfter: { kind: "delay", ms: 5_000 } });
    first!.permit.release();
    const fromB = acquireMany(b, clock, 1);
    await clock.advance(4_999);
    expect(fromB).toHaveLength(0);
    await clock.advance(1);
    expect(fromB).toHaveLength(1);
  });

  it("do not hold a window open for the answers of a limiter that died with requests in flight", async () => {
    const clock = new FakeClock();
    const [one, two] = pair();
    const a = limiterOn(clock, one);
    const b = limiterOn(clock, two);
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    expect(fromA).toHaveLength(3);
    // a dies before any answer: the store drops its in-flight entries (a dead pid, a lapsed lease).
    await two.transact((state) => {
      for (const id of Object.keys(state.inFlight)) delete state.inFlight[id];
    });
    // 7 fit beside a's 3; the other 3 wait for the burst window to end, which no answer will move.
    const fromB = acquireMany(b, clock, 10);
    for (let t = 0; t < 3_000; t += 50) await clock.advance(50);
    expect(fromB).toHaveLength(10);
  });

  it("admit each limiter's calls in the order they queued, across window boundaries", async () => {
    const clock = new FakeClock();
    const [a, b] = limiters(clock);
    const order = { a: [] as number[], b: [] as number[] };
    for (let n = 0; n < 40; n += 1) {
      for (const [name, l] of [
        ["a", a],
        ["b", b],
      ] as const) {
        void l.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
          order[name].push(n);
          permit.release();
        });
      }
    }
    for (let t = 0; t < 10_000; t += 50) await clock.advance(50);
    const inOrder = Array.from({ length: 40 }, (_, n) => n);
    expect(order).toEqual({ a: inOrder, b: inOrder });
  });
});

describe("a limiter on the synchronous file store", () => {
  it("is not looked at by calls that queue behind a full in-flight cap", async () => {
    const clock = new FakeClock();
    const store = new FileLimiterStore(join(dir, "account.json"));
    let looks = 0;
    const counting: LimiterStore = { transact: (fn) => (looks++, store.transact(fn)), load: () => store.load() };
    const a = limiterOn(clock, counting, { concurrency: { initial: 4, min: 1, max: 8 } });
    const admitted = acquireMany(a, clock, 300, false);
    // One look admitted each of the first 4; the other 296 queued without a look (a release pumps).
    expect(looks).toBe(4);
    await flush();
    expect(admitted).toHaveLength(4);
    admitted[0]!.permit.release();
    await flush();
    expect(admitted).toHaveLength(5);
  });
});

describe("a limiter on the synchronous file store, beside another that holds the cap", () => {
  it("is looked at once by calls issued at once, not once per call, and admits them when the other releases", async () => {
    const clock = new FakeClock();
    const cap = { concurrency: { initial: 4, min: 1, max: 8 } };
    const other = limiterOn(clock, new FileLimiterStore(join(dir, "account.json")), cap);
    const held = acquireMany(other, clock, 4, false);
    await flush();
    expect(held).toHaveLength(4);
    const store = new FileLimiterStore(join(dir, "account.json"));
    let looks = 0;
    const counting: LimiterStore = { transact: (fn) => (looks++, store.transact(fn)), load: () => store.load() };
    const b = limiterOn(clock, counting, cap);
    const admitted = acquireMany(b, clock, 300, false);
    // The first call's look found the machine's cap full and set a poll; the other 299 queued
    // behind it without a look each (every look reads what the other process wrote).
    expect(looks).toBe(1);
    held.forEach((h) => h.permit.release());
    // Its poll (a fiftieth of the burst window) finds the cap free.
    await clock.advance(20);
    expect(admitted).toHaveLength(4);
  });
});

/**
 * A limiter's own view of a shared store: how many of its transactions were pending at once, at
 * most, and the transactions it asked for.
 */
class WatchedStore implements LimiterStore {
  pending = 0;
  mostPending = 0;
  asked = 0;
  constructor(private readonly store: LimiterStore) {}
  transact<T>(fn: (state: LimiterState) => T): Promise<T> {
    this.asked += 1;
    this.pending += 1;
    this.mostPending = Math.max(this.mostPending, this.pending);
    return Promise.resolve(this.store.transact(fn)).finally(() => {
      this.pending -= 1;
    });
  }
  load() {
    return this.store.load();
  }
}

describe("limiters on an asynchronous store", () => {
  it("never have two transactions of one limiter pending at once, while the store sees both limiters' overlap", async () => {
    const clock = new FakeClock();
    const shared = new MemoryLimiterStore();
    const [ownA, ownB] = [new WatchedStore(shared), new WatchedStore(shared)];
    const [a, b] = [limiterOn(clock, ownA), limiterOn(clock, ownB)];
    const fromA = acquireMany(a, clock, 30);
    const fromB = acquireMany(b, clock, 30);
    for (let t = 0; t < 10_000; t += 50) await clock.advance(50);
    expect(fromA.length + fromB.length).toBe(30 + 30);
    expect([ownA.mostPending, ownB.mostPending]).toEqual([1, 1]);
    expect(shared.mostPending).toBeGreaterThan(1);
  });

  it("look once for calls issued at once: the first call's pending look serves them all", async () => {
    const clock = new FakeClock();
    const store = new WatchedStore(new MemoryLimiterStore());
    const a = limiterOn(clock, store, { concurrency: { initial: 4, min: 1, max: 8 } });
    const admitted = acquireMany(a, clock, 300, false);
    // The first call's look is pending; the others queue behind it without one of their own, and
    // its decision, taken when the store answers, sees them all.
    expect(store.asked).toBe(1);
    await flush();
    expect(store.asked).toBe(1);
    expect(admitted).toHaveLength(4);
    admitted[0]!.permit.release();
    await flush();
    expect(admitted).toHaveLength(5);
  });

  it("count against the cap only the other's requests still in flight, not its answers still to be settled", async () => {
    const clock = new FakeClock();
    const store = new MemoryLimiterStore();
    const cap = { concurrency: { initial: 3, min: 1, max: 3 } };
    const [a, b] = [limiterOn(clock, store, cap), limiterOn(clock, store, cap)];
    const fromA = acquireMany(a, clock, 2, false);
    await flush();
    expect(fromA).toHaveLength(2);
    // A admits a third while the answer to its first is in and its settling transaction waits
    // behind that admission's: A's entry shows 3 pending, 1 of them answered. B asks in between.
    const third = acquireMany(a, clock, 1, false);
    a.observe(fromA[0]!.permit, { status: 200 }, { release: true });
    const fromB = acquireMany(b, clock, 1, false);
    await flush();
    expect(third).toHaveLength(1);
    // The server has 2 of A's in flight under a cap of 3: B's call goes at once, without waiting
    // for A's next transaction or a poll (the clock has not moved).
    expect(fromB).toHaveLength(1);
  });

  it("free at most another limiter's whole entry, whatever its settling says", async () => {
    const store = new MemoryLimiterStore();
    await store.transact((state) => {
      state.inFlight["1:1:elsewhere"] = 2;
      state.settling = { "1:1:elsewhere": 50, "2:1:gone": 3 };
    });
    const clock = new FakeClock();
    const b = limiterOn(clock, store, { concurrency: { initial: 3, min: 1, max: 3 } });
    const fromB = acquireMany(b, clock, 5, false);
    await flush();
    expect(fromB).toHaveLength(3);
    // B's own entry went in beside the other's; the settling entry of a limiter with none is gone.
    const saved = await store.load();
    expect(saved.settling).toEqual({ "1:1:elsewhere": 50 });
  });

  it("fail the waiting calls with the store's error when a transaction fails", async () => {
    const clock = new FakeClock();
    const broken: LimiterStore = {
      transact: () => Promise.reject(new Error("store unreachable")),
      load: () => Promise.reject(new Error("store unreachable")),
    };
    const a = limiterOn(clock, broken);
    await expect(a.acquire({ rateClass: "C", cost: 1 })).rejects.toThrow("store unreachable");
    expect(a.snapshot().queued).toBe(0);
  });
});

describe("sharedLimiter", () => {
  afterEach(() => resetLimiters());

  it("gives one limiter per account key, sharing through the machine's state file unless told not to", async () => {
    const first = sharedLimiter("account-1");
    expect(sharedLimiter("account-1")).toBe(first);
    expect(sharedLimiter("account-2")).not.toBe(first);
    const store = first.options.sharedStore as FallbackLimiterStore;
    expect(store).toBeInstanceOf(FallbackLimiterStore);
    await Promise.resolve(store.transact(() => undefined));
    expect(store.usingLocal).toBe(false);
    expect(existsSync(sharedStatePathForKey("account-1"))).toBe(true);
    expect(sharedLimiter("account-3", { shareAcrossProcesses: false }).options.sharedStore).toBeUndefined();
    resetLimiters();
    expect(sharedLimiter("account-1")).not.toBe(first);
  });
});
