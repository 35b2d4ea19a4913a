import {
  AbTestVariationUpdate,
  BidModifierUpdate,
  BidStrategyCreate,
  BidStrategyCreated,
  CampaignGroupCreate,
  CampaignGroupCreated,
  operationByName,
} from "../../../../provider/catalog";
import { toSdk, toWire } from "../../../../provider/wire/casing";

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe("bid strategy create body (op 3)", () => {
  const valid = { name: "Spring", pricing_model: "cpc", strategy: "percent_add", value: 10, max_value: 1.25 };

  it("accepts a valid body with each of the five strategies", () => {
    for (const strategy of ["exact", "price_add", "price_sub", "percent_add", "percent_sub"]) {
      expect(BidStrategyCreate.parse({ ...valid, strategy })).toEqual({ ...valid, strategy });
    }
    expect(operationByName("createBidStrategy").request).toBe(BidStrategyCreate);
  });

  it("refuses an unknown strategy (spec, rule 3) but sends any pricing model (values beyond cpc: not shown)", () => {
    expect(ok(BidStrategyCreate, { ...valid, strategy: "percent" })).toBe(false);
    for (const pricing_model of ["cpm", "CPC", ""]) expect(ok(BidStrategyCreate, { ...valid, pricing_model })).toBe(true);
    expect(ok(BidStrategyCreate, { ...valid, pricing_model: 1 })).toBe(false);
  });

  it("refuses NaN, Infinity (JSON has neither) and numbers sent as strings; sends negatives", () => {
    for (const value of [NaN, Infinity, -Infinity, "10"]) {
      expect(ok(BidStrategyCreate, { ...valid, value })).toBe(false);
      expect(ok(BidStrategyCreate, { ...valid, max_value: value })).toBe(false);
    }
    expect(ok(BidStrategyCreate, { ...valid, value: 0 })).toBe(true);
    expect(ok(BidStrategyCreate, { ...valid, value: -1, max_value: -0.5 })).toBe(true);
  });

  it("requires every field and refuses unknown ones", () => {
    for (const key of Object.keys(valid)) {
      const { [key as keyof typeof valid]: _dropped, ...rest } = valid;
      expect(ok(BidStrategyCreate, rest)).toBe(false);
    }
    expect(ok(BidStrategyCreate, { ...valid, maxValue: 2 })).toBe(false);
  });

  it("sends any name string: its length and content are not shown (rule 10)", () => {
    for (const name of ["", "   ", "x".repeat(1000)]) expect(ok(BidStrategyCreate, { ...valid, name })).toBe(true);
    expect(ok(BidStrategyCreate, { ...valid, name: 5 })).toBe(false);
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

  it("refuses numeric ids (spec, Conventions: identifiers are strings), sends empty items and repeated ids", () => {
    expect(ok(CampaignGroupCreate, { ...valid, items: [101] })).toBe(false);
    for (const items of [[], [""], ["101", "101"], [" 101"]]) expect(ok(CampaignGroupCreate, { ...valid, items })).toBe(true);
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

  it("takes value and max_value as plain decimal strings, never numbers or another notation", () => {
    for (const value of [1.5, "NaN", "Infinity", "+1.00", "1e3", ".5", "1.", "", " 1.5", "-"]) {
      expect(ok(BidModifierUpdate, { value })).toBe(false);
    }
    for (const value of ["0", "-1.00", "12.3456789"]) expect(ok(BidModifierUpdate, { value })).toBe(true);
  });

  it("refuses targeting of another shape than {items: strings, op: string}", () => {
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: ["DE"] } } })).toBe(false);
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: [1], op: "in" } } })).toBe(false);
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: [], op: "in", extra: 1 } } })).toBe(false);
  });

  it("sends any dimension name, item and operator: their values are not shown", () => {
    expect(ok(BidModifierUpdate, { targeting: { countries: { items: [""], op: "" } } })).toBe(true);
    expect(ok(BidModifierUpdate, { targeting: { Countries: { items: [], op: "not in" } } })).toBe(true);
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

  it("refuses an empty body (Endpoints 4) and settings without image (spec: settings contains image)", () => {
    expect(ok(AbTestVariationUpdate, {})).toBe(false);
    expect(ok(AbTestVariationUpdate, { settings: {} })).toBe(false);
  });

  it("refuses an image that is not an absolute URL (spec: image URL string)", () => {
    for (const url of ["not a url", "images/y.png", "//cdn/y.png"]) {
      expect(ok(AbTestVariationUpdate, { settings: { image: { en: url } } })).toBe(false);
    }
  });

  it("sends an empty image map, any language key and any URL scheme: none is ruled out", () => {
    expect(ok(AbTestVariationUpdate, { settings: { image: {} } })).toBe(true);
    expect(ok(AbTestVariationUpdate, { settings: { image: { "": "https://x/y.png", "en us": "ftp://x/y.png" } } })).toBe(true);
    expect(ok(AbTestVariationUpdate, { settings: { image: { en: "data:image/png;base64,AA" } } })).toBe(true);
  });

  it("keeps language codes verbatim from SDK to wire", () => {
    expect(toWire(AbTestVariationUpdate, { settings: { image } })).toEqual({ settings: { image } });
    expect(toSdk(AbTestVariationUpdate, { settings: { image } })).toEqual({ settings: { image } });
  });
});
