/**
 * The four resource kinds. The kind string is the only value the serialized `__provider` shim
 * captures (sdk/resources/providerShim.ts), so these names are part
 * of the state format: renaming one breaks every stack that holds it.
 */

/** Kinds in the order of the spec's Endpoints table (ops 1-4). */
export const RESOURCE_KINDS = ["BidModifier", "CampaignGroup", "BidStrategy", "AbTestVariation"] as const;

/** One resource kind; also the `type` part of its URN (`pulumi-nodejs:dynamic/adplatform:<kind>`). */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The `module` part of every URN of this package: `pulumi-nodejs:dynamic/adplatform:<kind>`. */
export const RESOURCE_MODULE = "adplatform";

/** True when `value` names one of the four kinds. */
export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === "string" && (RESOURCE_KINDS as readonly string[]).includes(value);
}
