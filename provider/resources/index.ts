/** The face-neutral lifecycle of the four resources: the contract, the registry, the kinds' types. */
export * from "./kinds";
export { resourceLifecycle } from "./registry";
export type {
  ResourceLifecycle,
  CheckFailure,
  CheckResult,
  DiffResult,
  CreateResult,
  ReadResult,
  UpdateResult,
} from "./lifecycle/contract";
export type { LifecycleContext } from "./lifecycle/context";
export type { BidStrategyInputs, BidStrategyOutputs } from "./bidStrategy/definition";
export type { CampaignGroupInputs, CampaignGroupOutputs } from "./campaignGroup/definition";
export type { BidModifierInputs, BidModifierOutputs } from "./bidModifier/definition";
export type { AbTestVariationInputs, AbTestVariationOutputs } from "./abTestVariation/definition";
export { ResourceOperationError } from "./lifecycle/resourceErrors";
export { RESOURCE_DEFINITIONS } from "./definitions";
export { type InputSchema, checkInputs } from "./inputs/checkInputs";
export { type AnyResourceDefinition } from "./inputs/definition";
export { diffInputs } from "./inputs/diff";
export { deepEquivalent } from "./inputs/equivalence";
export { UNKNOWN_VALUE, containsUnknown, isUnknown } from "./inputs/unknowns";
export { leftBehindRefusal } from "./lifecycle/leftBehind";
export { readGraceRefusal } from "./lifecycle/readGrace";
export {
  CreateSession,
  engineGone,
  journalAccount,
  leftBehindPlaces,
  readLeftBehind,
  type KnownStack,
  type LeftBehindObject,
} from "./journal";
