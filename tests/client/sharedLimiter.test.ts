/**
 * Limiters of several processes on one account share its state through a `LimiterStore`. Two
 * limiters on the machine's file store (each its own store object on one file, as two processes
 * have) and one hand-driven clock stand for two processes: together they never exceed a window,
 * keep one in-flight cap, share a pause and what the cap learned. The file store itself is tested
 * in `fileLimiterStore.test.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LimiterOptions, type Permit, RateLimiter } from "../../provider/client";
import { FileLimiterStore } from "../../provider/client/fileLimiterStore";
import type { LimiterStore } from "../../provider/client/limiterStore";
import { FakeClock, flush } from "./fakeClock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "adplatform-shared-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pair(clock: FakeClock, options: Partial<LimiterOptions> = {}): [RateLimiter, RateLimiter] {
  const make = () =>
    new RateLimiter({
      clock,
      burstWindowMs: 1_000,
      steadyWindowMs: 60_000,
      guardMs: 0,
      concurrency: { initial: 1000, min: 1, max: 1000 },
      // Each limiter its own store object on the same file, as two processes would have.
      sharedStore: new FileLimiterStore(join(dir, "account.json")),
      ...options,
    });
  return [make(), make()];
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

describe("two limiters on one shared store", () => {
  it("admit 10 per burst window and 150 per steady window together, and ride the windows", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock);
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
    const [a, b] = pair(clock, { concurrency: { initial: 3, min: 1, max: 3 } });
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

  it("share what one learned of the in-flight limit, and probe past it once for the machine", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock, { concurrency: { initial: 4, min: 1, max: 8 } });
    const fromA = acquireMany(a, clock, 3, false);
    await flush();
    const fromB = acquireMany(b, clock, 1, false);
    await clock.advance(1);
    expect([fromA.length, fromB.length]).toEqual([3, 1]);
    // The server allows 2: it refuses a's third (sent with 2 in flight) and b's (sent with 3).
    a.observe(fromA[2]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    expect(a.snapshot().concurrency).toBe(2);
    // b's refusal describes the cap before a lowered it: the machine's cap stays at the limit.
    b.observe(fromB[0]!.permit, { status: 429, retryAfter: { kind: "concurrency" } }, { release: true });
    expect(b.snapshot().concurrency).toBe(2);
    for (const { permit } of fromA.slice(0, 2)) a.observe(permit, { status: 200 }, { release: true });
    // b, never refused for its own count, sends at most 2 at once.
    const next = acquireMany(b, clock, 3, false);
    await clock.advance(10);
    expect(next).toHaveLength(2);
    // Past the ceiling only once a steady window has passed, and then for the whole machine.
    await clock.advance(60_000);
    for (const { permit } of next) b.observe(permit, { status: 200 }, { release: true });
    expect(b.snapshot().concurrency).toBe(3);
    expect(a.snapshot().concurrency).toBe(3);
  });

  it("share a Retry-After pause", async () => {
    const clock = new FakeClock();
    const [a, b] = pair(clock);
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

  it("are not looked at by calls that queue behind a full in-flight cap", async () => {
    const clock = new FakeClock();
    const store = new FileLimiterStore(join(dir, "account.json"));
    let looks = 0;
    const counting: LimiterStore = { transact: (fn) => (looks++, store.transact(fn)), load: () => store.load() };
    const [a] = pair(clock, { concurrency: { initial: 4, min: 1, max: 8 }, sharedStore: counting });
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
