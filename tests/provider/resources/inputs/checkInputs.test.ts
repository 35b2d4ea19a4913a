/**
 * The pure halves of the four lifecycles: input validation (`checkInputs` with each resource's SDK
 * schema) and the diff rules. The per-kind suites drive the same code through the plugin over gRPC;
 * these cases pin the details fast and without processes.
 */
import * as pulumi from "@pulumi/pulumi";
import { AbTestVariationInputs, AB_TEST_VARIATION, abTestVariationBody } from "../../../../provider/resources/abTestVariation/definition";
import { BidModifierInputs, BID_MODIFIER, bidModifierBody } from "../../../../provider/resources/bidModifier/definition";
import { BidStrategyInputs, BID_STRATEGY, bidStrategyBody } from "../../../../provider/resources/bidStrategy/definition";
import { CampaignGroupInputs, CAMPAIGN_GROUP, campaignGroupBody } from "../../../../provider/resources/campaignGroup/definition";
import { checkInputs } from "../../../../provider/resources/inputs/checkInputs";
import { canonicalDecimal, decimalsEqual, toPlainDecimal } from "../../../../provider/resources/inputs/decimal";
import { diffInputs } from "../../../../provider/resources/inputs/diff";
import { formatPropertyPath } from "../../../../provider/resources/inputs/propertyPath";
import { UNKNOWN_VALUE, containsUnknown } from "../../../../provider/resources/inputs/unknowns";

const UNKNOWN = pulumi.runtime.unknownValue;

describe("unknown values", () => {
  it("spells the engine's unknown sentinel as @pulumi/pulumi does, without importing it", () => {
    expect(UNKNOWN_VALUE).toBe(pulumi.runtime.unknownValue);
  });

  it("finds an unknown inside lists and objects", () => {
    expect(containsUnknown({ a: [1, { b: UNKNOWN }] })).toBe(true);
    expect(containsUnknown({ a: [1, { b: "known" }] })).toBe(false);
  });
});

describe("decimals", () => {
  it("writes numbers as plain decimals, never in exponent form", () => {
    expect(toPlainDecimal(1.5)).toBe("1.5");
    expect(toPlainDecimal(1e21)).toBe("1000000000000000000000");
    expect(toPlainDecimal(1e-7)).toBe("0.0000001");
  });

  it("treats a number and its decimal strings as one value", () => {
    expect(canonicalDecimal("001.500")).toBe("1.5");
    expect(canonicalDecimal("0.0")).toBe("0");
    expect(decimalsEqual(1.5, "1.50")).toBe(true);
    expect(decimalsEqual("2.5000", "2.5")).toBe(true);
    expect(decimalsEqual("1.05", "1.5")).toBe(false);
    expect(canonicalDecimal("-001.500")).toBe("-1.5");
    expect(canonicalDecimal("-0.00")).toBe("0");
    expect(decimalsEqual(-1.5, "-1.50")).toBe(true);
    expect(decimalsEqual(-0, "-0.0")).toBe(true);
    expect(decimalsEqual("-1.5", "1.5")).toBe(false);
    expect(decimalsEqual("abc", "abc")).toBe(true);
    expect(decimalsEqual("abc", "1")).toBe(false);
  });
});

describe("property paths", () => {
  it("formats indices in brackets and quotes keys that are not identifiers", () => {
    expect(formatPropertyPath(["targeting", "countries", "items", 0])).toBe("targeting.countries.items[0]");
    expect(formatPropertyPath(["settings", "image", "pt-BR"])).toBe('settings.image["pt-BR"]');
    expect(formatPropertyPath([])).toBe("");
  });
});

describe("BidStrategy check", () => {
  it("normalises decimal strings to numbers and defaults the pricing model to cpc", () => {
    const { inputs, failures } = checkInputs(BidStrategyInputs, {
      name: "Night",
      strategy: "exact",
      value: "0.50",
      maxValue: 2,
    });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "Night", pricingModel: "cpc", strategy: "exact", value: 0.5, maxValue: 2 });
    expect(bidStrategyBody(inputs)).toEqual({ name: "Night", pricing_model: "cpc", strategy: "exact", value: 0.5, max_value: 2 });
  });

  it("names each invalid property with a reason a user understands", () => {
    const { failures } = checkInputs(BidStrategyInputs, {
      name: 7,
      pricingModel: 1,
      strategy: "fastest",
      value: "1e3",
      maxValue: "1,5",
      colour: "#fff",
    });
    const byProperty: Record<string, string> = {};
    for (const f of failures) byProperty[f.property] = [byProperty[f.property], f.reason].filter(Boolean).join("; ");
    expect(byProperty.name).toMatch(/must be a string/);
    expect(byProperty.pricingModel).toMatch(/must be a string/);
    // spec, rule 3: the one enumeration the spec closes.
    expect(byProperty.strategy).toMatch(/must be one of "exact", "price_add", "price_sub", "percent_add", "percent_sub"/);
    expect(byProperty.value).toMatch(/decimal string/);
    expect(byProperty.maxValue).toMatch(/decimal string/);
    expect(byProperty.colour).toMatch(/is not a known property; allowed here: name, pricingModel/);
  });

  it("sends what the spec does not rule out: another pricing model, any name, a negative value", () => {
    // spec, Bid strategy: `cpc` is "the only value given", and values of enumerations beyond those
    // named are "not shown"; rule 10 leaves lengths and ranges open.
    const { inputs, failures } = checkInputs(BidStrategyInputs, {
      name: " ".repeat(3) + "x".repeat(300),
      pricingModel: "cpm",
      strategy: "price_sub",
      value: -0.5,
      maxValue: "-1.25",
    });
    expect(failures).toEqual([]);
    expect(bidStrategyBody(inputs)).toEqual({
      name: " ".repeat(3) + "x".repeat(300),
      pricing_model: "cpm",
      strategy: "price_sub",
      value: -0.5,
      max_value: -1.25,
    });
    expect(checkInputs(BidStrategyInputs, { name: "", strategy: "exact", value: 0, maxValue: 0, pricingModel: "" }).failures).toEqual([]);
  });

  it("reports missing required properties as required", () => {
    const { failures } = checkInputs(BidStrategyInputs, { name: "x", strategy: "exact" });
    expect(failures).toEqual([
      { property: "value", reason: "is required" },
      { property: "maxValue", reason: "is required" },
    ]);
  });

  it("passes unknown values through unvalidated and still normalises the known ones", () => {
    const { inputs, failures } = checkInputs(BidStrategyInputs, {
      name: UNKNOWN,
      strategy: UNKNOWN,
      value: "1.50",
      maxValue: UNKNOWN,
    });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: UNKNOWN, strategy: UNKNOWN, value: 1.5, maxValue: UNKNOWN, pricingModel: "cpc" });
  });
});

describe("CampaignGroup check", () => {
  it("refuses a colour that is not #rrggbb (spec, Campaign group)", () => {
    expect(checkInputs(CampaignGroupInputs, { name: "G", color: "red", items: ["1"] }).failures).toEqual([
      { property: "color", reason: "color must be a hex colour #rrggbb" },
    ]);
  });

  it("sends empty items, a repeated id and ids with spaces, which the spec does not rule out", () => {
    for (const items of [[], ["1", "1"], ["1", " 2", ""]]) {
      const { inputs, failures } = checkInputs(CampaignGroupInputs, { name: "", color: "#aabbcc", items });
      expect(failures).toEqual([]);
      expect(campaignGroupBody(inputs)).toEqual({ name: "", color: "#aabbcc", items });
    }
  });

  it("points at the exact list element that is wrong", () => {
    const { failures } = checkInputs(CampaignGroupInputs, { name: "G", color: "#aabbcc", items: ["1", 2] });
    expect(failures).toEqual([{ property: "items[1]", reason: expect.stringMatching(/must be a string/) }]);
  });

  it("passes a list holding an unknown element through", () => {
    const { failures } = checkInputs(CampaignGroupInputs, { name: "G", color: UNKNOWN, items: ["1", UNKNOWN] });
    expect(failures).toEqual([]);
  });
});

describe("BidModifier check", () => {
  it("requires at least one field besides the id (spec, Endpoints 1)", () => {
    const { failures } = checkInputs(BidModifierInputs, { bidModifierId: "501" });
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("");
    expect(failures[0].reason).toMatch(/at least one field must be sent: set at least one of name, value, maxValue/);
  });

  it("points into targeting with the dimension and the element index", () => {
    const { failures } = checkInputs(BidModifierInputs, {
      bidModifierId: "501",
      targeting: { countries: { items: ["DE", 7], op: "in" }, "Bad-Dim": { items: [], op: "in", extra: 1 } },
    });
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "targeting.countries.items[1]", reason: expect.stringMatching(/must be a string/) },
        expect.objectContaining({ property: 'targeting["Bad-Dim"].extra' }),
      ]),
    );
  });

  it("sends any dimension name, operator and item, and negative decimals, which the spec does not rule out", () => {
    const targeting = { "Device-Types": { items: ["", "mobile"], op: "" }, countries: { items: [], op: "not_in" } };
    const { inputs, failures } = checkInputs(BidModifierInputs, { bidModifierId: "501", value: -1.5, maxValue: "-0.2500", targeting });
    expect(failures).toEqual([]);
    expect(bidModifierBody(inputs, ["value", "maxValue", "targeting"])).toEqual({ value: "-1.5", max_value: "-0.2500", targeting });
  });

  it("keeps decimal strings as written and writes numbers as decimal strings", () => {
    const { inputs, failures } = checkInputs(BidModifierInputs, { bidModifierId: "501", value: 1.5, maxValue: "2.5000" });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ bidModifierId: "501", value: "1.5", maxValue: "2.5000" });
    expect(bidModifierBody(inputs, ["value", "maxValue"])).toEqual({ value: "1.5", max_value: "2.5000" });
  });

  it("keeps targeting dimension names verbatim on the wire", () => {
    const { inputs } = checkInputs(BidModifierInputs, {
      bidModifierId: "501",
      targeting: { device_types: { items: ["mobile"], op: "in" } },
    });
    expect(bidModifierBody(inputs, ["targeting"])).toEqual({ targeting: { device_types: { items: ["mobile"], op: "in" } } });
  });
});

describe("AbTestVariation check", () => {
  it("refuses an image that is not an absolute URL (spec: image URL string)", () => {
    const { failures } = checkInputs(AbTestVariationInputs, {
      abTestId: "301",
      variationId: "1",
      settings: { image: { en: "images/y.png" } },
    });
    expect(failures).toEqual([{ property: "settings.image.en", reason: "must be an absolute URL" }]);
  });

  it("sends any language key, any URL scheme and an empty image map, which the spec does not rule out", () => {
    for (const image of [{ english: "ftp://x/y.png", "": "data:image/png;base64,AA" }, {}]) {
      const { inputs, failures } = checkInputs(AbTestVariationInputs, { abTestId: "301", variationId: "1", settings: { image } });
      expect(failures).toEqual([]);
      expect(abTestVariationBody(inputs, ["settings"])).toEqual({ settings: { image } });
    }
  });

  it("requires name or settings", () => {
    const { failures } = checkInputs(AbTestVariationInputs, { abTestId: "301", variationId: "1" });
    expect(failures[0].reason).toMatch(/set at least one of name, settings/);
  });
});

describe("diff rules", () => {
  const strategy = { name: "S", pricingModel: "cpc", strategy: "exact", value: 1.5, maxValue: 2 };

  it("finds no change for equivalent values, key order and outputs or __provider alone", () => {
    const olds = { ...strategy, __provider: "old text", extraOutput: 1 };
    const news = { maxValue: "2.00", value: "1.50", strategy: "exact", pricingModel: "cpc", name: "S", __provider: "new text" };
    expect(diffInputs(BID_STRATEGY.diff, olds, news)).toMatchObject({ changes: false, replaces: [] });
  });

  it("compares an absent pricing model as its default", () => {
    const { pricingModel: _omitted, ...withoutDefault } = strategy;
    expect(diffInputs(BID_STRATEGY.diff, strategy, withoutDefault).changes).toBe(false);
  });

  it("replaces a strategy on any change", () => {
    expect(diffInputs(BID_STRATEGY.diff, strategy, { ...strategy, value: 1.6 })).toMatchObject({
      changes: true,
      replaces: ["value"],
      deleteBeforeReplace: false,
    });
  });

  it("does not compare adoptId, which only matters at create", () => {
    expect(diffInputs(BID_STRATEGY.diff, strategy, { ...strategy, adoptId: "601" }).changes).toBe(false);
  });

  it("compares group items as a set and colours case-insensitively", () => {
    const group = { name: "G", color: "#aabbcc", items: ["1", "2"] };
    expect(diffInputs(CAMPAIGN_GROUP.diff, group, { name: "G", color: "#AABBCC", items: ["2", "1"] }).changes).toBe(false);
    expect(diffInputs(CAMPAIGN_GROUP.diff, group, { ...group, items: ["1", "3"] }).replaces).toEqual(["items"]);
  });

  it("updates modifier fields in place and replaces on a new id", () => {
    const modifier = { bidModifierId: "501", value: "1.25", targeting: { countries: { op: "in", items: ["DE"] } } };
    const inPlace = diffInputs(BID_MODIFIER.diff, modifier, {
      bidModifierId: "501",
      value: "1.30",
      targeting: { countries: { items: ["DE"], op: "in" } },
    });
    expect(inPlace).toMatchObject({ changes: true, replaces: [], changed: ["value"] });
    expect(diffInputs(BID_MODIFIER.diff, modifier, { ...modifier, bidModifierId: "502" }).replaces).toEqual(["bidModifierId"]);
  });

  it("reports a removed field as a change and names it", () => {
    const d = diffInputs(BID_MODIFIER.diff, { bidModifierId: "501", name: "A", value: "1" }, { bidModifierId: "501", value: "1" });
    expect(d).toMatchObject({ changes: true, changed: ["name"], removed: ["name"] });
  });

  it("shows an unknown value as a possible change, and a replace for an id", () => {
    const olds = { abTestId: "301", variationId: "1", name: "A" };
    expect(diffInputs(AB_TEST_VARIATION.diff, olds, { ...olds, name: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
    expect(diffInputs(AB_TEST_VARIATION.diff, olds, { ...olds, abTestId: UNKNOWN }).replaces).toEqual(["abTestId"]);
  });
});
