/**
 * Kind -> definition (./inputs/definition.ts): what the native schema and the dynamic SDK's classes
 * are generated from, and what the lifecycle code reads a kind's fields and noun from.
 */
import { AB_TEST_VARIATION } from "./abTestVariation/definition";
import { BID_MODIFIER } from "./bidModifier/definition";
import { BID_STRATEGY } from "./bidStrategy/definition";
import { CAMPAIGN_GROUP } from "./campaignGroup/definition";
import type { AnyResourceDefinition } from "./inputs/definition";
import type { ResourceKind } from "./kinds";

/** Every kind's definition, in the order of `RESOURCE_KINDS`. */
export const RESOURCE_DEFINITIONS: Readonly<Record<ResourceKind, AnyResourceDefinition>> = {
  BidModifier: BID_MODIFIER,
  CampaignGroup: CAMPAIGN_GROUP,
  BidStrategy: BID_STRATEGY,
  AbTestVariation: AB_TEST_VARIATION,
};
