/** AbTestVariation: PATCH op 4, with which the defaults create and update; no read (spec: no GET), no delete. */
import { lifecycleWithDefaults } from "../lifecycle/defaults";
import { apiClient } from "../lifecycle/api";
import { AB_TEST_VARIATION, abTestVariationBody, type AbTestVariationInputs, type AbTestVariationOutputs } from "./definition";

export const abTestVariationLifecycle = lifecycleWithDefaults<AbTestVariationInputs, AbTestVariationOutputs>(AB_TEST_VARIATION, {
  subject: (values) => `AbTestVariation ${JSON.stringify(values.variationId)} of A/B test ${JSON.stringify(values.abTestId)}`,

  async patch(ctx, inputs, fields) {
    await apiClient(ctx).call("updateAbTestVariation", {
      pathParams: { id: inputs.abTestId, variation_id: inputs.variationId },
      body: abTestVariationBody(inputs, fields),
    });
  },
});
