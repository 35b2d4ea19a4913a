/** Campaign A/B test variation (spec, Resources): the PATCH body of op 4, which answers 204. */
import { z } from "zod";
import { EMPTY_PATCH_MESSAGE, RequestName, hasAnyField } from "./common";

/** Which language codes the platform knows, and their spelling (`pt_BR`, `pt-BR`), is not shown: any key is sent. */
export const LanguageCode = z.string();

/** spec, Campaign A/B test variation: "image URL" strings; the scheme is not shown, so any is sent. */
export const ImageUrl = z.url({ error: "must be an absolute URL" });

/** spec: "an object ... containing `image`", so `image` is required; an empty map is sent. */
export const VariationSettingsBody = z.strictObject({ image: z.record(LanguageCode, ImageUrl) });

/** spec, Endpoints 4: at least one of `name`, `settings`. */
export const AbTestVariationUpdate = z
  .strictObject({
    name: RequestName.optional(),
    settings: VariationSettingsBody.optional(),
  })
  .refine(hasAnyField, { message: EMPTY_PATCH_MESSAGE });
