/** Kind -> lifecycle, looked up by name at run time, so the lifecycle code can change without any stack's state. */
import { abTestVariationLifecycle } from "./abTestVariation/lifecycle";
import { bidModifierLifecycle } from "./bidModifier/lifecycle";
import { bidStrategyLifecycle } from "./bidStrategy/lifecycle";
import { campaignGroupLifecycle } from "./campaignGroup/lifecycle";
import { journaling } from "./journal";
import { announcingAdoption } from "./lifecycle/adoptionNotice";
import type { ResourceLifecycle } from "./lifecycle/contract";
import { RESOURCE_DEFINITIONS } from "./definitions";
import { RESOURCE_KINDS, isResourceKind, type ResourceKind } from "./kinds";
import { AdPlatformError } from "../errors";

// Each kind has its own input and output types; the table holds them all, so its values are `any`.
/* eslint-disable @typescript-eslint/no-explicit-any */
const CODE: Readonly<Record<ResourceKind, ResourceLifecycle<any, any>>> = {
  BidModifier: bidModifierLifecycle,
  CampaignGroup: campaignGroupLifecycle,
  BidStrategy: bidStrategyLifecycle,
  AbTestVariation: abTestVariationLifecycle,
};

/** As the faces call them: journaled when created by POST, announcing adoption in `check`. */
const LIFECYCLES = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => {
    const definition = RESOURCE_DEFINITIONS[kind];
    const lifecycle = definition.create !== undefined ? journaling(definition, CODE[kind]) : CODE[kind];
    return [kind, announcingAdoption(kind, lifecycle)];
  }),
) as Readonly<Record<ResourceKind, ResourceLifecycle<any, any>>>;

/** Throws `ADP_ERR_UNSUPPORTED` for any other kind (a state a newer release wrote, say). */
export function resourceLifecycle(kind: ResourceKind): ResourceLifecycle<any, any> {
  if (!isResourceKind(kind)) {
    const known = Object.keys(LIFECYCLES).join(", ");
    throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `pulumi-adplatform has no resource kind ${JSON.stringify(kind)}; known: ${known}`);
  }
  return LIFECYCLES[kind];
}
/* eslint-enable @typescript-eslint/no-explicit-any */
