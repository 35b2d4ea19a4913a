/**
 * The limiter's driver on a hand-driven clock: its queue (FIFO with backfilling, retries at their
 * call's place, aborts), riding the windows, the `fields` cost, its timers, and how responses reach
 * the model. The model's rules themselves are traced in `limiterModel.test.ts`; limiters sharing a
 * store in `limiter.sharedStore.test.ts`. No sockets, no wall clock.
 */
import { type LimiterOptions, type Permit, RateLimiter } from "../../../provider/limiter";
import type { LimiterState } from "../../../provider/limiter/limiterState";
import type { LimiterStore } from "../../../provider/limiter/limiterStores";
import { operationByName, RATE_CLASSES } from "../../../provider/catalog";
import { FakeClock, flush, PreciseFakeClock } from "../../helpers/fakeClock";

const BURST_MS = 1_000;
const STEADY_MS = 60_000;

function limiter(clock: FakeClock, options: Partial<LimiterOptions> = {}): RateLimiter {
  return new RateLimiter({
    clock,
    burstWindowMs: BURST_MS,
    steadyWindowMs: STEADY_MS,
    guardMs: 0,
    // The cap is tested on its own (and in the cases below that set it); elsewhere it must not be
    // what limits admissions.
    concurrency: { initial: 1000, min: 1, max: 1000 },
    ...options,
  });
}

/** Starts `count` acquisitions and records when each is admitted. */
function acquireMany(l: RateLimiter, clock: FakeClock, count: number, cost = 1, release = true) {
  const admitted: { at: number; permit: Permit }[] = [];
  const all = Array.from({ length: count }, () =>
    l.acquire({ rateClass: "C", cost }).then((permit) => {
      admitted.push({ at: clock.now(), permit });
      if (release) permit.release();
      return permit;
    }),
  );
  return { admitted, all: Promise.all(all) };
}

/**
 * A server that counts like the simulator: a window opens at the first request it sees after the
 * previous one ended (fixed windows, spec Limits 1). Returns the largest cost it saw in one window.
 */
function lazyServerMax(arrivals: readonly number[], lengthMs: number): number {
  let start = Number.NEGATIVE_INFINITY;
  let used = 0;
  let max = 0;
  for (const t of [...arrivals].sort((a, b) => a - b)) {
    if (t >= start + lengthMs) {
      start = t;
      used = 0;
    }
    used += 1;
    max = Math.max(max, used);
  }
  return max;
}

describe("rate limiter", () => {
  it("admits a burst window's worth at once and holds the next request until the window ends", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const start = clock.now();
    const { admitted } = acquireMany(l, clock, 11);
    await flush();
    expect(admitted).toHaveLength(10);
    expect(admitted.every((a) => a.at === start)).toBe(true);
    await clock.advance(BURST_MS - 1);
    expect(admitted).toHaveLength(10);
    await clock.advance(1);
    expect(admitted).toHaveLength(11);
    expect(admitted[10]!.at).toBe(start + BURST_MS);
  });

  it("rides the fixed windows: 300 requests need the first minute and about 15 s of the next", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const start = clock.now();
    const { admitted, all } = acquireMany(l, clock, 300);
    while (admitted.length < 300) await clock.advance(100);
    await all;
    const times = admitted.map((a) => a.at - start);
    // 150 in the first minute, 10 per burst window, then nothing until the minute turns.
    expect(times.filter((t) => t < STEADY_MS)).toHaveLength(150);
    expect(times[149]).toBe(14 * BURST_MS);
    expect(times[150]).toBe(STEADY_MS);
    expect(times[299]).toBe(STEADY_MS + 14 * BURST_MS);
  });

  it("never lets a server that opens windows at the first request count more than the limits", async () => {
    const clock = new FakeClock();
    const guardMs = 30;
    const l = limiter(clock, { guardMs, concurrency: { initial: 3, min: 1, max: 3 } });
    const arrivals: number[] = [];
    const inFlight: { permit: Permit; doneAt: number }[] = [];
    for (let n = 0; n < 200; n += 1) {
      void l.acquire({ rateClass: "C", cost: 1 }).then((permit) => {
        // Each request reaches the server 0..guard ms after admission; its response 5 ms later.
        const delay = (n * 7) % (guardMs + 1);
        arrivals.push(clock.now() + delay);
        inFlight.push({ permit, doneAt: clock.now() + delay + 5 });
      });
    }
    while (arrivals.length < 200) {
      await clock.advance(1);
      for (const entry of inFlight.filter((e) => e.doneAt <= clock.now())) {
        entry.permit.release();
        inFlight.splice(inFlight.indexOf(entry), 1);
      }
    }
    expect(lazyServerMax(arrivals, BURST_MS)).toBeLessThanOrEqual(10);
    expect(lazyServerMax(arrivals, STEADY_MS)).toBeLessThanOrEqual(150);
    // And it did not get there by crawling: 200 requests within the second minute.
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(2 * STEADY_MS);
    // ~120,000 fake-clock steps: CPU-bound, so on a loaded 2-core machine it needs more than jest's 5 s.
  }, 60_000);

  it("charges a request with fields=a,b as 3 calls (spec, Limits 7)", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const getZone = operationByName("getZone");
    const cost = getZone.cost({ fields: ["account", "creator"] });
    expect(cost).toBe(3);
    const { admitted } = acquireMany(l, clock, 4, cost);
    await flush();
    expect(admitted).toHaveLength(3); // 9 of 10; a fourth would make 12
    expect(l.snapshot().windows.C?.burst.used).toBe(9);
    expect(l.snapshot().windows.C?.steady.used).toBe(9);
    await clock.advance(BURST_MS);
    expect(admitted).toHaveLength(4);
  });

  it("lets cheap requests behind a costly head fill the window the head cannot use (backfilling)", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const start = clock.now();
    // 3+1+1+1+3+1 fills the first window; then 1, 1, 3 (8) and a cost-3 head that does not fit.
    const costs = [3, 1, 1, 1, 3, 1, 1, 1, 3, 1, 1, 1, 3, 1, 1, 1];
    const admitted: { index: number; at: number }[] = [];
    costs.forEach(
      (cost, index) =>
        void l.acquire({ rateClass: "C", cost }).then((permit) => {
          admitted.push({ index, at: clock.now() });
          permit.release();
        }),
    );
    await flush();
    expect(admitted.map((a) => a.index)).toEqual([0, 1, 2, 3, 4, 5]);
    await clock.advance(BURST_MS);
    // Strict FIFO would stop at 8 (indexes 6-11) behind the cost-3 head (12); its two cost-1
    // followers go now instead, and the window carries 10.
    expect(admitted.filter((a) => a.at === start + BURST_MS).map((a) => a.index)).toEqual([6, 7, 8, 9, 10, 11, 13, 14]);
    expect(l.snapshot().windows.C?.burst.used).toBe(10);
    await clock.advance(BURST_MS);
    // The head goes first when the next window opens: it was not delayed, and is not starved.
    expect(admitted.filter((a) => a.at === start + 2 * BURST_MS).map((a) => a.index)).toEqual([12, 15]);
  });

  it("never lets a request overtake the head when that would make the head wait longer", async () => {
    const clock = new FakeClock();
    // Burst 10, steady 12: after 3+3+2 the burst window has 2 left and the steady window 4.
    const l = limiter(clock, { classes: { ...RATE_CLASSES, C: { burst: 10, steady: 12 } } });
    const start = clock.now();
    const admitted: { name: string; at: number }[] = [];
    const take = (name: string, cost: number) =>
      void l.acquire({ rateClass: "C", cost }).then((permit) => {
        admitted.push({ name, at: clock.now() });
        permit.release();
      });
    take("a", 3);
    take("b", 3);
    take("c", 2);
    take("head", 3); // 8 + 3 > 10: waits for the burst window's end, when the steady window has 4
    take("two", 2); // fits now, but would leave the steady window 2 < 3: the head would wait a minute
    take("one", 1); // fits now and leaves 3: the head still goes at the burst window's end
    await flush();
    expect(admitted.map((a) => a.name)).toEqual(["a", "b", "c", "one"]);
    await clock.advance(BURST_MS);
    expect(admitted.map((a) => a.name)).toEqual(["a", "b", "c", "one", "head"]);
    expect(admitted.find((a) => a.name === "head")!.at).toBe(start + BURST_MS);
    await clock.advance(STEADY_MS - BURST_MS);
    expect(admitted.map((a) => a.name)).toEqual(["a", "b", "c", "one", "head", "two"]);
  });

  it("moves its window end to X-RateLimit-Reset", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const { admitted, all } = acquireMany(l, clock, 10, 1, false);
    await all;
    // The server's burst window opened earlier (another process) and ends in 200 ms.
    l.observe(admitted[9]!.permit, { status: 200, rateLimit: { limit: 10, remaining: 0, resetMs: 200 } });
    const reportedAt = clock.now();
    admitted.forEach((a) => a.permit.release());
    const next = acquireMany(l, clock, 1);
    await clock.advance(199);
    expect(next.admitted).toHaveLength(0);
    await clock.advance(1);
    expect(next.admitted).toHaveLength(1);
    expect(next.admitted[0]!.at).toBe(reportedAt + 200);
  });

  it("wakes for a window boundary on the clock's precise timer when it has one", async () => {
    const clock = new PreciseFakeClock();
    const { wakes } = clock;
    const l = limiter(clock);
    const { admitted } = acquireMany(l, clock, 11);
    await flush();
    expect(admitted).toHaveLength(10);
    expect(wakes).toEqual([BURST_MS]);
    await clock.advance(BURST_MS);
    expect(admitted).toHaveLength(11);
  });

  it("observes and releases in one step: the slot frees and the next request goes", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 1, min: 1, max: 1 } });
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    const { admitted } = acquireMany(l, clock, 1, 1, false);
    await flush();
    expect(admitted).toHaveLength(0);
    // The headers arrived 5 ms ago; the body just now.
    l.observe(first, { status: 200, rateLimit: { limit: 10, remaining: 9, resetMs: 500 } }, { receivedAt: clock.now() - 5, release: true });
    await flush();
    expect(admitted).toHaveLength(1);
    expect(l.snapshot().inFlight).toBe(1);
    first.release(); // idempotent after the combined step
    expect(l.snapshot().inFlight).toBe(1);
  });

  it("admits nothing for Retry-After seconds after a 429", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const permit = await l.acquire({ rateClass: "C", cost: 1 });
    l.observe(permit, { status: 429, retryAfter: { kind: "delay", ms: 5_000 } });
    permit.release();
    const { admitted } = acquireMany(l, clock, 1);
    await clock.advance(4_999);
    expect(admitted).toHaveLength(0);
    await clock.advance(1);
    expect(admitted).toHaveLength(1);
  });

  it("after a refusal that arrives once its burst window ended, goes again at once, not at Retry-After", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const [first, second] = await Promise.all([l.acquire({ rateClass: "C", cost: 1 }), l.acquire({ rateClass: "C", cost: 1 })]);
    // The first answer gives the window's end, 1 s on.
    l.observe(first!, { status: 200, rateLimit: { limit: 10, remaining: 9, resetMs: BURST_MS } }, { release: true });
    // The second reached the server when another machine had filled that window; its refusal,
    // "1 s" rounded up, arrives 50 ms after the window ended. The window it was about is over.
    await clock.advance(BURST_MS + 50);
    l.observe(second!, { status: 429, retryAfter: { kind: "delay", ms: BURST_MS } }, { release: true });
    const { admitted } = acquireMany(l, clock, 10);
    await flush();
    expect(admitted).toHaveLength(10);
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 4, min: 1, max: 10 } });
    const { admitted } = acquireMany(l, clock, 6, 1, false);
    await flush();
    expect(admitted).toHaveLength(4);
    admitted[0]!.permit.release();
    await flush();
    expect(admitted).toHaveLength(5);
    expect(l.snapshot().inFlight).toBe(4);
  });

  it("queues a retry at its call's place, ahead of calls that queued after it", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 1, min: 1, max: 1 } });
    const order: string[] = [];
    const take = (name: string, queuedSince: number) =>
      l.acquire({ rateClass: "C", cost: 1, queuedSince }).then((permit) => {
        order.push(name);
        permit.release();
      });
    const held = await l.acquire({ rateClass: "C", cost: 1, queuedSince: clock.now() });
    await clock.advance(1);
    const later = [take("b", clock.now()), take("c", clock.now() + 1)];
    // The held call's retry (its call queued before b and c) goes first.
    const retry = take("retry of a", held.admittedAt);
    held.release();
    await Promise.all([...later, retry]);
    expect(order).toEqual(["retry of a", "b", "c"]);
  });

  it("rejects a waiting acquisition when its signal aborts, and lets the next one through", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 1, min: 1, max: 1 } });
    const held = await l.acquire({ rateClass: "C", cost: 1 });
    const controller = new AbortController();
    const aborted = l.acquire({ rateClass: "C", cost: 1 }, controller.signal);
    const next = l.acquire({ rateClass: "C", cost: 1 });
    controller.abort(new Error("caller gave up"));
    await expect(aborted).rejects.toThrow("caller gave up");
    held.release();
    await expect(next).resolves.toMatchObject({ rateClass: "C" });
    expect(l.snapshot().queued).toBe(0);
  });

  it("after a store failure, decides the events that came meanwhile and serves the next call", async () => {
    const clock = new FakeClock();
    let failing: Promise<void> | undefined;
    let state: LimiterState | undefined;
    const store: LimiterStore = {
      update: async (_name, decide) => {
        if (failing !== undefined) {
          await failing;
          failing = undefined;
          throw new Error("the store is gone");
        }
        state = decide(state);
      },
    };
    const l = limiter(clock, { sharedStore: store, concurrency: { initial: 1, min: 1, max: 1 } });
    const held = await l.acquire({ rateClass: "C", cost: 1 });
    let fail!: () => void;
    failing = new Promise((resolve) => (fail = resolve));
    const refused = l.acquire({ rateClass: "C", cost: 1 });
    await flush(); // the decision is on its way to the store
    held.release();
    fail();
    await expect(refused).rejects.toThrow("the store is gone");
    await l.flush();
    await expect(l.acquire({ rateClass: "C", cost: 1 })).resolves.toMatchObject({ rateClass: "C" });
  });

  it("leaves no wake-up behind once nobody waits: a timer would decide for no one after the work is done", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 1, min: 1, max: 1 } });
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    const second = l.acquire({ rateClass: "C", cost: 1 });
    await flush();
    // The second waits for the first's release, or its ticket's expiry; the first's holder beats (`heartbeatMs`).
    expect(clock.pending).toBe(2);
    first.release();
    (await second).release();
    await l.flush();
    expect(clock.pending).toBe(0);
  });
});
