/** The CRUD side of the four dynamic resources (what the serialized shim requires at run time). */
export * from "./kinds";
export { configure } from "./configure";
export { resourceProvider } from "./registry";
export type { KindProvider } from "./shared/kindProvider";
export type { BidStrategyInputs, BidStrategyOutputs } from "./bidStrategy/inputs";
export type { CampaignGroupInputs, CampaignGroupOutputs } from "./campaignGroup/inputs";
export type { BidModifierInputs, BidModifierOutputs } from "./bidModifier/inputs";
export type { AbTestVariationInputs, AbTestVariationOutputs } from "./abTestVariation/inputs";
export { ResourceOperationError } from "./shared/resourceErrors";
