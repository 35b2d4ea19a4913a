/**
 * AbTestVariation inputs (SDK side) and their PATCH body. A variation is an existing platform object
 * named by (`abTestId`, `variationId`); the field rules are the catalog's op 4 request schema
 * (`AbTestVariationUpdate`).
 */
import { z } from "zod";
import { AbTestVariationUpdate, EMPTY_PATCH_MESSAGE, hasAnyField } from "../../catalog";
import { toWire } from "../../wire/casing";
import type { DiffRules } from "../common/diff";
import { PathId } from "../common/pathId";

const wire = AbTestVariationUpdate.shape;

/** The fields op 4 can set (spec, Campaign A/B test variation: "Updatable fields"). */
export const AB_TEST_VARIATION_FIELDS = ["name", "settings"] as const;
/** One settable field of a variation. */
export type AbTestVariationField = (typeof AB_TEST_VARIATION_FIELDS)[number];

/** Checked inputs of an AbTestVariation. */
export const AbTestVariationInputs = z
  .strictObject({
    abTestId: PathId,
    variationId: PathId,
    name: wire.name,
    settings: wire.settings,
  })
  // spec, Endpoints 4: "at least one field must be sent".
  .refine(({ abTestId: _t, variationId: _v, ...fields }) => hasAnyField(fields), {
    message: `${EMPTY_PATCH_MESSAGE}: set at least one of ${AB_TEST_VARIATION_FIELDS.join(", ")}`,
  });
/** Checked AbTestVariation inputs. */
export type AbTestVariationInputs = z.output<typeof AbTestVariationInputs>;

/** AbTestVariation state: the inputs (op 4 answers 204 and the full record is not shown). */
export type AbTestVariationOutputs = AbTestVariationInputs;

/**
 * Changed ids name another variation: replace. `settings` is compared (and sent) whole.
 * Decision (not shown in spec): whether op 4 merges or replaces a partial `settings.image` is not
 * shown, so `settings` is always sent as declared, in full.
 */
export const AB_TEST_VARIATION_DIFF: DiffRules = {
  abTestId: { replaces: true },
  variationId: { replaces: true },
  name: {},
  settings: {},
};

/**
 * The engine id of a variation. Decision (not shown in spec): `<abTestId>/<variationId>`; only a
 * label, never parsed (the provider reads both ids from the inputs).
 */
export function abTestVariationId(inputs: Pick<AbTestVariationInputs, "abTestId" | "variationId">): string {
  return `${inputs.abTestId}/${inputs.variationId}`;
}

/** The op 4 body that sets `fields` of checked inputs; absent fields are not sent. */
export function abTestVariationBody(
  inputs: AbTestVariationInputs,
  fields: readonly AbTestVariationField[],
): z.input<typeof AbTestVariationUpdate> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = inputs[field];
  return toWire(AbTestVariationUpdate, picked);
}
