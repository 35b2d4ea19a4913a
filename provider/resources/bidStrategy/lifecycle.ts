/**
 * BidStrategy lifecycle (docs/ARCHITECTURE.md, "Resources and their lifecycle"): create = POST op 3
 * (or adopt by `adoptId`), recorded in the create journal; no update (every change replaces); no read (state kept as last
 * written); no delete (the strategy stays on the platform, with a warning naming its id).
 */
import type { ResourceLifecycle } from "../core/lifecycle";
import { apiClient } from "../common/api";
import { checkInputs } from "../common/checkInputs";
import { diffInputs } from "../common/diff";
import { keptStateRead } from "../common/inputFields";
import { resourceError } from "../common/resourceErrors";
import { journaledCreate } from "../core/journaledCreates";
import { BID_STRATEGY, BidStrategyInputs, bidStrategyBody, type BidStrategyOutputs } from "./definition";

const subject = (name: unknown, id?: string) => `BidStrategy ${JSON.stringify(name)}${id ? ` (id ${id})` : ""}`;

/** The lifecycle of `BidStrategy`. */
export const bidStrategyLifecycle: ResourceLifecycle<BidStrategyInputs, BidStrategyOutputs> = {
  async check(_olds, news) {
    return checkInputs(BidStrategyInputs, news);
  },

  async diff(_id, olds, news) {
    const { changes, replaces, deleteBeforeReplace } = diffInputs(BID_STRATEGY.diff, olds, news);
    return { changes, replaces, deleteBeforeReplace };
  },

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

  // spec: no GET for bid strategies: the state is kept as last written.
  read: keptStateRead<BidStrategyInputs, BidStrategyOutputs>(BID_STRATEGY.diff, ["adoptId"]),

  async update(id, _olds, news) {
    // Unreachable through the engine: every compared field replaces. Refuse rather than pretend.
    throw resourceError(subject(news.name, id), new Error("the API cannot update a bid strategy; it must be replaced"));
  },

  async delete(id, state, ctx) {
    await ctx.warn(
      `${subject(state.name, id)}: the API cannot delete bid strategies, so strategy ${id} stays on the ` +
        `platform; Pulumi only removes it from the stack's state.`,
    );
  },
};
