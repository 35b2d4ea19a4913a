/**
 * Kind -> lifecycle. A face looks a kind up here by the name it was given at run time (the
 * serialized shim's `resourceProvider(kind)` for the dynamic face), so the lifecycle code can change
 * without changing any stack's state.
 */
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

/**
 * Each kind's lifecycle as the faces call it, built once here: the kinds created by POST keep a
 * create journal (./journal), and every kind says in `check` when its create
 * will adopt an existing object (./lifecycle/adoptionNotice.ts).
 */
const LIFECYCLES = Object.fromEntries(
  RESOURCE_KINDS.map((kind) => {
    const definition = RESOURCE_DEFINITIONS[kind];
    const lifecycle = definition.create !== undefined ? journaling(definition, CODE[kind]) : CODE[kind];
    return [kind, announcingAdoption(kind, lifecycle)];
  }),
) as Readonly<Record<ResourceKind, ResourceLifecycle<any, any>>>;

/**
 * The lifecycle of one resource kind. Throws `ADP_ERR_UNSUPPORTED` naming the known kinds for
 * anything else (a state written by a newer version of this package, for example).
 */
export function resourceLifecycle(kind: ResourceKind): ResourceLifecycle<any, any> {
  if (!isResourceKind(kind)) {
    const known = Object.keys(LIFECYCLES).join(", ");
    throw new AdPlatformError("ADP_ERR_UNSUPPORTED", `pulumi-adplatform has no resource kind ${JSON.stringify(kind)}; known: ${known}`);
  }
  return LIFECYCLES[kind];
}
/* eslint-enable @typescript-eslint/no-explicit-any */
