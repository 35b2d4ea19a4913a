/** Bid strategy (spec, Resources): create body and `{id}` response of op 3. */
import { z } from "zod";
import { RequestName, RequestNumber, wireRecord } from "./common";

/** spec, Bid strategy and rule 3: `strategy` is one of these five values. */
export const BID_STRATEGIES = ["exact", "price_add", "price_sub", "percent_add", "percent_sub"] as const;
export type BidStrategyKind = (typeof BID_STRATEGIES)[number];

/** spec, Bid strategy: `cpc` is "the only value given"; other values are "not shown", so any string is sent. */
export const KNOWN_PRICING_MODELS = ["cpc"] as const;
/** `string & {}` keeps editors suggesting `cpc`. */
export type PricingModel = (typeof KNOWN_PRICING_MODELS)[number] | (string & {});

/**
 * spec, Bid strategy: `value` and `max_value` are JSON numbers. Decision (not shown in spec, rule 10):
 * all five fields are required; `value` and `max_value` are not compared, as `value` is an amount or
 * a percentage by strategy.
 */
export const BidStrategyCreate = z.strictObject({
  name: RequestName,
  pricing_model: z.string(),
  strategy: z.enum(BID_STRATEGIES),
  value: RequestNumber,
  max_value: RequestNumber,
});

/** 201 body of op 3: "The create response carries only `id`". */
export const BidStrategyCreated = wireRecord({});
