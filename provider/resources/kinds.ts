/** In the spec's Endpoints order (ops 1-4). The serialized `__provider` shim keeps only the kind string: never rename one (state). */
export const RESOURCE_KINDS = ["BidModifier", "CampaignGroup", "BidStrategy", "AbTestVariation"] as const;

/** One resource kind; also the `type` part of its URN (`pulumi-nodejs:dynamic/adplatform:<kind>`). */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The `module` part of every URN of this package. */
export const RESOURCE_MODULE = "adplatform";

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === "string" && (RESOURCE_KINDS as readonly string[]).includes(value);
}
