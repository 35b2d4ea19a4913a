/**
 * BidStrategy inputs (SDK side, camelCase) and their wire body. The field rules are the catalog's
 * op 3 request schema (`BidStrategyCreate`); only the number/decimal-string input forms, the
 * pricing-model default and `adoptId` are added here.
 */
import { z } from "zod";
import { BidStrategyCreate } from "../../catalog";
import { toWire } from "../../wire/casing";
import { NumberInput } from "../common/decimal";
import type { DiffRules } from "../common/diff";
import { decimalEquivalent } from "../common/equivalence";
import { PathId } from "../common/pathId";

const wire = BidStrategyCreate.shape;

/**
 * Decision (not shown in spec): `pricingModel` defaults to `cpc`, "the only value given" (spec, Bid
 * strategy), so a program may omit it; any other string is sent as written.
 */
export const DEFAULT_PRICING_MODEL = "cpc" as const;

/** Checked inputs of a BidStrategy. */
export const BidStrategyInputs = z.strictObject({
  name: wire.name,
  pricingModel: wire.pricing_model.default(DEFAULT_PRICING_MODEL),
  strategy: wire.strategy,
  value: NumberInput,
  maxValue: NumberInput,
  adoptId: PathId.optional(),
});
/** Checked (normalised) BidStrategy inputs. */
export type BidStrategyInputs = z.output<typeof BidStrategyInputs>;

/** BidStrategy state: the inputs; the API returns nothing but the id (spec: "only `id`"). */
export type BidStrategyOutputs = BidStrategyInputs;

/**
 * The API has no update for strategies, so every field replaces (docs/ARCHITECTURE.md, "Resources
 * and their lifecycle").
 * Decision (not shown in spec): `adoptId` matters only to `create` and is not compared, so adding or
 * changing it later neither replaces nor re-adopts.
 */
export const BID_STRATEGY_DIFF: DiffRules = {
  name: { replaces: true },
  pricingModel: { replaces: true, absentMeans: DEFAULT_PRICING_MODEL },
  strategy: { replaces: true },
  value: { replaces: true, equivalent: decimalEquivalent },
  maxValue: { replaces: true, equivalent: decimalEquivalent },
};

/** The op 3 request body for checked inputs. */
export function bidStrategyBody(inputs: BidStrategyInputs): z.input<typeof BidStrategyCreate> {
  const { name, pricingModel, strategy, value, maxValue } = inputs;
  return toWire(BidStrategyCreate, { name, pricingModel, strategy, value, maxValue });
}
