/** BidModifier: PATCH op 1, with which the defaults create and update; no read (spec: no GET), no delete. */
import type { LifecycleContext } from "../lifecycle/context";
import { lifecycleWithDefaults } from "../lifecycle/defaults";
import { apiClient } from "../lifecycle/api";
import { isAbsent } from "../inputs/equivalence";
import { BID_MODIFIER, BID_MODIFIER_FIELDS, bidModifierBody, type BidModifierInputs, type BidModifierOutputs } from "./definition";

const subject = (id: unknown) => `BidModifier ${JSON.stringify(id)}`;

/** spec, Versioning: `tags` is deprecated; spec, rule 2: with both sent, `containers` applies. */
async function warnAboutTags(ctx: LifecycleContext, inputs: Record<string, unknown>): Promise<void> {
  if (isAbsent(inputs.tags)) return;
  const label = subject(inputs.bidModifierId);
  await ctx.warn(
    isAbsent(inputs.containers)
      ? `${label}: \`tags\` is deprecated by the API; use \`containers\` instead.`
      : `${label}: both \`containers\` and \`tags\` are set; the API applies \`containers\` and ignores ` +
          `\`tags\` (which is deprecated): remove \`tags\`.`,
  );
}

export const bidModifierLifecycle = lifecycleWithDefaults<BidModifierInputs, BidModifierOutputs>(BID_MODIFIER, {
  async checked(result, ctx) {
    await warnAboutTags(ctx, result.inputs);
  },

  /** spec, rule 2: `containers` applies when both are sent. Decision (not shown in spec): `tags` goes with `containers`. */
  async patch(ctx, inputs, fields) {
    const send = new Set(fields);
    if (send.has("tags") && !isAbsent(inputs.containers)) send.add("containers");
    const sent = BID_MODIFIER_FIELDS.filter((f) => send.has(f));
    await apiClient(ctx).call("updateBidModifier", { pathParams: { id: inputs.bidModifierId }, body: bidModifierBody(inputs, sent) });
  },
});
