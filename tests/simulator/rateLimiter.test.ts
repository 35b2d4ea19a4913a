/**
 * Rate limits (spec, Limits): fixed 1 s / 60 s windows per account, class C = 10 / 150, `fields`
 * cost, 429 with Retry-After, the X-RateLimit-* headers, and the in-flight limit with
 * `Retry-After: -1`. The simulator clock is a fake clock, so no test depends on wall time.
 */
import { SEED_IDS } from "../../simulator";
import { type Harness, startHarness } from "../helpers/simulatorHarness";
import { waitFor } from "../helpers/waitFor";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const zone = `/v2/adex/zones/${SEED_IDS.zones.display}`;
const get = (path = zone, token?: string) => h.call("GET", path, { token });

async function sequential(n: number, path = zone, token?: string) {
  const replies = [];
  for (let i = 0; i < n; i++) replies.push(await get(path, token));
  return replies;
}

describe("burst window (10 per 1 s)", () => {
  beforeEach(async () => {
    h = await startHarness();
  });

  it("admits 10 and answers the 11th inside the window with 429 and Retry-After", async () => {
    const replies = await sequential(10);
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies.map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
    h.clock.advance(999);
    const eleventh = await get();
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers["retry-after"]).toBe("1");
    expect(eleventh.headers).not.toHaveProperty("x-ratelimit-remaining");
  });

  it("admits again once the window has ended, with a fresh count", async () => {
    await sequential(10);
    h.clock.advance(1000);
    const reply = await get();
    expect(reply.status).toBe(200);
    expect(reply.headers["x-ratelimit-remaining"]).toBe("9");
  });

  it("a 429 consumes no budget", async () => {
    await sequential(10);
    for (let i = 0; i < 5; i++) expect((await get()).status).toBe(429);
    h.clock.advance(1000);
    expect((await sequential(10)).every((r) => r.status === 200)).toBe(true);
    expect(h.sim.windows().classes.C!.steady.used).toBe(20);
    expect(h.sim.windows().classes.C!.rejected).toBe(5);
  });

  it("X-RateLimit-Reset counts down to the end of the window in decimal seconds", async () => {
    const first = await get();
    expect(first.headers["x-ratelimit-limit"]).toBe("10");
    expect(first.headers["x-ratelimit-reset"]).toBe("1");
    h.clock.advance(250);
    expect((await get()).headers["x-ratelimit-reset"]).toBe("0.75");
  });

  it("X-RateLimit-Reset keeps microseconds and rounds up, so the end it gives is never early", async () => {
    await get();
    h.clock.advance(975.2683);
    // 24.7317 ms left: 0.0247317 s, rounded up to the microsecond.
    expect((await get()).headers["x-ratelimit-reset"]).toBe("0.024732");
  });

  it("counts every operation of the account against the same windows", async () => {
    const paths = [
      "/v1/hood/macros",
      "/v2/platform/countries",
      zone,
      `/v2/adex/groups/${SEED_IDS.campaignGroups.summer}`,
      "/v1/hood/segments",
    ];
    for (let i = 0; i < 10; i++) expect((await get(paths[i % paths.length])).status).toBe(200);
    expect((await h.call("POST", "/v2/adex/groups", { body: { name: "g", color: "#000000", items: ["1"] } })).status).toBe(429);
  });

  it("keeps a separate budget per account (spec, Authentication 3)", async () => {
    await sequential(10);
    expect((await get()).status).toBe(429);
    const other = await get(zone, "second-token");
    expect(other.status).toBe(200);
    expect(other.headers["x-ratelimit-remaining"]).toBe("9");
  });
});

describe("steady window (150 per 60 s)", () => {
  it("answers the 151st request inside one steady window with 429 and the seconds until it resets", async () => {
    h = await startHarness();
    for (let burst = 0; burst < 15; burst++) {
      const replies = await sequential(10);
      expect(replies.every((r) => r.status === 200)).toBe(true);
      h.clock.advance(1000);
    }
    // 15 s into the steady window: the burst window is fresh, the steady one is spent.
    const reply = await get();
    expect(reply.status).toBe(429);
    expect(reply.headers["retry-after"]).toBe("45");
    h.clock.advance(45_000);
    expect((await get()).status).toBe(200);
  });

  it("reports the steady window in the headers once it is the tighter one", async () => {
    h = await startHarness({ limits: { C: { burst: 10, steady: 12 } } });
    await sequential(10);
    h.clock.advance(1000);
    const reply = await get();
    // burst: 9 left, steady: 1 left -> steady is reported.
    expect(reply.headers["x-ratelimit-limit"]).toBe("12");
    expect(reply.headers["x-ratelimit-remaining"]).toBe("1");
    expect(reply.headers["x-ratelimit-reset"]).toBe("59");
  });

  it("scales with the window options", async () => {
    h = await startHarness({ burstWindowMs: 100, steadyWindowMs: 1000 });
    await sequential(10);
    expect((await get()).status).toBe(429);
    h.clock.advance(100);
    const reply = await get();
    expect(reply.status).toBe(200);
    expect(reply.headers["x-ratelimit-reset"]).toBe("0.1");
  });
});

describe("fields cost (spec, Limits 7)", () => {
  beforeEach(async () => {
    h = await startHarness();
  });

  it("a request with fields=account,creator costs 3 on an operation that takes fields", async () => {
    const reply = await get(`${zone}?fields=account,creator`);
    expect(reply.status).toBe(200);
    expect(reply.headers["x-ratelimit-remaining"]).toBe("7");
    expect(h.sim.windows().classes.C!.steady).toMatchObject({ used: 3, remaining: 147 });
    expect(h.sim.requests().operations["13"].calls[0]).toMatchObject({ cost: 3, query: { fields: "account,creator" } });
  });

  it("the burst window refuses a request whose cost no longer fits", async () => {
    for (let i = 0; i < 3; i++) expect((await get(`${zone}?fields=account,creator`)).status).toBe(200);
    // 9 used: a cost-3 request does not fit, a cost-1 request does.
    expect((await get(`/api/v1/adex/creatives/${SEED_IDS.creatives.nativeShoes}?fields=a,b`)).status).toBe(429);
    expect((await get()).status).toBe(200);
  });

  it("fields on an operation that does not take them costs 1", async () => {
    const reply = await get(`/v1/hood/macros?fields=a,b,c`);
    expect(reply.headers["x-ratelimit-remaining"]).toBe("9");
  });

  it("a request costing more than the whole burst limit fits only into an empty window", async () => {
    const many = Array.from({ length: 12 }, (_, i) => `f${i}`).join(",");
    expect((await get(`${zone}?fields=${many}`)).status).toBe(200);
    expect((await get()).status).toBe(429);
  });
});

describe("in-flight limit (spec, Limits 6)", () => {
  it("answers 429 with Retry-After: -1 when maxInFlight requests are already in flight", async () => {
    h = await startHarness({ maxInFlight: 2, faults: { hold: true } });
    const held = [get(), get()];
    await waitFor(() => h.sim.windows().inFlight.current === 2);
    const third = await get();
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("-1");
    // Another account has its own in-flight count.
    const waitingOther = get(zone, "second-token");
    await waitFor(() => h.sim.windows("second").inFlight.current === 1);
    h.sim.setFaults({ hold: false });
    expect((await Promise.all([...held, waitingOther])).map((r) => r.status)).toEqual([200, 200, 200]);
    await waitFor(() => h.sim.windows().inFlight.current === 0);
    expect(h.sim.windows().inFlight).toMatchObject({ peak: 2, max: 2, rejected: 1 });
    // The -1 answer cost no budget: 2 admitted.
    expect(h.sim.windows().classes.C!.burst.used).toBe(2);
    expect((await get()).status).toBe(200);
  });
});

describe("Retry-After unit (option retryAfterUnitMs, for scaled windows)", () => {
  it("rounds the wait up to the unit and writes it as decimal seconds", async () => {
    h = await startHarness({ burstWindowMs: 50, steadyWindowMs: 3000, retryAfterUnitMs: 50 });
    await sequential(10);
    h.clock.advance(12);
    // 38 ms left of the burst window: one unit of 50 ms.
    expect((await get()).headers["retry-after"]).toBe("0.05");
    h.clock.advance(38);
    for (let i = 0; i < 14; i++) {
      await sequential(10);
      h.clock.advance(50);
    }
    // 150 spent; 3000 - 750 = 2250 ms left of the steady window = 45 units.
    expect((await get()).headers["retry-after"]).toBe("2.25");
  });

  it("defaults to whole seconds, never below 1", async () => {
    h = await startHarness({ burstWindowMs: 50, steadyWindowMs: 3000 });
    await sequential(10);
    expect((await get()).headers["retry-after"]).toBe("1");
  });
});
