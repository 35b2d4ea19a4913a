/**
 * BidModifier lifecycle (docs/ARCHITECTURE.md, "Resources and their lifecycle"): the object already
 * exists and is named by `bidModifierId`. create = PATCH op 1 with every declared field; update =
 * PATCH op 1 with the changed fields only; a changed id replaces; no read (state kept); delete = no
 * call, with a warning that the object keeps its last values.
 */
import { ApiNotFoundError } from "../../client";
import type { LifecycleContext } from "../core/context";
import type { ResourceLifecycle } from "../core/lifecycle";
import { apiClient } from "../common/api";
import { checkInputs } from "../common/checkInputs";
import { diffInputs } from "../common/diff";
import { isAbsent } from "../common/equivalence";
import { keptStateRead } from "../common/inputFields";
import { changedFields, declaredFields, warnRemovedFields } from "../common/patchFields";
import { ResourceOperationError, resourceError } from "../common/resourceErrors";
import {
  BID_MODIFIER,
  BID_MODIFIER_FIELDS,
  BidModifierInputs,
  bidModifierBody,
  type BidModifierField,
  type BidModifierOutputs,
} from "./definition";

const subject = (id: unknown) => `BidModifier ${JSON.stringify(id)}`;

/** spec, Versioning: `tags` is deprecated; spec, rule 2: with both sent, `containers` applies. */
async function warnAboutTags(ctx: LifecycleContext, inputs: Record<string, unknown>): Promise<void> {
  if (isAbsent(inputs.tags)) return;
  const label = subject(inputs.bidModifierId);
  if (!isAbsent(inputs.containers)) {
    await ctx.warn(
      `${label}: both \`containers\` and \`tags\` are set; the API applies \`containers\` and ignores ` +
        `\`tags\` (which is deprecated): remove \`tags\`.`,
    );
  } else {
    await ctx.warn(`${label}: \`tags\` is deprecated by the API; use \`containers\` instead.`);
  }
}

/**
 * PATCHes `fields`. spec, rule 2: `containers` applies when both are sent. Decision (not shown in
 * spec): a body that sends `tags` also sends the declared `containers`, so a changed `tags` alone
 * never overrides the `containers` the program declares.
 */
async function patch(ctx: LifecycleContext, inputs: BidModifierInputs, fields: BidModifierField[]): Promise<void> {
  const send = new Set(fields);
  if (send.has("tags") && !isAbsent(inputs.containers)) send.add("containers");
  const body = bidModifierBody(
    inputs,
    BID_MODIFIER_FIELDS.filter((f) => send.has(f)),
  );
  try {
    await apiClient(ctx).call("updateBidModifier", { pathParams: { id: inputs.bidModifierId }, body });
  } catch (error) {
    if (error instanceof ApiNotFoundError) {
      throw new ResourceOperationError(
        `${subject(inputs.bidModifierId)}: the platform has no bid modifier with this id (${error.message})`,
        { cause: error },
      );
    }
    throw resourceError(subject(inputs.bidModifierId), error);
  }
}

/** The lifecycle of `BidModifier`. */
export const bidModifierLifecycle: ResourceLifecycle<BidModifierInputs, BidModifierOutputs> = {
  async check(_olds, news, ctx) {
    const result = checkInputs(BidModifierInputs, news);
    await warnAboutTags(ctx, result.inputs);
    return result;
  },

  async diff(_id, olds, news, ctx) {
    const diff = diffInputs(BID_MODIFIER.diff, olds, news);
    await warnRemovedFields(ctx, subject(news.bidModifierId), BID_MODIFIER_FIELDS, diff);
    return { changes: diff.changes, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace };
  },

  async create(inputs, ctx) {
    // Adopting: every declared field is sent, so the platform matches the program from the start.
    await patch(ctx, inputs, declaredFields(BID_MODIFIER_FIELDS, inputs));
    return { id: inputs.bidModifierId, outputs: inputs };
  },

  // spec: no GET for bid modifiers: the state is kept as last written.
  read: keptStateRead<BidModifierInputs, BidModifierOutputs>(BID_MODIFIER.diff),

  async update(_id, olds, news, ctx) {
    const fields = changedFields(BID_MODIFIER_FIELDS, diffInputs(BID_MODIFIER.diff, olds, news));
    // Only removed fields changed: there is nothing the API can be sent (diff warned about them).
    if (fields.length > 0) await patch(ctx, news, fields);
    return { outputs: news };
  },

  async delete(id, state, ctx) {
    await ctx.warn(
      `${subject(state.bidModifierId ?? id)}: the API cannot delete bid modifiers; the object keeps its last ` +
        `values on the platform and Pulumi only removes it from the stack's state.`,
    );
  },
};
