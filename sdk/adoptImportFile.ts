/**
 * The dynamic resources' answer to bulk adoption: `pulumi import --file` cannot import a dynamic
 * resource (the engine asks a provider the dynamic plugin has not deserialized yet: see
 * docs/importing-and-adopting.md), so this helper declares one resource per entry of the same
 * import file `adplatform-import-file` writes, each adopting its object on the first `pulumi up`:
 * a strategy or a group with `adoptId`, a bid modifier or a variation by its ids.
 *
 * It reads the file, not a CSV: the file is what the command checked row by row and what it read
 * groups into, so both faces adopt the same objects with the same values.
 */
import * as fs from "node:fs";
import type * as pulumi from "@pulumi/pulumi";
import { kindOfToken } from "../provider/faces/native/tokens";
import type { ResourceKind } from "../provider/resources/kinds";
import {
  AbTestVariation,
  BidModifier,
  BidStrategy,
  CampaignGroup,
  type AbTestVariationArgs,
  type BidModifierArgs,
  type BidStrategyArgs,
  type CampaignGroupArgs,
} from "./resources";

/** The resources `adoptImportFile` declared, by entry name. */
export type AdoptedResources = Record<string, BidStrategy | CampaignGroup | BidModifier | AbTestVariation>;

/** One entry as the helper reads it. */
interface Entry {
  readonly type: string;
  readonly name: string;
  readonly id: string;
  readonly inputs: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The entries of the file's text, or an error naming the file and the entry. */
function entriesOf(file: string, text: string): Entry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON: ${(error as Error).message}`, { cause: error });
  }
  const resources = isObject(parsed) ? parsed.resources : undefined;
  if (!Array.isArray(resources)) throw new Error(`${file}: no "resources" list: write it with adplatform-import-file`);
  return resources.map((entry: unknown, index) => {
    const ok =
      isObject(entry) &&
      typeof entry.type === "string" &&
      typeof entry.name === "string" &&
      typeof entry.id === "string" &&
      isObject(entry.inputs);
    if (!ok) throw new Error(`${file}: resources[${index}]: needs "type", "name", "id" and "inputs" (the object's fields)`);
    return entry as unknown as Entry;
  });
}

/** Declares the resource of one entry of `kind`. */
function declare(kind: ResourceKind, entry: Entry, opts: pulumi.CustomResourceOptions | undefined, file: string) {
  const { name, id, inputs } = entry;
  // The values are checked by each resource's own check at preview, with the property path.
  const args = <T>() => inputs as unknown as T;
  switch (kind) {
    case "BidStrategy":
      return new BidStrategy(name, { ...args<BidStrategyArgs>(), adoptId: id }, opts);
    case "CampaignGroup":
      // Adopting with the dynamic resource declares the group as a create would (spec, rule 4): with items.
      if (inputs.items === undefined) {
        throw new Error(
          `${file}: ${name}: group ${id} has no items, which the dynamic CampaignGroup needs to adopt it (the API does not return ` +
            `a group's campaign ids): give them in the CSV's items column`,
        );
      }
      return new CampaignGroup(name, { ...args<CampaignGroupArgs>(), adoptId: id }, opts);
    case "BidModifier":
      return new BidModifier(name, args<BidModifierArgs>(), opts);
    case "AbTestVariation":
      return new AbTestVariation(name, args<AbTestVariationArgs>(), opts);
  }
}

/**
 * Declares one dynamic resource for each entry of the import file `file` (written by
 * `adplatform-import-file` from a CSV or ids), named as the entry: a `BidStrategy` or `CampaignGroup`
 * with `adoptId` set to the entry's id, a `BidModifier` or `AbTestVariation` with the ids its
 * inputs hold. The first `pulumi up` takes each object over: groups are read (GET) and compared, a
 * strategy is trusted as declared, and a modifier or variation is sent its declared fields with one
 * PATCH each (that is how the dynamic resources adopt; the values are the platform's own, taken
 * from the CSV). Nothing is created. `opts` apply to every resource.
 *
 * Throws, before any request, for a file that is not an import file, a type of another package,
 * or a group without `items`.
 *
 * @example
 * import { adoptImportFile } from "pulumi-adplatform";
 * const adopted = adoptImportFile("import.json");
 * export const summerId = adopted["group-701"].id;
 */
export function adoptImportFile(file: string, opts?: pulumi.CustomResourceOptions): AdoptedResources {
  const adopted: AdoptedResources = {};
  for (const entry of entriesOf(file, fs.readFileSync(file, "utf8"))) {
    const kind = kindOfToken(entry.type);
    if (kind === undefined)
      throw new Error(`${file}: ${entry.name}: type ${JSON.stringify(entry.type)} is no resource of pulumi-adplatform`);
    adopted[entry.name] = declare(kind, entry, opts, file);
  }
  return adopted;
}
