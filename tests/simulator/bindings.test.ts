/**
 * The simulator's bindings of operations to its stored records (simulator/bindings.ts): kept out
 * of the provider's catalog, and refused when they drift from it.
 */
import { z } from "zod";
import { OPERATIONS, defineOperation, operationByName } from "../../provider/catalog";
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
  const Rec = z.looseObject({ id: z.string() });
  const getThing = defineOperation({
    number: 1,
    name: "getThing",
    method: "GET",
    path: "/v1/things/{parent}/items/{id}",
    record: Rec,
    response: z.looseObject({ total: z.number(), items: z.array(Rec) }),
    successStatus: 200,
    rateClass: "C",
    reads: "one",
  });
  const good: BindingEntry = { collection: "things", match: { parent: "parent_id", id: "id" } };

  it("accepts a table that fits the catalog", () => {
    expect(defineBindings([getThing], { getThing: good }).get("getThing")).toEqual({ ...good, mode: "one" });
  });

  const drifted: Array<[string, Record<string, BindingEntry>, RegExp]> = [
    ["an operation without a binding", {}, /operation 1 \(getThing\) has no binding/],
    ["a binding of no operation", { getThing: good, getGone: good }, /"getGone" is bound but is no operation/],
    ["a path param missing from the match", { getThing: { ...good, match: { id: "id" } } }, /match keys \[id\] must be the path params/],
    ["a match key that is not a path param", { getThing: { ...good, match: { ...good.match, other: "x" } } }, /match keys/],
    ["a one-record read not selecting by id", { getThing: { ...good, match: { parent: "parent_id", id: "key" } } }, /by its id/],
    ["two params on one field", { getThing: { ...good, match: { parent: "id", id: "id" } } }, /two path params/],
    ["a match value that is no wire field", { getThing: { ...good, match: { parent: "parentId", id: "id" } } }, /wire field/],
    ["a collection that is no camelCase key", { getThing: { ...good, collection: "some-things" } }, /camelCase/],
  ];

  it.each(drifted)("refuses %s", (_what, entries, reason) => {
    expect(() => defineBindings([getThing], entries)).toThrow(BindingError);
    expect(() => defineBindings([getThing], entries)).toThrow(reason);
  });
});
