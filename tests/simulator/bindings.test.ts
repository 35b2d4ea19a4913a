/**
 * The simulator's bindings of operations to its stored records (simulator/bindings.ts): kept out
 * of the provider's catalog, and refused when they drift from it.
 */
import { OPERATIONS, operationByName } from "../../provider/catalog";
import { BINDINGS, BindingError, bindingOf, defineBindings, type BindingEntry } from "../../simulator/bindings";

describe("the simulator's bindings", () => {
  it("bind every operation of the catalog, and nothing else", () => {
    expect([...BINDINGS.keys()]).toEqual(OPERATIONS.map((op) => op.name));
  });

  it.each(OPERATIONS.map((op) => [op.name, op] as const))("%s matches exactly its path parameters", (_name, op) => {
    expect(Object.keys(bindingOf(op).match).sort()).toEqual([...op.pathParams].sort());
  });

  it("take the mode from the catalog: POST creates, PATCH patches, a read reads one or a list", () => {
    const modes = Object.fromEntries(OPERATIONS.map((op) => [op.name, bindingOf(op).mode]));
    expect(modes).toMatchObject({
      updateBidModifier: "patch",
      createCampaignGroup: "create",
      listContainerPrompts: "list",
      getContainerModal: "one",
      listSegments: "list",
    });
    for (const op of OPERATIONS) if (op.method === "GET") expect(bindingOf(op).mode).toBe(op.reads);
  });

  it("select records by the fields the path parameters name", () => {
    expect(bindingOf(operationByName("updateAbTestVariation")).match).toEqual({ id: "ab_test_id", variation_id: "id" });
    expect(bindingOf(operationByName("getZonePlacement"))).toEqual({
      collection: "zonePlacements",
      match: { id: "zone_id", placement_id: "id" },
      mode: "one",
    });
    expect(bindingOf(operationByName("getContainerGroup")).match).toEqual({ id: "container_id", gid: "id" });
    expect(bindingOf(operationByName("createBidStrategy"))).toEqual({ collection: "bidStrategies", match: {}, mode: "create" });
  });

  it("are frozen", () => {
    const binding = bindingOf(OPERATIONS[0]);
    expect(Object.isFrozen(binding)).toBe(true);
    expect(Object.isFrozen(binding.match)).toBe(true);
  });
});

describe("defineBindings", () => {
  const getZonePlacement = operationByName("getZonePlacement");
  const good: BindingEntry = { collection: "zonePlacements", match: { id: "zone_id", placement_id: "id" } };

  it("accepts a table that fits the catalog", () => {
    expect(defineBindings([getZonePlacement], { getZonePlacement: good }).get("getZonePlacement")).toEqual({ ...good, mode: "one" });
  });

  const drifted: Array<[string, Record<string, BindingEntry>, RegExp]> = [
    ["an operation without a binding", {}, /operation 10 \(getZonePlacement\) has no binding/],
    ["a binding of no operation", { getZonePlacement: good, getGone: good }, /"getGone" is bound but is no operation/],
    [
      "a path param missing from the match",
      { getZonePlacement: { ...good, match: { placement_id: "id" } } },
      /match keys \[placement_id\] must be the path params/,
    ],
    ["a match key that is not a path param", { getZonePlacement: { ...good, match: { ...good.match, other: "x" } } }, /match keys/],
    [
      "a one-record read not selecting by id",
      { getZonePlacement: { ...good, match: { id: "zone_id", placement_id: "key" } } },
      /by its id/,
    ],
    ["two params on one field", { getZonePlacement: { ...good, match: { id: "id", placement_id: "id" } } }, /two path params/],
    ["a match value that is no wire field", { getZonePlacement: { ...good, match: { id: "zoneId", placement_id: "id" } } }, /wire field/],
    ["a collection that is no camelCase key", { getZonePlacement: { ...good, collection: "zone-placements" } }, /camelCase/],
  ];

  it.each(drifted)("refuses %s", (_what, entries, reason) => {
    expect(() => defineBindings([getZonePlacement], entries)).toThrow(BindingError);
    expect(() => defineBindings([getZonePlacement], entries)).toThrow(reason);
  });
});
