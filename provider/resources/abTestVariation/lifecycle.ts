/**
 * AbTestVariation lifecycle (docs/ARCHITECTURE.md, "Resources and their lifecycle"): the variation
 * already exists and is named by (`abTestId`, `variationId`). create = PATCH op 4 with every
 * declared field; update = PATCH op 4 with the changed fields only; changed ids replace; no read
 * (state kept); delete = no call, with a warning.
 */
import { ApiNotFoundError } from "../../client";
import type { LifecycleContext } from "../core/context";
import type { ResourceLifecycle } from "../core/lifecycle";
import { apiClient } from "../common/api";
import { checkInputs } from "../common/checkInputs";
import { diffInputs } from "../common/diff";
import { keptStateRead } from "../common/inputFields";
import { changedFields, declaredFields, warnRemovedFields } from "../common/patchFields";
import { ResourceOperationError, resourceError } from "../common/resourceErrors";
import {
  AB_TEST_VARIATION,
  AB_TEST_VARIATION_FIELDS,
  AbTestVariationInputs,
  abTestVariationBody,
  abTestVariationId,
  type AbTestVariationField,
  type AbTestVariationOutputs,
} from "./definition";

const subject = (inputs: { abTestId?: unknown; variationId?: unknown }) =>
  `AbTestVariation ${JSON.stringify(inputs.variationId)} of A/B test ${JSON.stringify(inputs.abTestId)}`;

async function patch(ctx: LifecycleContext, inputs: AbTestVariationInputs, fields: AbTestVariationField[]): Promise<void> {
  const body = abTestVariationBody(inputs, fields);
  try {
    await apiClient(ctx).call("updateAbTestVariation", {
      pathParams: { id: inputs.abTestId, variation_id: inputs.variationId },
      body,
    });
  } catch (error) {
    if (error instanceof ApiNotFoundError) {
      throw new ResourceOperationError(`${subject(inputs)}: the platform has no such A/B test variation (${error.message})`, {
        cause: error,
      });
    }
    throw resourceError(subject(inputs), error);
  }
}

/** The lifecycle of `AbTestVariation`. */
export const abTestVariationLifecycle: ResourceLifecycle<AbTestVariationInputs, AbTestVariationOutputs> = {
  async check(_olds, news) {
    return checkInputs(AbTestVariationInputs, news);
  },

  async diff(_id, olds, news, ctx) {
    const diff = diffInputs(AB_TEST_VARIATION.diff, olds, news);
    await warnRemovedFields(ctx, subject(news), AB_TEST_VARIATION_FIELDS, diff);
    return { changes: diff.changes, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace };
  },

  async create(inputs, ctx) {
    // Adopting: every declared field is sent, so the platform matches the program from the start.
    await patch(ctx, inputs, declaredFields(AB_TEST_VARIATION_FIELDS, inputs));
    return { id: abTestVariationId(inputs), outputs: inputs };
  },

  // spec: no GET for variations: the state is kept as last written.
  read: keptStateRead<AbTestVariationInputs, AbTestVariationOutputs>(AB_TEST_VARIATION.diff),

  async update(_id, olds, news, ctx) {
    const fields = changedFields(AB_TEST_VARIATION_FIELDS, diffInputs(AB_TEST_VARIATION.diff, olds, news));
    if (fields.length > 0) await patch(ctx, news, fields);
    return { outputs: news };
  },

  async delete(_id, state, ctx) {
    await ctx.warn(
      `${subject(state)}: the API cannot delete A/B test variations; the variation keeps its last values ` +
        `on the platform and Pulumi only removes it from the stack's state.`,
    );
  },
};
