/**
 * Campaign A/B test variation (spec, Resources): the PATCH body of op 4. The full record is not
 * shown, so there is no response schema (op 4 answers 204).
 */
import { z } from "zod";
import { EMPTY_PATCH_MESSAGE, RequestName, hasAnyField } from "./common";

/**
 * A language code key of `settings.image`. Which codes the platform knows, and their spelling (`en`,
 * `pt_BR`, `pt-BR`), are not shown, so any key is sent. Keys are data: the casing keeps them verbatim.
 */
export const LanguageCode = z.string();

/**
 * spec, Campaign A/B test variation: the values are "image URL" strings, so a string that is not an
 * absolute URL is refused. The scheme is not shown: any is sent (`https:`, `http:`, `data:`, ...).
 */
export const ImageUrl = z.url({ error: "must be an absolute URL" });

/**
 * `settings` of a variation: "an object ... containing `image`, an object that maps a language code
 * to an image URL string" (spec), so `image` is required in it. How many languages it maps is not
 * shown: an empty map is sent.
 */
export const VariationSettingsBody = z.strictObject({
  image: z.record(LanguageCode, ImageUrl),
});

/** PATCH body of op 4: at least one of `name`, `settings` (spec, Endpoints 4). */
export const AbTestVariationUpdate = z
  .strictObject({
    name: RequestName.optional(),
    settings: VariationSettingsBody.optional(),
  })
  .refine(hasAnyField, { message: EMPTY_PATCH_MESSAGE });
/** Wire type of the op 4 body. */
export type AbTestVariationUpdate = z.output<typeof AbTestVariationUpdate>;
