/**
 * BidModifier through the real dynamic-provider plugin against the simulator: create adopts the
 * existing modifier with a PATCH of every declared field, update PATCHes only the changed fields,
 * a new id replaces, read and delete make no call, and the warnings the API's limits call for
 * (deprecated `tags`, `containers` winning, no unset, no delete).
 */
import { SEED_IDS } from "../../../../simulator";
import { lifecycleSuite, RECOGNISABLE_TOKEN } from "../../../helpers/lifecycleEnv";

// Child processes (serializer, plugin) start slowly on a loaded machine: generous, never asserted.
jest.setTimeout(60_000);

const OP_PATCH = 1;
const ID = SEED_IDS.bidModifiers.countries; // "501"
const { env, urn, news, checked } = lifecycleSuite("BidModifier", "dach");
const stored = () => env.sim.state().bidModifiers.find((m) => m.id === ID);

const declared = {
  bidModifierId: ID,
  name: "DACH uplift 2",
  value: 1.4,
  targeting: { countries: { items: ["DE", "AT"], op: "in" } },
};

it("refuses a modifier with nothing to set and a bad targeting item, without calling the API", async () => {
  const empty = await env.plugin.check(urn(), {}, news({ bidModifierId: ID }));
  expect(empty.failures).toEqual([
    { property: "", reason: "at least one field must be sent: set at least one of name, value, maxValue, targeting, containers, tags" },
  ]);
  const bad = await env.plugin.check(urn(), {}, news({ bidModifierId: ID, targeting: { countries: { items: [7], op: "in" } } }));
  expect(bad.failures).toEqual([{ property: "targeting.countries.items[0]", reason: expect.stringMatching(/must be a string/) }]);
  expect(env.totalCalls()).toBe(0);
});

it("PATCHes what the spec does not rule out: negative decimals, any dimension, operator and item, empty names", async () => {
  const odd = {
    bidModifierId: ID,
    name: "",
    value: -1.5,
    maxValue: "-0.2500",
    targeting: { Device_Types: { items: [""], op: "not in" } },
    containers: [" c "],
  };
  await env.plugin.create(urn(), await checked(odd));
  const body = { name: "", value: "-1.5", max_value: "-0.2500", targeting: odd.targeting, containers: [" c "] };
  expect(env.calls(OP_PATCH).map((c) => [c.status, c.body])).toEqual([[204, body]]);
  expect(stored()).toMatchObject(body);
});

it("passes values unknown during preview through check", async () => {
  const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
  const result = await env.plugin.check(urn(), {}, news({ bidModifierId: ID, value: unknown, name: "x" }));
  expect(result.failures).toEqual([]);
  expect(result.inputs).toMatchObject({ value: unknown, name: "x" });
});

it("creates by PATCHing every declared field of the existing modifier", async () => {
  const created = await env.plugin.create(urn(), await checked(declared));
  expect(created.id).toBe(ID);
  expect(created.properties).toEqual(news({ ...declared, value: "1.4" }));
  expect(JSON.stringify(created)).not.toContain(RECOGNISABLE_TOKEN);
  expect(env.calls(OP_PATCH).map((c) => [c.path, c.body])).toEqual([
    [`/v2/adex/bid-modifiers/${ID}`, { name: "DACH uplift 2", value: "1.4", targeting: { countries: { items: ["DE", "AT"], op: "in" } } }],
  ]);
  // Undeclared fields keep their values (omitted fields stay unchanged, spec Endpoints 1).
  expect(stored()).toMatchObject({ name: "DACH uplift 2", value: "1.4", max_value: "2.5000", containers: ["100"] });
});

it("diffs: an equivalent decimal is no change, a field change is in place, a new id replaces", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  expect(await env.plugin.diff(ID, urn(), state, news({ ...declared, value: "1.40" }))).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await env.plugin.diff(ID, urn(), state, news({ ...declared, name: "DACH" }))).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await env.plugin.diff(ID, urn(), state, news({ ...declared, bidModifierId: "502" }))).toEqual({
    changes: "some",
    replaces: ["bidModifierId"],
    deleteBeforeReplace: false,
  });
});

it("updates by PATCHing only the changed fields", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const next = await checked({ ...declared, value: "1.40", maxValue: "3.0000", name: "DACH" });
  const updated = await env.plugin.update(ID, urn(), state, next);
  expect(updated.properties).toEqual(next);
  expect(env.calls(OP_PATCH).map((c) => c.body)).toEqual([
    { name: "DACH uplift 2", value: "1.4", targeting: { countries: { items: ["DE", "AT"], op: "in" } } },
    { name: "DACH", max_value: "3.0000" },
  ]);
  expect(stored()).toMatchObject({ name: "DACH", value: "1.4", max_value: "3.0000" });
});

it("warns that a removed field cannot be unset and sends nothing for it", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const { name: _removed, ...rest } = declared;
  const next = await checked(rest);
  expect(await env.plugin.diff(ID, urn(), state, next)).toMatchObject({ changes: "some", replaces: [] });
  expect(env.engine.warnings()).toEqual([expect.stringMatching(/`name` was removed from the program, but the API cannot unset a field/)]);
  const patchesBefore = env.calls(OP_PATCH).length;
  const updated = await env.plugin.update(ID, urn(), state, next);
  expect(updated.properties).toEqual(next);
  expect(env.calls(OP_PATCH)).toHaveLength(patchesBefore);
  expect(stored()).toMatchObject({ name: "DACH uplift 2" });
});

it("warns that tags is deprecated, and that containers wins when both are set", async () => {
  await env.plugin.check(urn(), {}, news({ bidModifierId: ID, tags: ["t1"] }));
  await env.plugin.check(urn(), {}, news({ bidModifierId: ID, tags: ["t1"], containers: ["100"] }));
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(/`tags` is deprecated by the API; use `containers` instead/),
    expect.stringMatching(/both `containers` and `tags` are set; the API applies `containers`/),
  ]);
});

it("sends the declared containers with a tags change, so containers keeps applying (spec, rule 2)", async () => {
  const withBoth = { bidModifierId: ID, containers: ["100"], tags: ["t1"] };
  const state = (await env.plugin.create(urn(), await checked(withBoth))).properties;
  await env.plugin.update(ID, urn(), state, await checked({ ...withBoth, tags: ["t2"] }));
  expect(env.calls(OP_PATCH).map((c) => c.body)).toEqual([
    { containers: ["100"], tags: ["t1"] },
    { containers: ["100"], tags: ["t2"] },
  ]);
  expect(stored()).toMatchObject({ containers: ["100"], tags: [] });
});

it("reads and deletes without a call; delete warns that the modifier keeps its values", async () => {
  const state = (await env.plugin.create(urn(), await checked(declared))).properties;
  const before = env.totalCalls();
  const read = await env.plugin.read(ID, urn(), state);
  expect(read).toEqual({ id: ID, properties: state, inputs: state });
  await env.plugin.delete(ID, urn(), state);
  expect(env.totalCalls()).toBe(before);
  expect(env.engine.warnings()).toEqual([
    expect.stringMatching(/BidModifier "501": the API cannot delete bid modifiers; the object keeps its last values/),
  ]);
  expect(stored()).toMatchObject({ name: "DACH uplift 2" });
});

it("fails clearly when the id names no bid modifier", async () => {
  const failure = await env.plugin.create(urn(), await checked({ ...declared, bidModifierId: "999" })).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(failure?.message).toMatch(/BidModifier "999": the platform has no bid modifier with this id/);
});
