/**
 * What `pulumi import` can do per kind. An import's `Read` carries only the id, and the API reads only
 * campaign groups (GET op 19; spec, Endpoints): reading another kind would take over an object whose
 * fields nobody knows. Those are refused naming what works: an import file entry with `inputs` and
 * `outputs` (`adplatform-import-file`), or a declaration that takes the object over on `pulumi up`.
 */
import { requestLine } from "../../catalog";
import type { ResourceKind } from "../../resources";
import { resourceToken } from "./tokens";

/** Kinds the platform can read, so `pulumi import` can write their declaration. */
export const IMPORTABLE_KINDS: ReadonlySet<ResourceKind> = new Set<ResourceKind>(["CampaignGroup"]);

const INSTEAD: Readonly<Record<Exclude<ResourceKind, "CampaignGroup">, (id: string) => string>> = {
  BidStrategy: (id) =>
    `declare it in the program with its fields and adoptId: "${id}" (name, strategy, value, maxValue as they are on ` +
    `the platform); the next \`pulumi up\` takes strategy ${id} over without creating one`,
  BidModifier: (id) =>
    `declare it in the program with bidModifierId: "${id}" and the fields you want it to have; the next ` +
    `\`pulumi up\` takes modifier ${id} over and sets those fields (${requestLine("updateBidModifier")})`,
  AbTestVariation: (id) =>
    `declare it in the program with abTestId and variationId (the id "${id}" is <abTestId>/<variationId>) and the ` +
    `fields you want it to have; the next \`pulumi up\` takes the variation over and sets those fields (${requestLine("updateAbTestVariation")})`,
};

/** Why `kind` `id` cannot be imported, or undefined. */
export function importRefusal(kind: ResourceKind, id: string): string | undefined {
  if (kind === "CampaignGroup") return undefined;
  return (
    `${kind} ${id}: cannot import: the API has no read for this kind, so its fields cannot be known and no ` +
    `declaration can be written. Give them in an import file entry with "inputs" and "outputs" (pulumi import ` +
    `--file, Pulumi CLI 3.254 or later, which then reads nothing; adplatform-import-file writes one from a CSV ` +
    `of the objects' fields), or ${INSTEAD[kind](id)}. Only ${resourceToken("CampaignGroup")} can be imported by id alone.`
  );
}
