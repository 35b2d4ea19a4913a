/**
 * Limiters sharing one account's state through a store, on a hand-driven clock: the file store
 * (synchronous, what the processes of a machine share) and a store that answers a turn later (as
 * Redis does; its own suite runs a real server). Together they act as one limiter.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LimiterOptions, type Permit, RateLimiter } from "../../../provider/limiter";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import {
  FileLimiterStore,
  type LimiterStore,
  MemoryLimiterStore,
  sharedStateDirectory,
  sharedStateName,
} from "../../../provider/limiter/limiterStores";
import { sharedLimiter, resetLimiters } from "../../../provider/limiter/limiterRegistry";
import { FakeClock, flush, PreciseFakeClock } from "../../helpers/fakeClock";
import { waitFor } from "../../helpers/waitFor";

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
    l.acquire({ rateClass: "C", cost: 1 }).then(
      (permit) => {
        admitted.push({ at: clock.now(), permit });
        if (release) permit.release();
      },
      () => undefined, // still waiting as its test ends: a release heard then decides on a directory removed
    );
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

/** The memory store, answering a turn later as a networked store does (and telling releases as it does). */
function asynchronous(store: MemoryLimiterStore): LimiterStore {
  return {
    update: async (name: string, decide: (state: LimiterState | undefined) => LimiterState, by?: string) => {
      await Promise.resolve();
      store.update(name, decide, by);
    },
    watch: (name, by, heard) => store.watch(name, by, heard),
  };
}

const STORES = [
  {
    kind: "file store (synchronous)",
    pair: (): [LimiterStore, LimiterStore] => [new FileLimiterStore(dir), new FileLimiterStore(dir)],
  },
  {
    kind: "store that answers a turn later",
    pair: (): [LimiterStore, LimiterStore] => {
      const store = new MemoryLimiterStore();
      return [asynchronous(store), asynchronous(store)];
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
    // b hears a's release (the file store: through its watch of the directory, in real time) and takes the slot: no poll timer.
    await clock.advance(0);
    await waitFor(() => fromB.length === 1);
    expect(fromB).toHaveLength(1);
  });

  it("hear the other's releases, with no precise timer (nor any poll) while they wait", async () => {
    // A precise timer polls the event loop for its last stretch: processes waiting on each other's
    // releases would spin the CPU their answers need.
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
    // b hears a's release (the file store: through its watch of the directory, in real time) and takes the slot: no poll timer.
    await clock.advance(0);
    await waitFor(() => fromB.length === 1);
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
    // a's next decision reads the machine's cap.
    acquireMany(a, clock, 1);
    await flush();
    expect(a.snapshot().concurrency).toBe(3);
  });

  it("share a refusal: the window it reports is full for both until its end", async () => {
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

  it("do not hold anything for a limiter that died with requests in flight: its tickets stop counting once it is silent for the liveness period", async () => {
    const clock = new FakeClock();
    const [one, two] = pair();
    const options = { concurrency: { initial: 4, min: 1, max: 4 } };
    // a's process is killed once its requests are out: its timers never fire, so it decides no more (no heartbeat).
    const killed = { now: () => clock.now(), setTimer: () => undefined, clearTimer: () => undefined };
    const a = limiterOn(clock, one, { ...options, clock: killed });
    const b = limiterOn(clock, two, options);
    expect(acquireMany(a, clock, 4, false)).toBeDefined();
    await flush();
    // a never answers nor releases: b waits the liveness period (10 s), not the tickets' life (60 s), then goes on.
    const fromB = acquireMany(b, clock, 10);
    await clock.advance(9_999);
    expect(fromB).toHaveLength(0);
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

describe("a limiter on a store", () => {
  it("takes one decision for calls issued at once, not one per call", async () => {
    const clock = new FakeClock();
    const file = new FileLimiterStore(dir);
    let updates = 0;
    const counted: LimiterStore = { update: (name, decide) => (updates++, file.update(name, decide)) };
    const l = limiterOn(clock, counted);
    const admitted = acquireMany(l, clock, 300);
    await flush();
    expect(admitted).toHaveLength(10);
    expect(updates).toBeLessThanOrEqual(2);
  });

  it("fails the waiting calls with the store's error when the store fails", async () => {
    const clock = new FakeClock();
    const broken: LimiterStore = { update: () => Promise.reject(new Error("store unreachable")) };
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
    await first.acquire({ rateClass: "C", cost: 1 }).then((permit) => permit.release());
    await first.flush();
    expect(existsSync(new FileLimiterStore(sharedStateDirectory()).pathOf(sharedStateName("account-1")))).toBe(true);
    expect(sharedLimiter("account-3", { shareAcrossProcesses: false }).options.sharedStore).toBeUndefined();
    resetLimiters();
    expect(sharedLimiter("account-1")).not.toBe(first);
  });
});
