/**
 * A journaled create of bid strategy "Night" for the create protocol's suites, whose POST answers
 * as the client's does: `beforeSend` first (which journals `sent`), then the id.
 */
import { BID_STRATEGY } from "../../provider/resources/bidStrategy/definition";
import type { CreateSend, JournaledCreate } from "../../provider/resources/journal";

/** The strategy's inputs. */
export const STRATEGY_INPUTS = { name: "Night", pricingModel: "cpc", strategy: "exact", value: 0.5, maxValue: 2 };

/** The create's spec for `journaledCreate`, answering `id`, and how many POSTs it sent. */
export function strategyCreate(id: string): { posts(): number; spec: JournaledCreate<typeof STRATEGY_INPUTS, typeof STRATEGY_INPUTS> } {
  let posts = 0;
  return {
    posts: () => posts,
    spec: {
      definition: BID_STRATEGY,
      inputs: STRATEGY_INPUTS,
      async post(send: CreateSend) {
        await send.beforeSend();
        posts += 1;
        return { id, outputs: STRATEGY_INPUTS };
      },
    },
  };
}
