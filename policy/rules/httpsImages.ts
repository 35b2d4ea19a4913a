/**
 * `ab-variation-https-images`: every image URL of an A/B test variation (spec, Campaign A/B test
 * variation: `settings.image` maps a language code to an image URL) is https. The provider accepts
 * http too (its decision where the spec is silent); a page served over https shows no http image
 * without a mixed-content warning, so a careful team refuses it before it ships.
 */
import { describe, objectOf, shown, type ResourceView } from "../resources";

export const AB_VARIATION_HTTPS_IMAGES = "ab-variation-https-images";

/** True when `text` is an absolute https URL. */
function isHttps(text: string): boolean {
  try {
    return new URL(text).protocol === "https:";
  } catch {
    return false;
  }
}

/** The violations of one variation: one per image URL that is not https. */
export function httpsImageViolations(resource: ResourceView): string[] {
  const image = objectOf(objectOf(resource.props.settings)?.image) ?? {};
  return Object.entries(image)
    .filter(([, url]) => typeof url !== "string" || !isHttps(url))
    .map(([language, url]) => `${describe(resource)}: settings.image.${language} ${shown(url)} is not an https URL.`);
}
