/**
 * Simulator contract, table-driven over the catalog: every operation answers its success status with
 * the spec's envelope or create body and the rate headers; then the operation-specific rules.
 */
import { OPERATIONS, type OperationName, type OperationSpec, buildPath, operationByName } from "../../provider/catalog";
import { SEED_IDS } from "../../simulator";
import { type Harness, TIMESTAMP, startHarness } from "../helpers/simulatorHarness";
import { VALID_CALLS, validCall, validCallPath } from "../helpers/validCalls";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const callOp = (name: OperationName, params: Record<string, string>, body?: unknown, token?: string) => {
  const op: OperationSpec = operationByName(name);
  return h.call(op.method, buildPath(op, params), { body, token });
};

describe("every catalog operation", () => {
  it.each(OPERATIONS.map((op) => [op.number, op.name, op] as const))(
    "op %i (%s) answers its success status, body shape and rate headers",
    async (_n, _name, op) => {
      const reply = await h.call(op.method, validCallPath(op), { body: validCall(op).body });
      expect(reply.status).toBe(op.successStatus);
      // spec, Limits 5: every response that did not hit the limit carries the three headers.
      expect(reply.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
      expect(reply.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
      expect(reply.headers["x-ratelimit-reset"]).toMatch(/^\d+(\.\d+)?$/);
      if (op.successStatus === 204) {
        expect(reply.text).toBe("");
        return;
      }
      const parsed = op.response!.safeParse(reply.json());
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      if (op.method === "GET") {
        const { total, items } = reply.json<{ total: unknown; items: unknown[] }>();
        expect(items.length).toBeGreaterThan(0);
        expect(Number(total)).toBe(items.length);
        // spec, Conventions: a single-record read returns items with one element.
        if (op.reads === "one") expect(items).toHaveLength(1);
      }
    },
  );
});

describe("reads", () => {
  it("op 18 shows total as a string, other lists as an integer (spec, Conventions)", async () => {
    const segments = await callOp("listSegments", {});
    expect(segments.json().total).toBe("3");
    const macros = await callOp("listMacros", {});
    expect(macros.json().total).toBe(2);
  });

  it("op 17 lists all 249 ISO 3166-1 countries with id equal to code", async () => {
    const { total, items } = (await callOp("listCountries", {})).json();
    expect(total).toBe(249);
    expect(items).toHaveLength(249);
    for (const c of items) {
      expect(c.id).toBe(c.code);
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.code3).toMatch(/^[A-Z]{3}$/);
      expect(c.name.length).toBeGreaterThan(0);
    }
    expect(items.find((c: { code: string }) => c.code === "DE")).toEqual({ id: "DE", code: "DE", code3: "DEU", name: "Germany" });
  });

  it("op 19 returns the view shape: no items, size, timestamps YYYY-MM-DD HH:MM:SS", async () => {
    const group = (await callOp("getCampaignGroup", { id: SEED_IDS.campaignGroups.summer })).json().items[0];
    expect(group).not.toHaveProperty("items");
    expect(group.size).toBe(3);
    expect(group.create_time).toMatch(TIMESTAMP);
    expect(group.update_time).toMatch(TIMESTAMP);
  });

  it("op 13 fills widgets only on widget zones and user_cache only on push zones (spec, rule 6)", async () => {
    const zones = SEED_IDS.zones;
    const read = async (id: string) => (await callOp("getZone", { id })).json().items[0];
    const [display, rtb, widget, push] = await Promise.all([zones.display, zones.rtb, zones.widget, zones.push].map(read));
    expect([display.type, rtb.type, widget.type, push.type]).toEqual(["display", "rtb", "widget", "push"]);
    expect(widget.widgets.length).toBeGreaterThan(0);
    expect(push.user_cache).toBe(1);
    for (const z of [display, rtb, push]) expect(z).not.toHaveProperty("widgets");
    for (const z of [display, rtb, widget]) expect(z).not.toHaveProperty("user_cache");
  });

  it("op 6 lists only the prompts of the named container, and an empty list for a container without any", async () => {
    const main = (await callOp("listContainerPrompts", { id: SEED_IDS.containers.main })).json();
    expect(main.total).toBe(2);
    expect(main.items.every((p: { container_id: string }) => p.container_id === SEED_IDS.containers.main)).toBe(true);
    const empty = await callOp("listContainerPrompts", { id: SEED_IDS.containers.empty });
    expect(empty.status).toBe(200);
    expect(empty.json()).toEqual({ total: 0, items: [] });
  });

  it("op 5 needs both the container and the modal id to match", async () => {
    const wrong = await callOp("getContainerModal", { container_id: SEED_IDS.containers.blog, id: SEED_IDS.containerModals.welcome });
    expect(wrong.status).toBe(404);
  });

  it("op 10 on a non-display zone is a 400 saying placements exist only on display zones (spec, rule 5)", async () => {
    const reply = await callOp("getZonePlacement", { id: SEED_IDS.zones.rtb, placement_id: SEED_IDS.zonePlacements.topBanner });
    expect(reply.status).toBe(400);
    expect(reply.json().message).toMatch(/placements exist only on display zones/);
    const unknownZone = await callOp("getZonePlacement", { id: "999999", placement_id: "top-banner" });
    expect(unknownZone.status).toBe(404);
  });

  it("path parameters are percent-decoded before matching", async () => {
    const reply = await h.call("GET", "/v2/adex/zones/1001/placements/top%2Dbanner");
    expect(reply.status).toBe(200);
    expect(reply.json().items[0].id).toBe("top-banner");
  });

  it("query parameters other than fields are accepted and ignored", async () => {
    const reply = await h.call("GET", "/v2/adex/external-demands?search=Alpha&sort=-name&page=9");
    expect(reply.status).toBe(200);
    expect(reply.json().total).toBe(2);
  });
});

describe("writes", () => {
  it("op 2 stores the group and answers id, company_id, name, color, items; op 19 then reads it", async () => {
    const created = await callOp("createCampaignGroup", {}, { name: "Autumn", color: "#112233", items: ["5001", "5002"] });
    expect(created.status).toBe(201);
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(["color", "company_id", "id", "items", "name"]);
    expect(body).toMatchObject({ company_id: "7001", name: "Autumn", color: "#112233", items: ["5001", "5002"] });
    expect(body.id).toMatch(/^\d+$/);

    const view = (await callOp("getCampaignGroup", { id: body.id })).json().items[0];
    expect(view).toMatchObject({ id: body.id, name: "Autumn", color: "#112233", size: 2 });
    expect(view.create_time).toMatch(TIMESTAMP);
    expect(h.sim.state().campaignGroups.find((g) => g.id === body.id)).toMatchObject({ items: ["5001", "5002"], size: 2 });
  });

  it("op 3 answers only {id} and stores the strategy", async () => {
    const created = await callOp("createBidStrategy", {}, VALID_CALLS.createBidStrategy.body);
    expect(created.status).toBe(201);
    const body = created.json();
    expect(Object.keys(body)).toEqual(["id"]);
    expect(h.sim.state().bidStrategies.find((s) => s.id === body.id)).toMatchObject({ strategy: "price_sub", value: 0.05 });
  });

  it("created ids are distinct numeric-looking strings", async () => {
    const a = (await callOp("createBidStrategy", {}, VALID_CALLS.createBidStrategy.body)).json().id;
    const b = (await callOp("createCampaignGroup", {}, VALID_CALLS.createCampaignGroup.body)).json().id;
    expect(a).toMatch(/^\d+$/);
    expect(b).toMatch(/^\d+$/);
    expect(a).not.toBe(b);
  });

  it("op 1 merges the sent fields and leaves the others unchanged", async () => {
    const before = h.sim.state().bidModifiers.find((m) => m.id === SEED_IDS.bidModifiers.countries)!;
    const reply = await callOp("updateBidModifier", { id: SEED_IDS.bidModifiers.countries }, { value: "1.50" });
    expect(reply.status).toBe(204);
    const after = h.sim.state().bidModifiers.find((m) => m.id === SEED_IDS.bidModifiers.countries)!;
    expect(after).toEqual({ ...before, value: "1.50", update_time: after.update_time });
    expect(after.update_time).toMatch(TIMESTAMP);
  });

  it("op 1 with both containers and tags applies containers and keeps the stored tags (spec, rule 2)", async () => {
    const id = SEED_IDS.bidModifiers.mobile;
    const reply = await callOp("updateBidModifier", { id }, { containers: ["100", "101"], tags: ["ignored"] });
    expect(reply.status).toBe(204);
    const stored = h.sim.state().bidModifiers.find((m) => m.id === id)!;
    expect(stored.containers).toEqual(["100", "101"]);
    expect(stored.tags).toEqual(["legacy-mobile"]);
  });

  it("op 1 with only tags stores tags", async () => {
    const id = SEED_IDS.bidModifiers.mobile;
    await callOp("updateBidModifier", { id }, { tags: ["t1"] });
    expect(h.sim.state().bidModifiers.find((m) => m.id === id)!.tags).toEqual(["t1"]);
  });

  it("op 4 merges into the variation named by test id and variation id", async () => {
    const ids = SEED_IDS;
    const reply = await callOp(
      "updateAbTestVariation",
      { id: ids.abTests.homepage, variation_id: ids.abTestVariations.homepageControl },
      { name: "Control v2" },
    );
    expect(reply.status).toBe(204);
    const variations = h.sim.state().abTestVariations;
    const changed = variations.find((v) => v.ab_test_id === ids.abTests.homepage && v.id === ids.abTestVariations.homepageControl)!;
    expect(changed.name).toBe("Control v2");
    expect(changed.settings).toEqual({ image: expect.objectContaining({ en: expect.any(String) }) });
    // Variation 1 of the other test is a different object.
    const other = variations.find((v) => v.ab_test_id === ids.abTests.checkout)!;
    expect(other.name).toBe("Checkout control");
  });

  it("PATCH of an unknown id is a 404 with the error body shape", async () => {
    const reply = await callOp("updateBidModifier", { id: "999999" }, { name: "x" });
    expect(reply.status).toBe(404);
    expect(reply.json()).toMatchObject({ code: 404, title: "Not Found", message: expect.any(String) });
  });
});

describe("accounts", () => {
  it("each account has its own data and company_id", async () => {
    const demo = (await callOp("getZone", { id: SEED_IDS.zones.display })).json().items[0];
    const second = (await callOp("getZone", { id: SEED_IDS.zones.display }, undefined, "second-token")).json().items[0];
    expect(demo.company_id).toBe("7001");
    expect(second.company_id).toBe("7002");
  });

  it("a group created in one account is not visible in the other", async () => {
    const id = (await callOp("createCampaignGroup", {}, VALID_CALLS.createCampaignGroup.body)).json().id;
    expect((await callOp("getCampaignGroup", { id })).status).toBe(200);
    expect((await callOp("getCampaignGroup", { id }, undefined, "second-token")).status).toBe(404);
  });

  it("a PATCH in one account leaves the other account's record unchanged", async () => {
    await callOp("updateBidModifier", { id: SEED_IDS.bidModifiers.countries }, { name: "changed" });
    expect(h.sim.state("second").bidModifiers.find((m) => m.id === SEED_IDS.bidModifiers.countries)!.name).toBe("DACH uplift");
  });
});
