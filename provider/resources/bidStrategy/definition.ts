/** BidStrategy: field rules from op 3's `BidStrategyCreate`, plus decimal inputs, the pricing-model default and `adoptId`. */
import type { z } from "zod";
import { BidStrategyCreate } from "../../catalog";
import { toWire } from "../../wire";
import { NumberInput } from "../inputs/decimal";
import { APPROVAL_FIELD } from "../inputs/leftBehindApproval";
import { defineResource, optsDoc } from "../inputs/definition";
import { decimalEquivalent } from "../inputs/equivalence";
import { PathId } from "../inputs/pathId";

const wire = BidStrategyCreate.shape;
const CATALOG_TYPES = "provider/catalog/schemas/bidStrategy";

/** Decision (not shown in spec): the default, "the only value given" (spec, Bid strategy); others are sent as written. */
export const DEFAULT_PRICING_MODEL = "cpc" as const;

// No update for strategies (spec, Endpoints: op 3 only): every compared field replaces.
export const BID_STRATEGY = defineResource({
  kind: "BidStrategy",
  noun: "bid strategy",
  // spec, Endpoints: no read of strategies, so the declared values are trusted.
  adoption: {
    by: "adoptId",
    notice: "the API cannot read strategies: the declared values become its state",
    importEffect:
      "is taken over on create instead of creating a new one; the API cannot read bid strategies, so the " +
      "declared values are recorded as its state",
  },
  description:
    "A bid strategy on the platform.\n\n" +
    "The API cannot update, read or delete bid strategies: any change replaces the strategy (a new one is " +
    "created), a refresh keeps the last written state, and destroying the resource only removes it from the " +
    "stack (a warning names the id that stays on the platform).",
  argsDescription: "The arguments of a `BidStrategy`. Every change to them replaces the strategy.",
  constructorDocs: {
    name: "the Pulumi resource name (not the strategy's name on the platform).",
    args: "the strategy's fields.",
    opts: optsDoc('`import: "<strategy id>"` is taken as `adoptId`'),
  },
  create: "createBidStrategy",
  fields: {
    name: {
      schema: wire.name,
      description: "Name of the strategy.",
      diff: { replaces: true },
    },
    pricingModel: {
      schema: wire.pricing_model.default(DEFAULT_PRICING_MODEL),
      description:
        "Pricing model: `cpc`, the only value the API documents and the default, or another the platform offers (sent as written).",
      stateDescription: "Pricing model (`cpc` unless another was set).",
      diff: { replaces: true, absentMeans: DEFAULT_PRICING_MODEL },
      sdkType: { name: "PricingModel", module: CATALOG_TYPES },
    },
    strategy: {
      schema: wire.strategy,
      // spec, rule 3: what `value` means depends on the strategy.
      description: "How `value` adjusts the bid: one of `exact`, `price_add`, `price_sub`, `percent_add`, `percent_sub`.",
      stateDescription: "One of `exact`, `price_add`, `price_sub`, `percent_add`, `percent_sub`.",
      diff: { replaces: true },
      sdkType: { name: "BidStrategyKind", module: CATALOG_TYPES },
    },
    value: {
      schema: NumberInput,
      description:
        "The strategy's value: a price for `exact`/`price_*`, a percentage for `percent_*`. A finite number, or a " +
        'decimal string such as `"0.25"` (sent as a number).',
      stateDescription: "The strategy's value, as the number sent to the API.",
      diff: { replaces: true, equivalent: decimalEquivalent },
    },
    maxValue: {
      schema: NumberInput,
      description: "Upper bound of the resulting bid. A finite number or decimal string (sent as a number).",
      stateDescription: "Upper bound of the resulting bid, as the number sent to the API.",
      diff: { replaces: true, equivalent: decimalEquivalent },
    },
    // Decision (not shown in spec): not compared, so changing it later neither replaces nor re-adopts.
    adoptId: {
      schema: PathId.optional(),
      description:
        "Id of an existing bid strategy to take over instead of creating one. The API cannot read bid strategies, " +
        "so the declared values are trusted (a warning says so) and must match the platform. Only used when the " +
        "resource is created.",
      stateDescription: "The adopted strategy's id, when the resource was created by adopting.",
    },
    approveLeavingId: APPROVAL_FIELD,
  },
});

export const BidStrategyInputs = BID_STRATEGY.inputs;
/** Checked (normalised) BidStrategy inputs. */
export type BidStrategyInputs = z.output<typeof BidStrategyInputs>;

/** BidStrategy state: the inputs; the API returns nothing but the id (spec: "only `id`"). */
export type BidStrategyOutputs = BidStrategyInputs;

/** The op 3 request body for checked inputs. */
export function bidStrategyBody(inputs: BidStrategyInputs): z.input<typeof BidStrategyCreate> {
  const { name, pricingModel, strategy, value, maxValue } = inputs;
  return toWire(BidStrategyCreate, { name, pricingModel, strategy, value, maxValue });
}
