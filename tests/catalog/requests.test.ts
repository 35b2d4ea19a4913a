import {
  AbTestVariationUpdate,
  BidModifierUpdate,
  BidStrategyCreate,
  BidStrategyCreated,
  CampaignGroupCreate,
  CampaignGroupCreated,
  NAME_MAX_LENGTH,
  operationByName,
} from "../../provider/catalog";
import { toSdk, toWire } from "../../provider/wire/casing";

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe("bid strategy create body (op 3)", () => {
  const valid = { name: "Spring", pricing_model: "cpc", strategy: "percent_add", value: 10, max_value: 1.25 };

  it("accepts a valid body with each of the five strategies", () => {
    for (const strategy of ["exact", "price_add", "price_sub", "percent_add", "percent_sub"]) {
      expect(BidStrategyCreate.parse({ ...valid, strategy })).toEqual({ ...valid, strategy });
    }
    expect(operationByName("createBidStrategy").request).toBe(BidStrategyCreate);
  });

  it("refuses an unknown strategy (spec, rule 3) and a pricing model other than cpc", () => {
    expect(ok(BidStrategyCreate, { ...valid, strategy: "percent" })).toBe(false);
    expect(ok(BidStrategyCreate, { ...valid, pricing_model: "cpm" })).toBe(false);
  });

  it("refuses NaN, Infinity, negatives and numbers sent as strings", () => {
    for (const value of [NaN, Infinity, -Infinity, -1, "10"]) {
      expect(ok(BidStrategyCreate, { ...valid, value })).toBe(false);
      expect(ok(BidStrategyCreate, { ...valid, max_value: value })).toBe(false);
    }
    expect(ok(BidStrategyCreate, { ...valid, value: 0 })).toBe(true);
  });

  it("requires every field and refuses unknown ones", () => {
    for (const key of Object.keys(valid)) {
      const { [key as keyof typeof valid]: _dropped, ...rest } = valid;
      expect(ok(BidStrategyCreate, rest)).toBe(false);
    }
    expect(ok(BidStrategyCreate, { ...valid, maxValue: 2 })).toBe(false);
  });

  it("refuses empty, blank and overlong names", () => {
    expect(ok(BidStrategyCreate, { ...valid, name: "" })).toBe(false);
    expect(ok(BidStrategyCreate, { ...valid, name: "   " })).toBe(false);
    expect(ok(BidStrategyCreate, { ...valid, name: "x".repeat(NAME_MAX_LENGTH) })).toBe(true);
    expect(ok(BidStrategyCreate, { ...valid, name: "x".repeat(NAME_MAX_LENGTH + 1) })).toBe(false);
  });

  it("reads the {id} response, normalising a numeric id", () => {
    expect(BidStrategyCreated.parse({ id: 77 })).toEqual({ id: "77" });
  });

  it("maps an SDK body to the wire names", () => {
    const sdk = { name: "S", pricingModel: "cpc", strategy: "exact", value: 1, maxValue: 2 };
    expect(BidStrategyCreate.parse(toWire(BidStrategyCreate, sdk))).toEqual({
      name: "S",
      pricing_model: "cpc",
      strategy: "exact",
      value: 1,
      max_value: 2,
    });
  });
});

describe("campaign group create body (op 2)", () => {
  const valid = { name: "Spring", color: "#A1b2C3", items: ["101", "102"] };

  it("accepts a valid body", () => {
    expect(CampaignGroupCreate.parse(valid)).toEqual(valid);
  });

  it("refuses a colour that is not #rrggbb", () => {
    for (const color of ["red", "#fff", "#gggggg", "a1b2c3", "#a1b2c3d4", " #a1b2c3"]) {
      expect(ok(CampaignGroupCreate, { ...valid, color })).toBe(false);
    }
  });

  it("refuses empty items, empty ids, duplicate ids and numeric ids", () => {
    expect(ok(CampaignGroupCreate, { ...valid, items: [] })).toBe(false);
    expect(ok(CampaignGroupCreate, { ...valid, items: [""] })).toBe(false);
    expect(ok(CampaignGroupCreate, { ...valid, items: ["101", "101"] })).toBe(false);
    expect(ok(CampaignGroupCreate, { ...valid, items: [101] })).toBe(false);
  });

  it("reads the 201 response and keeps item ids as strings", () => {
    const created = CampaignGroupCreated.parse({ id: 5, company_id: "17", name: "Spring", color: "#a1b2c3", items: [101, "102"] });
    expect(created).toEqual({ id: "5", company_id: "17", name: "Spring", color: "#a1b2c3", items: ["101", "102"] });
    expect(toSdk(CampaignGroupCreated, created)).toEqual({
      id: "5",
      companyId: "17",
      name: "Spring",
      color: "#a1b2c3",
      items: ["101", "102"],
    });
  });
});

describe("bid modifier PATCH body (op 1)", () => {
  it("accepts any non-empty subset of the updatable fields", () => {
    expect(ok(BidModifierUpdate, { name: "Night" })).toBe(true);
    expect(ok(BidModifierUpdate, { value: "1.50", max_value: "2.2500" })).toBe(true);
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: ["DE"], op: "in" } } })).toBe(true);
    expect(ok(BidModifierUpdate, { containers: ["c-1"], tags: ["t-1"] })).toBe(true);
  });

  it("refuses an empty body: at least one field must be sent", () => {
    expect(ok(BidModifierUpdate, {})).toBe(false);
    expect(ok(BidModifierUpdate, { name: undefined })).toBe(false);
    expect(BidModifierUpdate.safeParse({}).error?.issues[0].message).toBe("at least one field must be sent");
  });

  it("takes value and max_value as decimal strings, never numbers or non-finite text", () => {
    for (const value of [1.5, "NaN", "Infinity", "-1.00", "1e3", ".5", "1.", "", " 1.5"]) {
      expect(ok(BidModifierUpdate, { value })).toBe(false);
    }
    expect(ok(BidModifierUpdate, { value: "0" })).toBe(true);
  });

  it("refuses malformed targeting", () => {
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: ["DE"] } } })).toBe(false);
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: [""], op: "in" } } })).toBe(false);
    expect(ok(BidModifierUpdate, { targeting: { Countries: { items: [], op: "in" } } })).toBe(false);
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: [], op: "in", extra: 1 } } })).toBe(false);
  });

  it("keeps targeting dimension names verbatim between SDK and wire", () => {
    const sdk = { maxValue: "2.00", targeting: { device_types: { items: ["mobile"], op: "in" } } };
    const wire = toWire(BidModifierUpdate, sdk);
    expect(wire).toEqual({ max_value: "2.00", targeting: { device_types: { items: ["mobile"], op: "in" } } });
    expect(ok(BidModifierUpdate, wire)).toBe(true);
  });
});

describe("A/B test variation PATCH body (op 4)", () => {
  const image = { en: "https://cdn.example.com/en.png", pt_BR: "https://cdn.example.com/pt.png" };

  it("accepts a name, settings.image, or both", () => {
    expect(ok(AbTestVariationUpdate, { name: "B" })).toBe(true);
    expect(ok(AbTestVariationUpdate, { settings: { image } })).toBe(true);
    expect(ok(AbTestVariationUpdate, { name: "B", settings: { image } })).toBe(true);
  });

  it("refuses an empty body, empty settings and an empty image map", () => {
    expect(ok(AbTestVariationUpdate, {})).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: {} })).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: { image: {} } })).toBe(false);
  });

  it("refuses a bad language code or a non-http URL", () => {
    expect(ok(AbTestVariationUpdate, { settings: { image: { "": "https://x/y.png" } } })).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: { image: { "en us": "https://x/y.png" } } })).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: { image: { en: "not a url" } } })).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: { image: { en: "javascript:alert(1)" } } })).toBe(false);
  });

  it("keeps language codes verbatim from SDK to wire", () => {
    expect(toWire(AbTestVariationUpdate, { settings: { image } })).toEqual({ settings: { image } });
    expect(toSdk(AbTestVariationUpdate, { settings: { image } })).toEqual({ settings: { image } });
  });
});
