/** Bid strategy (spec, Resources): create body and `{id}` response of op 3. */
import { z } from "zod";
import { RequestName, RequestNumber, wireRecord } from "./common";

/** spec, Bid strategy and rule 3: `strategy` is one of these five values. */
export const BID_STRATEGIES = ["exact", "price_add", "price_sub", "percent_add", "percent_sub"] as const;
/** One allowed `strategy`. */
export type BidStrategyKind = (typeof BID_STRATEGIES)[number];

/**
 * spec, Bid strategy: `cpc` is "the only value given" for `pricing_model`, and "allowed values of
 * enumerated fields beyond those named above: not shown", so other strings are not ruled out and
 * are sent; `cpc` is the one the SDK suggests (`PricingModel`).
 */
export const KNOWN_PRICING_MODELS = ["cpc"] as const;
/** A pricing model: a known one, or any other string (the `string & {}` keeps editors suggesting `cpc`). */
export type PricingModel = (typeof KNOWN_PRICING_MODELS)[number] | (string & {});

/**
 * Create body of op 3. spec, Bid strategy: `value` and `max_value` are JSON numbers (unlike the bid
 * modifier's decimal strings). Decision (not shown in spec, rule 10): all five fields are required;
 * `value` and `max_value` are not compared with each other, since what `value` means depends on the
 * strategy (an amount or a percentage).
 */
export const BidStrategyCreate = z.strictObject({
  name: RequestName,
  pricing_model: z.string(),
  strategy: z.enum(BID_STRATEGIES),
  value: RequestNumber,
  max_value: RequestNumber,
});
/** Wire type of the op 3 body. */
export type BidStrategyCreate = z.output<typeof BidStrategyCreate>;

/** 201 body of op 3: "The create response carries only `id`". */
export const BidStrategyCreated = wireRecord({});
/** Wire type of the op 3 response. */
export type BidStrategyCreated = z.output<typeof BidStrategyCreated>;
