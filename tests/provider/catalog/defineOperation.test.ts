import { z } from "zod";
import {
  costOne,
  costWithFields,
  defineCatalog,
  defineOperation,
  parsePathTemplate,
  type OperationDefinition,
} from "../../../provider/catalog";

const Rec = z.looseObject({ id: z.string() });
const Body = z.strictObject({ name: z.string() });

const goodGet: OperationDefinition = {
  number: 1,
  name: "getThing",
  method: "GET",
  path: "/v1/things/{parent}/items/{id}",
  record: Rec,
  response: z.looseObject({ total: z.number(), items: z.array(Rec) }),
  successStatus: 200,
  rateClass: "C",
  acceptsQuery: true,
  acceptsFields: true,
  reads: "one",
};

const goodPatch: OperationDefinition = {
  number: 2,
  name: "updateThing",
  method: "PATCH",
  path: "/v1/things/{id}",
  request: Body,
  successStatus: 204,
  rateClass: "C",
};

const goodPost: OperationDefinition = {
  number: 3,
  name: "createThing",
  method: "POST",
  path: "/v1/things",
  request: Body,
  response: Rec,
  successStatus: 201,
  rateClass: "C",
};

describe("defineOperation", () => {
  it("derives path params, cost and idempotency from a well-formed entry", () => {
    const get = defineOperation(goodGet);
    expect(get.pathParams).toEqual(["parent", "id"]);
    expect(get.cost).toBe(costWithFields);
    expect(get.idempotent).toBe(true);
    const patch = defineOperation(goodPatch);
    expect(patch.cost).toBe(costOne);
    expect(patch.acceptsQuery).toBe(false);
    expect(patch.acceptsFields).toBe(false);
    expect(patch.idempotent).toBe(true);
    expect(defineOperation(goodPost).idempotent).toBe(false);
  });

  const malformed: Array<[string, OperationDefinition, RegExp]> = [
    ["a GET without record", { ...goodGet, record: undefined }, /GET needs a record/],
    ["a GET without response", { ...goodGet, response: undefined }, /GET needs a response/],
    ["a GET with a body", { ...goodGet, request: Body }, /GET takes no request body/],
    ["a GET answering 201", { ...goodGet, successStatus: 201 }, /GET answers 200/],
    ["a GET that says neither one nor list", { ...goodGet, reads: undefined }, /GET reads "one" or "list"/],
    ["a POST without request", { ...goodPost, request: undefined }, /POST needs a request/],
    ["a POST answering 200", { ...goodPost, successStatus: 200 }, /POST answers 201/],
    ["a PATCH without request", { ...goodPatch, request: undefined }, /PATCH needs a request/],
    ["a 204 with a response", { ...goodPatch, response: Rec }, /204 has no response/],
    ["a PATCH with a record", { ...goodPatch, record: Rec }, /only reads have a record/],
    ["a PATCH with a read shape", { ...goodPatch, reads: "list" }, /only reads have a read shape/],
    ["fields without query", { ...goodGet, acceptsQuery: false }, /acceptsFields requires acceptsQuery/],
    ["fields on a POST", { ...goodPost, acceptsQuery: true, acceptsFields: true }, /only GET takes fields/],
    ["an unknown rate class", { ...goodGet, rateClass: "Z" as never }, /unknown rate class/],
    ["an unknown method", { ...goodGet, method: "DELETE" as never }, /unknown method/],
    ["a bad name", { ...goodGet, name: "Get-Thing" }, /camelCase/],
    ["a bad number", { ...goodGet, number: 0 }, /positive integer/],
    ["a path without leading slash", { ...goodGet, path: "v1/things/{parent}/items/{id}" }, /must start with/],
    ["a path with a trailing slash", { ...goodPatch, path: "/v1/things/{id}/" }, /empty segment/],
    ["a repeated path param", { ...goodPatch, path: "/v1/{id}/things/{id}" }, /repeats \{id\}/],
    ["a malformed segment", { ...goodPatch, path: "/v1/things/{id}x" }, /malformed segment/],
  ];

  it.each(malformed)("rejects %s", (_what, def, reason) => {
    expect(() => defineOperation(def)).toThrow(expect.objectContaining({ code: "ADP_ERR_DEFINITION" }));
    expect(() => defineOperation(def)).toThrow(reason);
  });

  it("names the entry in the error", () => {
    expect(() => defineOperation({ ...goodGet, record: undefined })).toThrow(/operation 1 \(getThing\)/);
  });

  it("parses path templates", () => {
    expect(parsePathTemplate("/v2/adex/zones/{id}/placements/{placement_id}")).toEqual(["id", "placement_id"]);
    expect(parsePathTemplate("/v1/hood/macros")).toEqual([]);
  });
});

describe("defineCatalog", () => {
  const get = defineOperation(goodGet);
  const patch = defineOperation(goodPatch);
  const post = defineOperation(goodPost);

  it("accepts numbers 1..N in order", () => {
    expect(defineCatalog([get, patch, post])).toEqual([get, patch, post]);
  });

  it("rejects gaps, disorder and duplicate names", () => {
    expect(() => defineCatalog([get, post])).toThrow(/numbers must be 1\.\.N/);
    expect(() => defineCatalog([patch, get])).toThrow(expect.objectContaining({ code: "ADP_ERR_DEFINITION" }));
    const twin = defineOperation({ ...goodPatch, number: 3, name: "getThing" });
    expect(() => defineCatalog([get, patch, twin])).toThrow(/"getThing" is used twice/);
  });
});
