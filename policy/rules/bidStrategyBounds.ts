/**
 * `bid-strategy-bounds`: a bid strategy's `value` and `maxValue` within bounds a team sets per
 * strategy kind and per pricing model (spec, Bid strategy: `strategy` is one of `exact`,
 * `price_add`, `price_sub`, `percent_add`, `percent_sub`; `value` and `max_value` are numbers).
 *
 * What `value` means depends on the kind: a price for `exact`, an amount added to or taken from
 * the bid for `price_add` / `price_sub`, a percentage for `percent_add` / `percent_sub`. `maxValue`
 * is the ceiling of the resulting bid, a price whatever the kind. So percentages are bounded per
 * kind, prices per pricing model (a CPC and a CPM price are not on one scale). Every bound is
 * inclusive: a value equal to its limit passes.
 */
import { DEFAULT_PRICING_MODEL } from "../../provider/resources/bidStrategy/definition";
import { describe, numberOf, objectOf, type ResourceView } from "../resources";

export const BID_STRATEGY_BOUNDS = "bid-strategy-bounds";

/** The price bounds of one pricing model. */
export interface PriceBounds {
  /** Lowest `exact` bid. */
  minPrice?: number;
  /** Highest `exact` bid, and highest `maxValue` of every kind. */
  maxPrice?: number;
  /** Highest amount a `price_add` / `price_sub` strategy adds or takes. */
  maxPriceStep?: number;
}

/** The rule's settings, as the pack's configuration gives them. */
export interface BidStrategyBoundsSettings {
  /** Highest `percent_add` value, in percent. */
  maxPercentAdd: number;
  /** Highest `percent_sub` value, in percent. */
  maxPercentSub: number;
  /** Price bounds by pricing model (`cpc`). A model with no entry has no price bounds. */
  pricingModels: Record<string, PriceBounds>;
}

/**
 * Defaults (README of the pack, "Rules and defaults", says why each):
 * - +100 % doubles a bid, already a large move; 400 is the classic slip (4.00 typed as 400).
 * - -90 %: -100 % bids nothing, and more is meaningless.
 * - CPC: an exact bid from 0.01 (a zero bid buys nothing) to 50 (far above ordinary CPCs, and
 *   catches a lost decimal point: 12.50 typed as 1250); a price step of at most 10.
 */
export const BID_STRATEGY_BOUNDS_DEFAULTS: BidStrategyBoundsSettings = {
  maxPercentAdd: 100,
  maxPercentSub: 90,
  pricingModels: { cpc: { minPrice: 0.01, maxPrice: 50, maxPriceStep: 10 } },
};

const bound = { type: "number", minimum: 0 } as const;

/** The rule's `configSchema` properties. */
export const BID_STRATEGY_BOUNDS_SCHEMA = {
  maxPercentAdd: { ...bound, description: "Highest percent_add value, in percent." },
  maxPercentSub: { ...bound, description: "Highest percent_sub value, in percent." },
  pricingModels: {
    type: "object",
    description: 'Price bounds by pricing model, e.g. { "cpc": { "minPrice": 0.01, "maxPrice": 50, "maxPriceStep": 10 } }.',
    additionalProperties: {
      type: "object",
      properties: { minPrice: bound, maxPrice: bound, maxPriceStep: bound },
      additionalProperties: false,
    },
  },
} as const;

/** The settings: the configuration over the defaults, field by field (also within a pricing model). */
export function bidStrategyBoundsSettings(config: Partial<BidStrategyBoundsSettings>): BidStrategyBoundsSettings {
  const pricingModels: Record<string, PriceBounds> = { ...BID_STRATEGY_BOUNDS_DEFAULTS.pricingModels };
  for (const [model, bounds] of Object.entries(objectOf(config.pricingModels) ?? {})) {
    pricingModels[model] = { ...pricingModels[model], ...(objectOf(bounds) as PriceBounds) };
  }
  return {
    maxPercentAdd: config.maxPercentAdd ?? BID_STRATEGY_BOUNDS_DEFAULTS.maxPercentAdd,
    maxPercentSub: config.maxPercentSub ?? BID_STRATEGY_BOUNDS_DEFAULTS.maxPercentSub,
    pricingModels,
  };
}

/** The violations of one bid strategy, one message each. */
export function bidStrategyViolations(resource: ResourceView, settings: BidStrategyBoundsSettings): string[] {
  const found: string[] = [];
  const { strategy } = resource.props;
  const value = numberOf(resource.props.value);
  const maxValue = numberOf(resource.props.maxValue);
  const model = typeof resource.props.pricingModel === "string" ? resource.props.pricingModel : DEFAULT_PRICING_MODEL;
  const prices = settings.pricingModels[model] ?? {};
  const report = (property: string, actual: number, relation: "above" | "below", limit: number, what: string) =>
    found.push(`${describe(resource)}: ${property} ${actual} is ${relation} ${limit}, the ${what}.`);

  if (value !== undefined) {
    if (strategy === "percent_add" && value > settings.maxPercentAdd) {
      report("value", value, "above", settings.maxPercentAdd, "highest percent_add in percent (maxPercentAdd)");
    }
    if (strategy === "percent_sub" && value > settings.maxPercentSub) {
      report("value", value, "above", settings.maxPercentSub, "highest percent_sub in percent (maxPercentSub)");
    }
    if ((strategy === "price_add" || strategy === "price_sub") && prices.maxPriceStep !== undefined && value > prices.maxPriceStep) {
      report("value", value, "above", prices.maxPriceStep, `highest ${strategy} amount for ${model} (pricingModels.${model}.maxPriceStep)`);
    }
    if (strategy === "exact" && prices.maxPrice !== undefined && value > prices.maxPrice) {
      report("value", value, "above", prices.maxPrice, `highest exact ${model} bid (pricingModels.${model}.maxPrice)`);
    }
    if (strategy === "exact" && prices.minPrice !== undefined && value < prices.minPrice) {
      report("value", value, "below", prices.minPrice, `lowest exact ${model} bid (pricingModels.${model}.minPrice)`);
    }
  }
  if (maxValue !== undefined) {
    if (prices.maxPrice !== undefined && maxValue > prices.maxPrice) {
      report("maxValue", maxValue, "above", prices.maxPrice, `highest ${model} bid (pricingModels.${model}.maxPrice)`);
    }
    // For `exact` the bid is `value`: a ceiling below it cuts the bid that was asked for, which
    // reads as swapped fields. For the other kinds `value` is not a price, so nothing compares.
    if (strategy === "exact" && value !== undefined && maxValue < value) {
      report("maxValue", maxValue, "below", value, "exact bid in value (an exact strategy's ceiling must not cut its own bid)");
    }
  }
  return found;
}
