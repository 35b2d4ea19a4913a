/**
 * AbTestVariation: the variation already exists and is named by (`abTestId`, `variationId`); its
 * calls are PATCH op 4 (`patch`), which the defaults (../lifecycle/defaults.ts) use to create with every
 * declared field and update with the changed ones. Changed ids replace; no read (spec: no GET for
 * variations); no delete.
 */
import { lifecycleWithDefaults } from "../lifecycle/defaults";
import { apiClient } from "../lifecycle/api";
import {
  AB_TEST_VARIATION,
  abTestVariationBody,
  type AbTestVariationField,
  type AbTestVariationInputs,
  type AbTestVariationOutputs,
} from "./definition";

/** The lifecycle of `AbTestVariation`. */
export const abTestVariationLifecycle = lifecycleWithDefaults<AbTestVariationInputs, AbTestVariationOutputs>(AB_TEST_VARIATION, {
  subject: (values) => `AbTestVariation ${JSON.stringify(values.variationId)} of A/B test ${JSON.stringify(values.abTestId)}`,

  async patch(ctx, inputs, fields) {
    await apiClient(ctx).call("updateAbTestVariation", {
      pathParams: { id: inputs.abTestId, variation_id: inputs.variationId },
      body: abTestVariationBody(inputs, fields as AbTestVariationField[]),
    });
  },
});
