/**
 * AbTestVariation lifecycle (docs/ARCHITECTURE.md, "Resources and their lifecycle"): the variation
 * already exists and is named by (`abTestId`, `variationId`). create = PATCH op 4 with every
 * declared field; update = PATCH op 4 with the changed fields only; changed ids replace; no read
 * (state kept); delete = no call, with a warning.
 */
import { ApiNotFoundError } from "../../client";
import { apiClient } from "../shared/api";
import { checkInputs } from "../shared/checkInputs";
import { diffInputs } from "../shared/diff";
import { keptStateRead } from "../shared/inputFields";
import type { KindProvider } from "../shared/kindProvider";
import { warn } from "../shared/log";
import { changedFields, declaredFields, warnRemovedFields } from "../shared/patchFields";
import { ResourceOperationError, resourceError } from "../shared/resourceErrors";
import {
  AB_TEST_VARIATION_DIFF,
  AB_TEST_VARIATION_FIELDS,
  AbTestVariationInputs,
  abTestVariationBody,
  abTestVariationId,
  type AbTestVariationField,
  type AbTestVariationOutputs,
} from "./inputs";

const subject = (inputs: { abTestId?: unknown; variationId?: unknown }) =>
  `AbTestVariation ${JSON.stringify(inputs.variationId)} of A/B test ${JSON.stringify(inputs.abTestId)}`;

async function patch(inputs: AbTestVariationInputs, fields: AbTestVariationField[]): Promise<void> {
  const body = abTestVariationBody(inputs, fields);
  try {
    await apiClient().call("updateAbTestVariation", {
      pathParams: { id: inputs.abTestId, variation_id: inputs.variationId },
      body,
    });
  } catch (error) {
    if (error instanceof ApiNotFoundError) {
      throw new ResourceOperationError(
        `${subject(inputs)}: the platform has no such A/B test variation (${error.message})`,
        { cause: error },
      );
    }
    throw resourceError(subject(inputs), error);
  }
}

/** The CRUD provider of `AbTestVariation`. */
export const abTestVariationProvider: KindProvider<AbTestVariationInputs, AbTestVariationOutputs> = {
  async check(_olds, news) {
    return checkInputs(AbTestVariationInputs, news);
  },

  async diff(_id, olds, news) {
    const diff = diffInputs(AB_TEST_VARIATION_DIFF, olds, news);
    await warnRemovedFields(subject(news), AB_TEST_VARIATION_FIELDS, diff);
    return { changes: diff.changes, replaces: diff.replaces, deleteBeforeReplace: diff.deleteBeforeReplace };
  },

  async create(inputs) {
    // Adopting: every declared field is sent, so the platform matches the program from the start.
    await patch(inputs, declaredFields(AB_TEST_VARIATION_FIELDS, inputs));
    return { id: abTestVariationId(inputs), outs: inputs };
  },

  // spec: no GET for variations: the state is kept as last written.
  read: keptStateRead<AbTestVariationOutputs>(AB_TEST_VARIATION_DIFF),

  async update(_id, olds, news) {
    const fields = changedFields(AB_TEST_VARIATION_FIELDS, diffInputs(AB_TEST_VARIATION_DIFF, olds, news));
    if (fields.length > 0) await patch(news, fields);
    return { outs: news };
  },

  async delete(_id, props) {
    await warn(
      `${subject(props)}: the API cannot delete A/B test variations; the variation keeps its last values ` +
        `on the platform and Pulumi only removes it from the stack's state.`,
    );
  },
};
