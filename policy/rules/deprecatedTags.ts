/**
 * `bid-modifier-deprecated-tags`: `tags` on a bid modifier is deprecated by the API (spec, Bid
 * modifier and Versioning: "use `containers`"), and ignored when `containers` is also sent (spec,
 * Endpoints rule 2). Advisory by default: the field still works today.
 */
import { describe, type ResourceView } from "../resources";

export const BID_MODIFIER_DEPRECATED_TAGS = "bid-modifier-deprecated-tags";

/** The violations of one bid modifier: one when it sets `tags`. */
export function deprecatedTagsViolations(resource: ResourceView): string[] {
  const { tags, containers } = resource.props;
  if (tags === undefined || tags === null) return [];
  const ignored = containers !== undefined && containers !== null ? " It is ignored here, since containers is set too." : "";
  return [`${describe(resource)}: tags is deprecated by the API; use containers instead.${ignored}`];
}
