/**
 * BidStrategy: create = POST op 3 (the definition's `create`, sent through the create journal by the
 * defaults, ../lifecycle/defaults.ts) or adopt by `adoptId`; the rest is the defaults': no update
 * (every change replaces), no read (spec: no GET for bid strategies), no delete.
 */
import { lifecycleWithDefaults, subjectOf } from "../lifecycle/defaults";
import { BID_STRATEGY, bidStrategyBody, type BidStrategyInputs, type BidStrategyOutputs } from "./definition";

const subject = (name: unknown, id?: string) => subjectOf(BID_STRATEGY)({ name }, id);

/** The lifecycle of `BidStrategy`. */
export const bidStrategyLifecycle = lifecycleWithDefaults<BidStrategyInputs, BidStrategyOutputs>(BID_STRATEGY, {
  async adopt(inputs, adoptId, ctx) {
    // spec: there is no GET for bid strategies, so an adopted one cannot be verified.
    await ctx.warn(
      `${subject(inputs.name, adoptId)}: adopted without verification. The API cannot read bid ` +
        `strategies, so Pulumi records the declared values as the state of strategy ${adoptId}; ` +
        `make sure they match the platform.`,
    );
    return { id: adoptId, outputs: inputs };
  },
  post: {
    body: bidStrategyBody,
    created: (inputs, answer) => ({ id: String(answer.id), outputs: inputs }),
  },
});
