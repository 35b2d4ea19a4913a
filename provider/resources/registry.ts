/**
 * Kind -> CRUD provider. The serialized shim of every resource calls `resourceProvider(kind)` by
 * name at run time, so the provider code can change without changing any stack's `__provider`.
 */
import { abTestVariationProvider } from "./abTestVariation/provider";
import { bidModifierProvider } from "./bidModifier/provider";
import { bidStrategyProvider } from "./bidStrategy/provider";
import { campaignGroupProvider } from "./campaignGroup/provider";
import { isResourceKind, type ResourceKind } from "./kinds";
import type { KindProvider } from "./shared/kindProvider";

const PROVIDERS: Readonly<Record<ResourceKind, KindProvider<any, any>>> = {
  BidModifier: bidModifierProvider,
  CampaignGroup: campaignGroupProvider,
  BidStrategy: bidStrategyProvider,
  AbTestVariation: abTestVariationProvider,
};

/**
 * The CRUD provider of one resource kind. Throws a TypeError naming the known kinds for anything
 * else (a state written by a newer version of this package, for example).
 */
export function resourceProvider(kind: ResourceKind): KindProvider<any, any> {
  if (!isResourceKind(kind)) {
    throw new TypeError(`pulumi-adplatform has no resource kind ${JSON.stringify(kind)}; known: ${Object.keys(PROVIDERS).join(", ")}`);
  }
  return PROVIDERS[kind];
}
