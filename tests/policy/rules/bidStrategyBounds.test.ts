/**
 * `bid-strategy-bounds` at, just under and just over each limit (every bound is inclusive), with
 * the defaults and with configured settings merged over them.
 */
import { BID_STRATEGY_BOUNDS_DEFAULTS, bidStrategyBoundsSettings, bidStrategyViolations } from "../../../policy/rules/bidStrategyBounds";

const defaults = bidStrategyBoundsSettings({});

/** The violations of a strategy with these fields (the other fields harmless). */
function check(props: Record<string, unknown>, settings = defaults): string[] {
  return bidStrategyViolations({ kind: "BidStrategy", name: "s", props: { pricingModel: "cpc", maxValue: 3, ...props } }, settings);
}

describe.each([
  ["percent_add", "value", 100, "maxPercentAdd"],
  ["percent_sub", "value", 90, "maxPercentSub"],
  ["price_add", "value", 10, "pricingModels.cpc.maxPriceStep"],
  ["price_sub", "value", 10, "pricingModels.cpc.maxPriceStep"],
  ["exact", "value", 50, "pricingModels.cpc.maxPrice"],
])("%s: %s at most %d (%s)", (strategy, property, limit, setting) => {
  // exact's maxValue must not be below its value, so it follows the value here.
  const props = (value: number) => ({ strategy, [property]: value, ...(strategy === "exact" ? { maxValue: Math.min(value, 50) } : {}) });

  it("passes at the limit and just under it", () => {
    expect(check(props(limit))).toEqual([]);
    expect(check(props(limit - 0.01))).toEqual([]);
  });

  it("reports just over it, naming the resource, the property, the value, the limit and the setting", () => {
    const found = check(props(limit + 0.01)).filter((message) => message.startsWith(`BidStrategy "s": value `));
    expect(found).toEqual([expect.stringContaining(`BidStrategy "s": value ${limit + 0.01} is above ${limit}`)]);
    expect(found[0]).toContain(`(${setting})`);
  });
});

describe("exact: value at least pricingModels.cpc.minPrice (0.01)", () => {
  it("passes at the limit and just over it", () => {
    expect(check({ strategy: "exact", value: 0.01 })).toEqual([]);
    expect(check({ strategy: "exact", value: 0.02 })).toEqual([]);
  });

  it("reports just under it", () => {
    expect(check({ strategy: "exact", value: 0.009 })).toEqual([
      'BidStrategy "s": value 0.009 is below 0.01, the lowest exact cpc bid (pricingModels.cpc.minPrice).',
    ]);
  });

  it("does not bound the value of the other kinds from below (a zero step is harmless)", () => {
    expect(check({ strategy: "percent_add", value: 0 })).toEqual([]);
    expect(check({ strategy: "price_sub", value: 0 })).toEqual([]);
  });
});

describe("maxValue at most pricingModels.cpc.maxPrice (50), whatever the kind", () => {
  it.each(["percent_add", "price_add", "exact"])("%s: passes at 50 and 49.99, reports 50.01", (strategy) => {
    expect(check({ strategy, value: 1, maxValue: 50 })).toEqual([]);
    expect(check({ strategy, value: 1, maxValue: 49.99 })).toEqual([]);
    expect(check({ strategy, value: 1, maxValue: 50.01 })).toEqual([
      'BidStrategy "s": maxValue 50.01 is above 50, the highest cpc bid (pricingModels.cpc.maxPrice).',
    ]);
  });
});

describe("exact: maxValue not below value", () => {
  it("passes at value and just over it, reports just under it", () => {
    expect(check({ strategy: "exact", value: 2, maxValue: 2 })).toEqual([]);
    expect(check({ strategy: "exact", value: 2, maxValue: 2.01 })).toEqual([]);
    expect(check({ strategy: "exact", value: 2, maxValue: 1.99 })).toEqual([
      expect.stringContaining('BidStrategy "s": maxValue 1.99 is below 2, the exact bid in value'),
    ]);
  });

  it("compares nothing for the other kinds, where value is no price", () => {
    expect(check({ strategy: "percent_add", value: 40, maxValue: 3 })).toEqual([]);
  });
});

describe("values as the provider accepts them", () => {
  it("reads decimal strings as numbers", () => {
    expect(check({ strategy: "percent_add", value: "100.00" })).toEqual([]);
    expect(check({ strategy: "percent_add", value: "100.01" })).toHaveLength(1);
  });

  it("leaves a malformed or absent value to the provider's own check", () => {
    expect(check({ strategy: "percent_add", value: "lots" })).toEqual([]);
    expect(check({ strategy: "percent_add" })).toEqual([]);
  });

  it("takes an absent pricingModel as cpc, the provider's default", () => {
    expect(
      bidStrategyViolations({ kind: "BidStrategy", name: "s", props: { strategy: "exact", value: 60, maxValue: 60 } }, defaults),
    ).toHaveLength(2);
  });
});

describe("settings", () => {
  it("merge the configuration over the defaults field by field, within a pricing model too", () => {
    expect(bidStrategyBoundsSettings({ maxPercentAdd: 30, pricingModels: { cpc: { maxPrice: 20 } } })).toEqual({
      maxPercentAdd: 30,
      maxPercentSub: BID_STRATEGY_BOUNDS_DEFAULTS.maxPercentSub,
      pricingModels: { cpc: { minPrice: 0.01, maxPrice: 20, maxPriceStep: 10 } },
    });
  });

  it("move the limit: at 30 a percent_add of 30 passes and 30.01 is reported", () => {
    const settings = bidStrategyBoundsSettings({ maxPercentAdd: 30 });
    expect(check({ strategy: "percent_add", value: 30 }, settings)).toEqual([]);
    expect(check({ strategy: "percent_add", value: 30.01 }, settings)).toEqual([
      'BidStrategy "s": value 30.01 is above 30, the highest percent_add in percent (maxPercentAdd).',
    ]);
  });

  it("check no price bounds for a pricing model they do not name", () => {
    const props = { pricingModel: "cpm", strategy: "exact", value: 5000, maxValue: 5000 };
    expect(bidStrategyViolations({ kind: "BidStrategy", name: "s", props }, defaults)).toEqual([]);
    const settings = bidStrategyBoundsSettings({ pricingModels: { cpm: { maxPrice: 100 } } });
    expect(bidStrategyViolations({ kind: "BidStrategy", name: "s", props }, settings)).toHaveLength(2);
  });
});
