/** Kind -> definition: what the native schema and the SDK's classes are generated from. */
import { AB_TEST_VARIATION } from "./abTestVariation/definition";
import { BID_MODIFIER } from "./bidModifier/definition";
import { BID_STRATEGY } from "./bidStrategy/definition";
import { CAMPAIGN_GROUP } from "./campaignGroup/definition";
import type { AnyResourceDefinition } from "./inputs/definition";
import type { ResourceKind } from "./kinds";

export const RESOURCE_DEFINITIONS: Readonly<Record<ResourceKind, AnyResourceDefinition>> = {
  BidModifier: BID_MODIFIER,
  CampaignGroup: CAMPAIGN_GROUP,
  BidStrategy: BID_STRATEGY,
  AbTestVariation: AB_TEST_VARIATION,
};
