/**
 * The limiter on a hand-driven clock: window arithmetic, the `fields` cost, server sync, pauses and
 * the adaptive concurrency cap. No sockets, no wall clock.
 */
import { type LimiterOptions, type Permit, RateLimiter } from "../../provider/client";
import { operationByName, RATE_CLASSES } from "../../provider/catalog";
import { FakeClock, flush } from "./fakeClock";

const BURST_MS = 1_000;
const STEADY_MS = 60_000;

function limiter(clock: FakeClock, options: Partial<LimiterOptions> = {}): RateLimiter {
  return new RateLimiter({
    clock,
    burstWindowMs: BURST_MS,
    steadyWindowMs: STEADY_MS,
    guardMs: 0,
    // The cap is tested on its own; elsewhere it must not be what limits admissions.
    concurrency: { initial: 1000, min: 1, max: 1000 },
    ...options,
  });
}

/** A fake clock with a precise timer that records the delay of every wake it is asked for. */
class PreciseFakeClock extends FakeClock {
  readonly wakes: number[] = [];
  setPreciseTimer(callback: () => void, ms: number) {
    this.wakes.push(ms);
    return this.setTimer(callback, ms);
  }
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
  });

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
    costs.forEach((cost, index) =>
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

  it("believes the server when it reports fewer requests left than we counted", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    // Another process spent 139 of this minute: 10 remain, and the minute ends in 30 s.
    l.observe(first, { status: 200, rateLimit: { limit: 150, remaining: 10, resetMs: 30_000 } });
    first.release();
    const reportedAt = clock.now();
    const { admitted } = acquireMany(l, clock, 20);
    await flush();
    expect(admitted).toHaveLength(9); // burst: 1 + 9
    await clock.advance(BURST_MS);
    expect(admitted).toHaveLength(10); // steady: 140 + 10 = 150
    await clock.advance(25_000);
    expect(admitted).toHaveLength(10);
    await clock.advance(30_000 - 25_000 - BURST_MS);
    expect(admitted.length).toBeGreaterThan(10);
    expect(admitted[10]!.at).toBe(reportedAt + 30_000);
  });

  it("adds what it admitted after a request to the server's count, and holds as much back for another process", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    const later = acquireMany(l, clock, 4, 1, false);
    await later.all;
    // The server had counted 3 when it took our first request: 2 are another process's. Our 4 later
    // requests may not be counted yet, and the other process may have as many in flight.
    l.observe(first, { status: 200, rateLimit: { limit: 10, remaining: 7, resetMs: 800 } });
    expect(l.snapshot().windows.C?.burst.used).toBe(3 + 4 + 4);
    const blocked = acquireMany(l, clock, 1);
    await flush();
    expect(blocked.admitted).toHaveLength(0);
    // Our 4 later requests are answered before the window ends (else they would be carried too).
    later.admitted.forEach((a) => a.permit.release());
    await clock.advance(800);
    expect(blocked.admitted).toHaveLength(1);
    // The next window opens with the other process's share of the last one already counted.
    expect(l.snapshot().windows.C?.burst.used).toBe(2 + 1);
  });

  it("forgets another process's share once a window shows it no longer spends", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    l.observe(first, { status: 200, rateLimit: { limit: 10, remaining: 5, resetMs: 500 } });
    first.release();
    await clock.advance(500);
    const second = await l.acquire({ rateClass: "C", cost: 1 });
    expect(l.snapshot().windows.C?.burst.used).toBe(4 + 1); // the 4 others of the last window, and ours
    l.observe(second, { status: 200, rateLimit: { limit: 10, remaining: 9, resetMs: 900 } });
    second.release();
    await clock.advance(900);
    await l.acquire({ rateClass: "C", cost: 1 });
    expect(l.snapshot().windows.C?.burst.used).toBe(1);
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

  it("ignores a report about a window that has already ended", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const synced = await l.acquire({ rateClass: "C", cost: 1 });
    l.observe(synced, { status: 200, rateLimit: { limit: 10, remaining: 9, resetMs: BURST_MS } });
    synced.release();
    const old = await l.acquire({ rateClass: "C", cost: 1 });
    await clock.advance(BURST_MS);
    const fresh = await l.acquire({ rateClass: "C", cost: 1 });
    // The old request's response travelled across the boundary: it says its window was full. Its
    // cost, carried while it was unanswered, goes back: it was counted in the old window.
    expect(l.snapshot().windows.C?.burst.used).toBe(2);
    l.observe(old, { status: 200, rateLimit: { limit: 10, remaining: 0, resetMs: 1 } });
    expect(l.snapshot().windows.C?.burst.used).toBe(1);
    old.release();
    fresh.release();
  });

  it("charges a request admitted just before the boundary to the next window too", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { guardMs: 50 });
    const first = await l.acquire({ rateClass: "C", cost: 1 });
    first.release();
    // The window we opened ends at length + guard; 20 ms before that, 9 more go out.
    await clock.advance(BURST_MS + 50 - 20);
    const late = acquireMany(l, clock, 9);
    await flush();
    expect(late.admitted).toHaveLength(9);
    await clock.advance(20);
    // Those 9 may land in the server's next window: only 1 more fits there.
    const next = acquireMany(l, clock, 2);
    await flush();
    expect(next.admitted).toHaveLength(1);
  });

  it("carries a request still unanswered at the boundary into the next window, until its answer says where it was counted", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    // A cold start: 10 go out at once and no answer comes back before our window's end.
    const first = acquireMany(l, clock, 10, 1, false);
    await first.all;
    await clock.advance(BURST_MS);
    // Any of the 10 may still reach the server after its window ended: none of them fits beside.
    const next = acquireMany(l, clock, 3);
    await flush();
    expect(next.admitted).toHaveLength(0);
    // 4 answers say they were counted in the window they were admitted in (it ends now): their
    // carried cost goes back, 3 more fit.
    for (const [i, a] of first.admitted.slice(0, 4).entries()) {
      l.observe(a.permit, { status: 200, rateLimit: { limit: 10, remaining: 9 - i, resetMs: 0 } });
      a.permit.release();
    }
    await flush();
    expect(next.admitted).toHaveLength(3);
    // 2 answers say they were counted in the server's next window (it ends a whole length later):
    // they stay charged to ours. 4 are still unanswered. 10 - 4 - 2 - 3 = 1 more fits.
    for (const a of first.admitted.slice(4, 6)) {
      l.observe(a.permit, { status: 200, rateLimit: { limit: 10, remaining: 8, resetMs: BURST_MS } });
      a.permit.release();
    }
    const more = acquireMany(l, clock, 2);
    await flush();
    expect(more.admitted).toHaveLength(1);
    expect(l.snapshot().windows.C?.burst.used).toBe(10);
    first.admitted.slice(6).forEach((a) => a.permit.release());
  });

  it("holds a window past its guessed end while none of its requests is answered, until an answer gives the server's end", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    // A cold start: 10 go out, nothing answers for 1.5 windows (the server's window opened late).
    const first = acquireMany(l, clock, 10, 1, false);
    await first.all;
    const next = acquireMany(l, clock, 10);
    await clock.advance(BURST_MS * 1.5);
    expect(next.admitted).toHaveLength(0);
    // The first answer: the server's window ends 300 ms from now. Every request of ours is in it.
    l.observe(first.admitted[9]!.permit, { status: 200, rateLimit: { limit: 10, remaining: 0, resetMs: 300 } });
    first.admitted.forEach((a) => a.permit.release());
    await clock.advance(299);
    expect(next.admitted).toHaveLength(0);
    await clock.advance(1);
    expect(next.admitted).toHaveLength(10);
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

  it("looks again at a burst window's pace while a held steady window waits for an answer", async () => {
    // A held window waits for answers other processes may receive; they arrive on a request's time
    // scale, so a held steady window must not wait a fiftieth of a minute between looks.
    const clock = new PreciseFakeClock();
    const { wakes } = clock;
    const l = limiter(clock);
    const answered = await l.acquire({ rateClass: "C", cost: 1 });
    await l.acquire({ rateClass: "C", cost: 1 }); // never answered: both windows carry it
    // The burst window's end comes from the server; the steady window's stays our guess.
    l.observe(answered, { status: 200, rateLimit: { limit: 10, remaining: 8, resetMs: BURST_MS } }, { release: true });
    await clock.advance(STEADY_MS + 1);
    wakes.length = 0;
    const { admitted } = acquireMany(l, clock, 1);
    await flush();
    expect(admitted).toHaveLength(0);
    expect(wakes).toEqual([BURST_MS / 50]);
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

  it("gives a refused request's cost back to the steady window, so the server's unspent budget is not lost", async () => {
    const clock = new FakeClock();
    const l = limiter(clock);
    const first = acquireMany(l, clock, 10, 1, false);
    await first.all;
    expect(l.snapshot().windows.C?.steady.used).toBe(10);
    // Three of them reach a server window that was still full: 429, not counted there.
    for (const a of first.admitted.slice(7)) l.observe(a.permit, { status: 429, retryAfter: { kind: "delay", ms: 1_000 } });
    first.admitted.forEach((a) => a.permit.release());
    expect(l.snapshot().windows.C?.steady.used).toBe(7);
    // 150 - 7 = 143 more fit this steady window (the server's count), not 140.
    await clock.advance(1_000);
    const rest = acquireMany(l, clock, 143);
    await clock.advance(14 * BURST_MS);
    expect(rest.admitted).toHaveLength(143);
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

  it("halves the cap on Retry-After: -1, once per congestion event, then raises it one at a time", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 8, min: 1, max: 8 } });
    const { admitted, all } = acquireMany(l, clock, 8, 1, false);
    await all;
    // Three requests sent together are refused together: one decrease, not three.
    for (const a of admitted.slice(0, 3)) l.observe(a.permit, { status: 429, retryAfter: { kind: "concurrency" } });
    expect(l.snapshot().concurrency).toBe(4);
    admitted.forEach((a) => a.permit.release());
    // Additive increase: one more slot after a cap's worth of good responses.
    await clock.advance(BURST_MS);
    const good = acquireMany(l, clock, 4, 1, false);
    await good.all;
    good.admitted.forEach((a) => {
      l.observe(a.permit, { status: 200 });
      a.permit.release();
    });
    expect(l.snapshot().concurrency).toBe(5);
  });

  it("drops the cap to what a -1 proves the server allows, and probes past it again only rarely", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 4, min: 1, max: 8 } });
    // A server that allows 2 in flight: the requests admitted 3rd and 4th are refused.
    const first = acquireMany(l, clock, 4, 1, false);
    await first.all;
    l.observe(first.admitted[2]!.permit, { status: 429, retryAfter: { kind: "concurrency" } });
    l.observe(first.admitted[3]!.permit, { status: 429, retryAfter: { kind: "concurrency" } });
    expect(l.snapshot().concurrency).toBe(2);
    first.admitted.forEach((a) => a.permit.release());
    // Plain AIMD would try 3 after 2 good responses; with the ceiling learned it waits a steady window.
    let good = 0;
    while (l.snapshot().concurrency === 2 && good < 1000) {
      await clock.advance(BURST_MS);
      const permit = await l.acquire({ rateClass: "C", cost: 1 });
      l.observe(permit, { status: 200 });
      permit.release();
      good += 1;
    }
    // One good answer a second: the first after the minute is up makes the cap try 3.
    expect(good).toBe(STEADY_MS / BURST_MS);
    expect(l.snapshot().concurrency).toBe(3);
  });

  /** `times` requests, each sent alone and refused with `Retry-After: -1`. */
  async function refuseAlone(l: RateLimiter, clock: FakeClock, times: number): Promise<void> {
    for (let i = 0; i < times; i += 1) {
      const permit = await l.acquire({ rateClass: "C", cost: 1 });
      await clock.advance(1);
      l.observe(permit, { status: 429, retryAfter: { kind: "concurrency" } });
      permit.release();
    }
  }

  it("never lowers the cap below its minimum", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 2, min: 1, max: 4 } });
    await refuseAlone(l, clock, 3);
    expect(l.snapshot().concurrency).toBe(1);
  });

  it("learns no ceiling from a -1 on a request alone in flight: the cap grows back without waiting a steady window", async () => {
    const clock = new FakeClock();
    const l = limiter(clock, { concurrency: { initial: 2, min: 1, max: 4 } });
    // Refused with nothing else of ours in flight: someone else's requests (or a storm) filled the
    // limit, so it says nothing about the limit itself.
    await refuseAlone(l, clock, 2);
    expect(l.snapshot().concurrency).toBe(1);
    // One cap's worth of good answers later (one, a second apart) the cap is 2 again, well inside the minute.
    await clock.advance(BURST_MS);
    const permit = await l.acquire({ rateClass: "C", cost: 1 });
    l.observe(permit, { status: 200 });
    permit.release();
    expect(l.snapshot().concurrency).toBe(2);
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
});
