/**
 * Campaign A/B test variation (spec, Resources): the PATCH body of op 4. The full record is not
 * shown, so there is no response schema (op 4 answers 204).
 */
import { z } from "zod";
import { EMPTY_PATCH_MESSAGE, RequestName, hasAnyField } from "./common";

/**
 * Decision (not shown in spec): a language code key of `settings.image` looks like `en`, `pt_BR`,
 * `pt-BR` or `zh-Hant` (two or three letters, then optional `_`/`-` subtags). Keys are data: the
 * casing keeps them verbatim.
 */
export const LanguageCode = z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, 'must be a language code such as "en" or "pt_BR"');

/** Decision (not shown in spec): image URLs are absolute `http` or `https` URLs. */
export const ImageUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/**
 * `settings` of a variation: `image` maps a language code to an image URL (spec). Decision (not shown
 * in spec): when `settings` is sent it carries `image` with at least one language.
 */
export const VariationSettingsBody = z.strictObject({
  image: z.record(LanguageCode, ImageUrl).refine((m) => Object.keys(m).length > 0, "settings.image must map at least one language"),
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
