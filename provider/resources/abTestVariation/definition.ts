/** AbTestVariation: an existing variation named by (`abTestId`, `variationId`); field rules from op 4's `AbTestVariationUpdate`. */
import type { z } from "zod";
import { AbTestVariationUpdate } from "../../catalog";
import { APPROVAL_FIELD } from "../inputs/leftBehindApproval";
import { defineResource, optsDoc } from "../inputs/definition";
import { patchBody } from "../inputs/patchFields";
import { PathId } from "../inputs/pathId";

const wire = AbTestVariationUpdate.shape;

/** The fields op 4 can set (spec, Campaign A/B test variation: "Updatable fields"). */
export const AB_TEST_VARIATION_FIELDS = ["name", "settings"] as const;

// spec, Endpoints 4: partial bodies; no create, read or delete. Changed ids name another variation.
export const AB_TEST_VARIATION = defineResource({
  kind: "AbTestVariation",
  noun: "A/B test variation",
  adoption: { by: "ids", ids: ["abTestId", "variationId"], request: "updateAbTestVariation" },
  description:
    "The managed settings of an existing variation of a campaign A/B test, named by the test's id and the " +
    "variation's id. Its `id` is `<abTestId>/<variationId>`.\n\n" +
    "Creating the resource adopts the variation and sends every declared field; updates send only the changed " +
    "fields; different ids replace the resource. The API cannot create, read or delete variations and cannot " +
    "unset a field: removing a field leaves its value on the platform, and destroying the resource leaves the " +
    "variation with its last values (both with a warning).",
  argsDescription: "The arguments of an `AbTestVariation`. At least one of `name`, `settings` must be set.",
  constructorDocs: {
    name: "the Pulumi resource name.",
    args: "the variation's ids and the fields to manage.",
    opts: optsDoc('`import` may only be the declared ids as `"<abTestId>/<variationId>"`, whose variation is always taken over'),
  },
  fields: {
    abTestId: {
      schema: PathId,
      description: "Id of the campaign A/B test. Changing it replaces the resource.",
      stateDescription: "Id of the campaign A/B test.",
      diff: { replaces: true },
    },
    variationId: {
      schema: PathId,
      description: "Id of the variation within the test. Changing it replaces the resource.",
      stateDescription: "Id of the variation.",
      diff: { replaces: true },
    },
    name: {
      schema: wire.name,
      description: "Name of the variation.",
      stateDescription: "Name, when declared.",
      diff: {},
    },
    // Decision (not shown in spec): whether op 4 merges or replaces a partial `settings.image` is not
    // shown, so `settings` is compared and sent whole, as declared.
    settings: {
      schema: wire.settings,
      description: "Display settings; sent whole whenever they change.",
      stateDescription: "Display settings, when declared.",
      diff: {},
      // spec, Campaign A/B test variation: `settings` holds `image`, language code -> image URL.
      object: {
        name: "AbTestVariationSettings",
        description: "`settings` of a variation.",
        stateDescription: "`settings` as stored in the state.",
        fields: {
          image: {
            description:
              "Image URL by language: keys are language codes such as `en` or `pt_BR` (kept as written), values " +
              "are absolute URLs (`https:` usually).",
            stateDescription: "Image URL by language code.",
          },
        },
      },
    },
    approveLeavingId: APPROVAL_FIELD,
  },
  // spec, Endpoints 4: "at least one field must be sent".
  atLeastOneOf: AB_TEST_VARIATION_FIELDS,
});

export const AbTestVariationInputs = AB_TEST_VARIATION.inputs;
export type AbTestVariationInputs = z.output<typeof AbTestVariationInputs>;

/** AbTestVariation state: the inputs (op 4 answers 204 and the full record is not shown). */
export type AbTestVariationOutputs = AbTestVariationInputs;

export const abTestVariationBody = (inputs: AbTestVariationInputs, fields: readonly string[]) =>
  patchBody(AbTestVariationUpdate, inputs, fields);
