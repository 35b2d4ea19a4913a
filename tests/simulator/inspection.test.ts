/**
 * The inspection surface under /_sim/: no auth, not rate-limited, not logged.
 */
import { SEED_IDS } from "../../simulator";
import { BINDINGS } from "../../simulator/bindings";
import { type Harness, startHarness } from "../helpers/simulatorHarness";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const zone = `/v2/adex/zones/${SEED_IDS.zones.display}`;
const sim = (method: string, path: string, body?: unknown) => h.call(method, `/_sim/${path}`, { token: null, body });

describe("GET /_sim/state", () => {
  it("returns every collection an operation is bound to, in wire shape, for demo by default", async () => {
    const reply = await sim("GET", "state");
    expect(reply.status).toBe(200);
    const state = reply.json();
    const collections = new Set([...BINDINGS.values()].map((binding) => binding.collection));
    expect(Object.keys(state).sort()).toEqual([...collections].sort());
    for (const name of collections) expect(state[name].length).toBeGreaterThan(0);
    expect(state.zonePlacements[0]).toMatchObject({ zone_id: SEED_IDS.zones.display, company_id: "7001" });
    expect(state.abTestVariations[0]).toHaveProperty("ab_test_id");
    expect(state).toEqual(h.sim.state());
  });

  it("takes ?account= and answers 404 for an unknown account", async () => {
    expect((await sim("GET", "state?account=second")).json().zones[0].company_id).toBe("7002");
    expect((await sim("GET", "state?account=nobody")).status).toBe(404);
  });

  it("is a copy: changing it changes nothing", async () => {
    const copy = h.sim.state();
    copy.zones.length = 0;
    expect(h.sim.state().zones).toHaveLength(4);
  });

  it("is neither rate-limited nor counted", async () => {
    for (let i = 0; i < 15; i++) expect((await sim("GET", "state")).status).toBe(200);
    expect(h.sim.windows().classes).toEqual({});
    expect(h.sim.requests().total).toBe(0);
  });
});

describe("GET /_sim/requests", () => {
  it("counts by operation and status and keeps each body and query, never the token", async () => {
    await h.call("PATCH", `/v2/adex/bid-modifiers/${SEED_IDS.bidModifiers.countries}`, { body: { value: "2.00" } });
    await h.call("GET", `${zone}?fields=account`);
    await h.call("GET", "/v2/adex/zones/999");
    const reply = await sim("GET", "requests");
    const log = reply.json();
    expect(log).toMatchObject({ account: "demo", total: 3, byStatus: { "204": 1, "200": 1, "404": 1 } });
    expect(log.operations["1"]).toMatchObject({ name: "updateBidModifier", count: 1, byStatus: { "204": 1 } });
    expect(log.operations["1"].calls[0]).toMatchObject({ method: "PATCH", body: { value: "2.00" }, status: 204, cost: 1 });
    expect(log.operations["13"]).toMatchObject({ count: 2, byStatus: { "200": 1, "404": 1 } });
    expect(log.operations["13"].calls[0].query).toEqual({ fields: "account" });
    expect(reply.text).not.toMatch(/demo-token|authorization/i);
  });

  it("logs requests without a valid token under anonymous and unknown paths as unmatched", async () => {
    await h.call("GET", zone, { token: "wrong" });
    await h.call("GET", "/nowhere", { token: null });
    await h.call("GET", "/elsewhere");
    const log = (await sim("GET", "requests?account=anonymous")).json();
    expect(log.operations["13"].byStatus).toEqual({ "401": 1 });
    expect(log.operations.unmatched.byStatus).toEqual({ "404": 1 });
    expect(JSON.stringify(log)).not.toMatch(/wrong/);
    // With a valid token an unknown path is logged under that account.
    expect(h.sim.requests().operations.unmatched.calls[0].path).toBe("/elsewhere");
  });

  it("shows that both containers and tags were sent while the state shows containers applied", async () => {
    const path = `/v2/adex/bid-modifiers/${SEED_IDS.bidModifiers.mobile}`;
    await h.call("PATCH", path, { body: { containers: ["7"], tags: ["8"] } });
    expect(h.sim.requests().operations["1"].calls[0].body).toEqual({ containers: ["7"], tags: ["8"] });
    expect(h.sim.state().bidModifiers.find((m) => m.id === SEED_IDS.bidModifiers.mobile)).toMatchObject({
      containers: ["7"],
      tags: ["legacy-mobile"],
    });
  });
});

describe("POST /_sim/reset", () => {
  it("restores the seed, clears the log and the windows", async () => {
    await h.call("POST", "/v2/adex/groups", { body: { name: "n", color: "#000000", items: ["1"] } });
    for (let i = 0; i < 9; i++) await h.call("GET", zone);
    expect((await sim("POST", "reset")).status).toBe(204);
    expect(h.sim.state().campaignGroups).toHaveLength(2);
    expect(h.sim.requests().total).toBe(0);
    expect((await h.call("GET", zone)).headers["x-ratelimit-remaining"]).toBe("9");
    // Created ids start over too, so a test run is repeatable.
    const id = (await h.call("POST", "/v2/adex/groups", { body: { name: "n", color: "#000000", items: ["1"] } })).json().id;
    expect(id).toBe("100001");
  });
});

describe("DELETE /_sim/objects/<collection>/<id>", () => {
  it("removes one record so the API answers 404 (drift)", async () => {
    const path = `/v2/adex/groups/${SEED_IDS.campaignGroups.summer}`;
    expect((await h.call("GET", path)).status).toBe(200);
    expect((await sim("DELETE", `objects/campaignGroups/${SEED_IDS.campaignGroups.summer}`)).status).toBe(204);
    expect((await h.call("GET", path)).status).toBe(404);
    // Only in that account.
    expect((await h.call("GET", path, { token: "second-token" })).status).toBe(200);
  });

  it("answers 404 for a missing record and takes ?account=", async () => {
    expect((await sim("DELETE", "objects/zones/424242")).status).toBe(404);
    expect((await sim("DELETE", `objects/zones/${SEED_IDS.zones.rtb}?account=second`)).status).toBe(204);
    expect(h.sim.state("second").zones.map((z) => z.id)).not.toContain(SEED_IDS.zones.rtb);
    expect(h.sim.state().zones.map((z) => z.id)).toContain(SEED_IDS.zones.rtb);
  });
});

describe("/_sim/faults", () => {
  it("POST merges settings, GET shows them with the remaining rule counts", async () => {
    const posted = await sim("POST", "faults", { errorRate: 0.25, rules: [{ kind: "error500", op: 13, count: 2 }] });
    expect(posted.status).toBe(200);
    expect(posted.json()).toMatchObject({ errorRate: 0.25, rules: [{ kind: "error500", op: 13, count: 2 }] });
    await sim("POST", "faults", { errorRate: 0 });
    expect((await h.call("GET", zone)).status).toBe(500);
    const current = (await sim("GET", "faults")).json();
    expect(current).toMatchObject({ errorRate: 0, rules: [{ kind: "error500", count: 1 }] });
  });

  it("POST answers 400 for invalid settings and keeps the old ones", async () => {
    const reply = await sim("POST", "faults", { errorRate: 2 });
    expect(reply.status).toBe(400);
    expect(reply.json().message).toMatch(/errorRate/);
    expect((await sim("POST", "faults", { rules: [{ kind: "explode" }] })).status).toBe(400);
    expect((await sim("POST", "faults", { unknownSetting: 1 })).status).toBe(400);
    expect((await sim("GET", "faults")).json()).toMatchObject({ errorRate: 0, rules: [] });
  });
});

describe("GET /_sim/windows", () => {
  it("shows the admitted cost of each window and the in-flight counters", async () => {
    await h.call("GET", `${zone}?fields=account,creator`);
    await h.call("GET", zone);
    const windows = (await sim("GET", "windows")).json();
    expect(windows).toMatchObject({
      account: "demo",
      inFlight: { current: 0, max: 8, rejected: 0 },
      classes: {
        C: {
          burst: { limit: 10, lengthMs: 1000, used: 4, remaining: 6, maxUsed: 4 },
          steady: { limit: 150, lengthMs: 60000, used: 4, remaining: 146 },
          rejected: 0,
        },
      },
    });
  });

  it("keeps closed windows in the history", async () => {
    await h.call("GET", zone);
    await h.call("GET", zone);
    h.clock.advance(1000);
    await h.call("GET", zone);
    const burst = h.sim.windows().classes.C!.burst;
    expect(burst.history).toEqual([{ start: expect.any(Number), used: 2 }]);
    expect(burst.used).toBe(1);
  });
});

it("an unknown inspection path is a 404", async () => {
  expect((await sim("GET", "nothing")).status).toBe(404);
});

it("DELETE narrows by parent for ids unique only within it", async () => {
  const { abTests, abTestVariations } = SEED_IDS;
  const reply = await sim("DELETE", `objects/abTestVariations/${abTestVariations.checkoutControl}?ab_test_id=${abTests.checkout}`);
  expect(reply.status).toBe(204);
  const left = h.sim.state().abTestVariations.map((v) => `${String(v.ab_test_id)}/${String(v.id)}`);
  expect(left).toEqual([`${abTests.homepage}/1`, `${abTests.homepage}/2`]);
  const patch = await h.call("PATCH", `/v2/adex/campaign-ab-tests/${abTests.checkout}/variations/1`, { body: { name: "x" } });
  expect(patch.status).toBe(404);
  expect(h.sim.deleteObject("abTestVariations", "1", "demo", { ab_test_id: abTests.homepage })).toBe(true);
  expect(h.sim.deleteObject("abTestVariations", "1", "demo", { ab_test_id: abTests.homepage })).toBe(false);
});
