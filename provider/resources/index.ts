/** The face-neutral lifecycle of the four resources: the contract, the registry, the kinds' types. */
export * from "./kinds";
export { resourceLifecycle } from "./registry";
export type { ResourceLifecycle, CheckFailure, CheckResult, DiffResult, CreateResult, ReadResult, UpdateResult } from "./core/lifecycle";
export type { LifecycleContext } from "./core/context";
export type { BidStrategyInputs, BidStrategyOutputs } from "./bidStrategy/inputs";
export type { CampaignGroupInputs, CampaignGroupOutputs } from "./campaignGroup/inputs";
export type { BidModifierInputs, BidModifierOutputs } from "./bidModifier/inputs";
export type { AbTestVariationInputs, AbTestVariationOutputs } from "./abTestVariation/inputs";
export { ResourceOperationError } from "./common/resourceErrors";
