/** BidStrategy: create = POST op 3 (journaled by the defaults) or adopt by `adoptId`; no update, read or delete. */
import { lifecycleWithDefaults, subjectOf } from "../lifecycle/defaults";
import { BID_STRATEGY, bidStrategyBody, type BidStrategyInputs, type BidStrategyOutputs } from "./definition";

const subject = (name: unknown, id?: string) => subjectOf(BID_STRATEGY)({ name }, id);

export const bidStrategyLifecycle = lifecycleWithDefaults<BidStrategyInputs, BidStrategyOutputs>(BID_STRATEGY, {
  async adopt(inputs, adoptId, ctx) {
    // spec: no GET for bid strategies, so an adopted one cannot be verified.
    await ctx.warn(
      `${subject(inputs.name, adoptId)}: adopted without verification. The API cannot read bid ` +
        `strategies, so Pulumi records the declared values as the state of strategy ${adoptId}; ` +
        `make sure they match the platform.`,
    );
    return { id: adoptId, outputs: inputs };
  },
  post: { body: bidStrategyBody, created: (inputs, answer) => ({ id: String(answer.id), outputs: inputs }) },
});
