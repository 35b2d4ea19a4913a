/**
 * BidStrategy: create = POST op 3 (or adopt by `adoptId`), recorded in the create journal; the rest
 * is the defaults' (../lifecycle/defaults.ts): no update (every change replaces), no read (spec: no GET
 * for bid strategies), no delete.
 */
import { apiClient } from "../lifecycle/api";
import { lifecycleWithDefaults, subjectOf } from "../lifecycle/defaults";
import { journaledCreate } from "../journal";
import { BID_STRATEGY, bidStrategyBody, type BidStrategyInputs, type BidStrategyOutputs } from "./definition";

const subject = (name: unknown, id?: string) => subjectOf(BID_STRATEGY)({ name }, id);

/** The lifecycle of `BidStrategy`. */
export const bidStrategyLifecycle = lifecycleWithDefaults<BidStrategyInputs, BidStrategyOutputs>(BID_STRATEGY, {
  async create(inputs, ctx) {
    if (inputs.adoptId) {
      // spec: there is no GET for bid strategies, so an adopted one cannot be verified.
      await ctx.warn(
        `${subject(inputs.name, inputs.adoptId)}: adopted without verification. The API cannot read bid ` +
          `strategies, so Pulumi records the declared values as the state of strategy ${inputs.adoptId}; ` +
          `make sure they match the platform.`,
      );
      return { id: inputs.adoptId, outputs: inputs };
    }
    return journaledCreate(ctx, {
      definition: BID_STRATEGY,
      inputs,
      subject: subject(inputs.name),
      name: inputs.name,
      async post(send) {
        const response = await apiClient(ctx).call("createBidStrategy", { body: bidStrategyBody(inputs), ...send });
        return { id: String(response.body.id), outputs: inputs };
      },
    });
  },
});
