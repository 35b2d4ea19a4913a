import { OPERATIONS, RATE_CLASSES, costOne, costWithFields, operationByName, operationByNumber } from "../../../provider/catalog";

// The spec's Endpoints table, copied by hand: the catalog must match it row for row.
const SPEC_TABLE: ReadonlyArray<readonly [number, string, string, string]> = [
  [1, "PATCH", "/v2/adex/bid-modifiers/{id}", "updateBidModifier"],
  [2, "POST", "/v2/adex/groups", "createCampaignGroup"],
  [3, "POST", "/v2/adex/bid-strategies", "createBidStrategy"],
  [4, "PATCH", "/v2/adex/campaign-ab-tests/{id}/variations/{variation_id}", "updateAbTestVariation"],
  [5, "GET", "/v1/hood/containers/{container_id}/modals/{id}", "getContainerModal"],
  [6, "GET", "/v1/hood/containers/{id}/prompts", "listContainerPrompts"],
  [7, "GET", "/v2/platform/event-system/integrations/{id}", "getIntegration"],
  [8, "GET", "/api/v1/adex/creatives/{id}", "getCreative"],
  [9, "GET", "/v1/hood/push-tasks/{id}", "getPushTask"],
  [10, "GET", "/v2/adex/zones/{id}/placements/{placement_id}", "getZonePlacement"],
  [11, "GET", "/v1/hood/profile-properties/{id}", "getProfileProperty"],
  [12, "GET", "/v2/adex/search-algos/{id}", "getSearchAlgorithm"],
  [13, "GET", "/v2/adex/zones/{id}", "getZone"],
  [14, "GET", "/v1/hood/macros", "listMacros"],
  [15, "GET", "/v2/adex/external-demands", "listExternalDemands"],
  [16, "GET", "/v1/hood/providers/{id}", "getMessagingProvider"],
  [17, "GET", "/v2/platform/countries", "listCountries"],
  [18, "GET", "/v1/hood/segments", "listSegments"],
  [19, "GET", "/v2/adex/groups/{id}", "getCampaignGroup"],
  [20, "GET", "/v1/hood/containers/{id}/groups/{gid}", "getContainerGroup"],
];

// spec, rule 9: these accept query parameters; 8 and 13 also take `fields`.
const ACCEPTS_QUERY = new Set([5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20]);
const ACCEPTS_FIELDS = new Set([8, 13]);
// spec, Endpoints: these answer "list of ..."; the other reads answer one record.
const LIST_READS = new Set([6, 14, 15, 17, 18]);

describe("operation catalog", () => {
  it("has the 20 operations of the spec's Endpoints table, in order", () => {
    expect(OPERATIONS.map((op) => [op.number, op.method, op.path, op.name])).toEqual(SPEC_TABLE);
  });

  it.each(SPEC_TABLE)("operation %i (%s %s) is well formed", (n) => {
    const op = operationByNumber(n);
    expect(op.rateClass).toBe("C"); // spec, Limits 3
    expect(RATE_CLASSES[op.rateClass]).toEqual({ burst: 10, steady: 150 });
    expect(op.acceptsQuery).toBe(ACCEPTS_QUERY.has(n));
    expect(op.acceptsFields).toBe(ACCEPTS_FIELDS.has(n));
    expect(op.cost).toBe(ACCEPTS_FIELDS.has(n) ? costWithFields : costOne);
    expect(op.idempotent).toBe(op.method !== "POST");
    expect(op.reads).toBe(op.method !== "GET" ? undefined : LIST_READS.has(n) ? "list" : "one");
    expect(op.pathParams).toEqual([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    if (op.method === "GET") {
      expect(op.successStatus).toBe(200);
      expect(op.record).toBeDefined();
      expect(op.response).toBeDefined();
      expect(op.request).toBeUndefined();
    } else {
      expect(op.request).toBeDefined();
      expect(op.record).toBeUndefined();
    }
  });

  it("answers 204 without a body for the PATCH operations and 201 with a body for the POSTs", () => {
    for (const n of [1, 4]) {
      expect(operationByNumber(n).successStatus).toBe(204);
      expect(operationByNumber(n).response).toBeUndefined();
    }
    for (const n of [2, 3]) {
      expect(operationByNumber(n).successStatus).toBe(201);
      expect(operationByNumber(n).response).toBeDefined();
    }
  });

  it("counts fields as extra calls only on operations 8 and 13 (spec, Limits 7)", () => {
    expect(operationByName("getZone").cost({ fields: ["account", "creator"] })).toBe(3);
    expect(operationByName("getCreative").cost({ fields: [] })).toBe(1);
    expect(operationByName("getPushTask").cost({ fields: ["account"] })).toBe(1);
  });

  it("is frozen so no caller can change the shared table", () => {
    expect(Object.isFrozen(OPERATIONS)).toBe(true);
    expect(Object.isFrozen(OPERATIONS[0])).toBe(true);
    expect(Object.isFrozen(OPERATIONS[0].pathParams)).toBe(true);
  });

  it("looks operations up by number and name, and refuses unknown ones", () => {
    expect(operationByNumber(13).name).toBe("getZone");
    expect(operationByName("listSegments").number).toBe(18);
    expect(() => operationByNumber(0)).toThrow(/no operation number 0/);
    expect(() => operationByNumber(21)).toThrow(expect.objectContaining({ code: "ADP_ERR_UNSUPPORTED" }));
    expect(() => operationByNumber(1.5)).toThrow(expect.objectContaining({ code: "ADP_ERR_UNSUPPORTED" }));
    expect(() => operationByName("getNothing" as never)).toThrow(/no operation named "getNothing"/);
  });

  it("reads envelopes with total as a number or a string", () => {
    const op = operationByName("listCountries");
    const wire = { total: "2", items: [{ id: "DE", code: "DE", code3: "DEU", name: "Germany" }, { id: "FR" }] };
    expect(op.response.parse(wire)).toEqual({ ...wire, total: 2 });
    expect(op.response.parse({ ...wire, total: 2 }).total).toBe(2);
    expect(op.response.safeParse({ ...wire, total: "two" }).success).toBe(false);
    expect(op.response.safeParse({ ...wire, total: -1 }).success).toBe(false);
    expect(op.response.safeParse({ total: 1 }).success).toBe(false);
  });
});
