/**
 * Fault injection: scripted rules ("the next N requests of op X") and seeded random shares.
 */
import { SEED_IDS } from "../../simulator";
import { type Harness, UUID, startHarness } from "../helpers/simulatorHarness";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const zone = `/v2/adex/zones/${SEED_IDS.zones.display}`;
const groupBody = { name: "Fault group", color: "#010203", items: ["5001"] };

describe("scripted faults", () => {
  beforeEach(async () => {
    h = await startHarness();
  });

  it("error500 answers {code, title, trace_id} and does not apply the request", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500", op: 2 }] });
    const reply = await h.call("POST", "/v2/adex/groups", { body: groupBody });
    expect(reply.status).toBe(500);
    expect(reply.json()).toEqual({ code: 500, title: expect.any(String), trace_id: expect.stringMatching(UUID) });
    // spec, Limits 5: a 500 did not hit the limit, so it carries the rate headers.
    expect(reply.headers["x-ratelimit-remaining"]).toBe("9");
    expect(h.sim.state().campaignGroups).toHaveLength(2);
    // The rule was spent: the next call succeeds.
    expect((await h.call("POST", "/v2/adex/groups", { body: groupBody })).status).toBe(201);
  });

  it("error500NoTrace answers {code, title, message} without trace_id (spec, Errors)", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500NoTrace" }] });
    const reply = await h.call("GET", zone);
    expect(reply.status).toBe(500);
    const body = reply.json();
    expect(body).toEqual({ code: 500, title: expect.any(String), message: expect.any(String) });
  });

  it("a rule applies to the named operation only, for count requests", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500", op: "getZone", count: 2 }] });
    expect((await h.call("GET", "/v1/hood/macros")).status).toBe(200);
    expect((await h.call("GET", zone)).status).toBe(500);
    expect((await h.call("GET", zone)).status).toBe(500);
    expect((await h.call("GET", zone)).status).toBe(200);
  });

  it("a rule can name the account", async () => {
    h.sim.setFaults({ rules: [{ kind: "error500", account: "second" }] });
    expect((await h.call("GET", zone)).status).toBe(200);
    expect((await h.call("GET", zone, { token: "second-token" })).status).toBe(500);
  });

  it("dropBefore closes the connection and the POST never reaches the store", async () => {
    h.sim.setFaults({ rules: [{ kind: "dropBefore", op: 2 }] });
    await expect(h.call("POST", "/v2/adex/groups", { body: groupBody })).rejects.toThrow();
    expect(h.sim.state().campaignGroups).toHaveLength(2);
    expect(h.sim.requests().operations["2"].byStatus).toEqual({ "dropped-before": 1 });
  });

  it("dropAfter applies the POST, then closes the connection without an answer", async () => {
    h.sim.setFaults({ rules: [{ kind: "dropAfter", op: 2 }] });
    await expect(h.call("POST", "/v2/adex/groups", { body: groupBody })).rejects.toThrow();
    const groups = h.sim.state().campaignGroups;
    expect(groups).toHaveLength(3);
    expect(groups[2]).toMatchObject({ name: "Fault group" });
    expect(h.sim.requests().operations["2"].calls[0]).toMatchObject({ status: "dropped-after", fault: "dropAfter", body: groupBody });
  });

  it("malformed answers the success status with a body that is not JSON", async () => {
    h.sim.setFaults({ rules: [{ kind: "malformed", op: 13 }] });
    const reply = await h.call("GET", zone);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^application\/json/);
    expect(reply.text.length).toBeGreaterThan(0);
    expect(() => reply.json()).toThrow(SyntaxError);
  });

  it("wrongShape applies the POST and answers 201 with the id kept and every other field null", async () => {
    h.sim.setFaults({ rules: [{ kind: "wrongShape", op: 2 }] });
    const reply = await h.call("POST", "/v2/adex/groups", { body: groupBody });
    expect(reply.status).toBe(201);
    const stored = h.sim.state().campaignGroups.find((g) => g.name === "Fault group");
    expect(stored).toBeDefined();
    expect(reply.json()).toEqual({ id: stored!.id, company_id: null, name: null, color: null, items: null });
    expect(h.sim.requests().operations["2"].calls[0]).toMatchObject({ status: 201, fault: "wrongShape" });
  });

  it("a 429 storm answers Retry-After N without consuming budget", async () => {
    h.sim.setFaults({ rules: [{ kind: "rateLimit", count: 3, retryAfter: 7 }] });
    for (let i = 0; i < 3; i++) {
      const reply = await h.call("GET", zone);
      expect(reply.status).toBe(429);
      expect(reply.headers["retry-after"]).toBe("7");
    }
    const next = await h.call("GET", zone);
    expect(next.status).toBe(200);
    expect(next.headers["x-ratelimit-remaining"]).toBe("9");
  });

  it("a concurrency storm answers Retry-After: -1", async () => {
    h.sim.setFaults({ rules: [{ kind: "concurrency", count: 2 }] });
    const replies = [await h.call("GET", zone), await h.call("GET", zone), await h.call("GET", zone)];
    expect(replies.map((r) => [r.status, r.headers["retry-after"]])).toEqual([
      [429, "-1"],
      [429, "-1"],
      [200, undefined],
    ]);
  });

  it("delay holds the request in flight for delayMs of real time, then answers normally", async () => {
    h.sim.setFaults({ rules: [{ kind: "delay", delayMs: 300 }] });
    const pending = h.call("GET", zone);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still in flight after 50 ms; the lower bound of the delay is what is checked, never an upper one.
    expect(h.sim.windows().inFlight.current).toBe(1);
    expect((await pending).status).toBe(200);
  });

  it("hold with holdAccount keeps only that account's requests in flight until released", async () => {
    h.sim.setFaults({ hold: true, holdAccount: "demo" });
    const held = h.call("GET", zone);
    while (h.sim.windows("demo").inFlight.current === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await h.call("GET", zone, { token: "second-token" })).status).toBe(200);
    // The demo request still waits at the gate after the other account's answer.
    expect(h.sim.windows("demo").inFlight.current).toBe(1);
    h.sim.setFaults({ hold: false });
    expect((await held).status).toBe(200);
  });

  it("hideCreatedForMs hides a created group from reads until that long after its create, seeded ones never", async () => {
    h.sim.setFaults({ hideCreatedForMs: 5000 });
    const created = (await h.call("POST", "/v2/adex/groups", { body: groupBody })).json() as { id: string };
    const view = () => h.call("GET", `/v2/adex/groups/${created.id}`);
    expect((await view()).status).toBe(404);
    // It exists: inspection shows it, and a seeded group reads as ever.
    expect(h.sim.state().campaignGroups.map((g) => g.id)).toContain(created.id);
    expect((await h.call("GET", `/v2/adex/groups/${SEED_IDS.campaignGroups.summer}`)).status).toBe(200);
    h.clock.advance(4999);
    expect((await view()).status).toBe(404);
    h.clock.advance(1);
    expect((await view()).status).toBe(200);
    // Turned off, a new record shows at once.
    h.sim.setFaults({ hideCreatedForMs: 0 });
    const next = (await h.call("POST", "/v2/adex/groups", { body: groupBody })).json() as { id: string };
    expect((await h.call("GET", `/v2/adex/groups/${next.id}`)).status).toBe(200);
  });

  it("rules are consulted in order and the first matching one applies", async () => {
    h.sim.setFaults({
      rules: [
        { kind: "error500", op: 13 },
        { kind: "rateLimit", retryAfter: 2 },
      ],
    });
    expect((await h.call("GET", "/v1/hood/macros")).status).toBe(429);
    expect((await h.call("GET", zone)).status).toBe(500);
    expect((await h.call("GET", zone)).status).toBe(200);
  });
});

describe("random faults", () => {
  const settings = { errorRate: 0.3, malformedRate: 0.2, rateLimitRate: 0.1 };

  async function statuses(seed: number): Promise<string[]> {
    const harness = await startHarness({ seed, faults: settings, limits: { C: { burst: 1000, steady: 1000 } } });
    try {
      const out: string[] = [];
      for (let i = 0; i < 40; i++) {
        const reply = await harness.call("GET", zone);
        let parses = true;
        try {
          reply.json();
        } catch {
          parses = false;
        }
        out.push(`${reply.status}${parses ? "" : "!"}`);
      }
      return out;
    } finally {
      await harness.close();
    }
  }

  it("the same seed gives the same faults for the same request sequence", async () => {
    const a = await statuses(42);
    const b = await statuses(42);
    expect(a).toEqual(b);
    // Every kind shows up in 40 draws with these shares, and most requests succeed.
    expect(new Set(a)).toEqual(new Set(["200", "500", "200!", "429"]));
    expect(a.filter((s) => s === "200").length).toBeGreaterThan(10);
  });

  it("another seed gives another sequence", async () => {
    expect(await statuses(42)).not.toEqual(await statuses(7));
  });

  it("reset restores the start-up settings and replays the same draws", async () => {
    h = await startHarness({ seed: 3, faults: { errorRate: 0.5 }, limits: { C: { burst: 1000, steady: 1000 } } });
    const run = async () => {
      const out = [];
      for (let i = 0; i < 12; i++) out.push((await h.call("GET", zone)).status);
      return out;
    };
    const first = await run();
    h.sim.reset();
    expect(await run()).toEqual(first);
  });

  it("refuses shares that add up to more than 1", async () => {
    h = await startHarness();
    expect(() => h.sim.setFaults({ errorRate: 0.7, dropBeforeRate: 0.5 })).toThrow(/at most 1/);
    expect(h.sim.options.faults).toEqual({});
  });
});
