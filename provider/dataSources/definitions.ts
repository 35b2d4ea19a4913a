/**
 * The 16 data sources as data: one entry per GET operation of the spec (operations 5-20), read by
 * the one engine in `engine.ts`, so no data source has request code of its own. Each entry names
 * its SDK function, its catalog operation, how the SDK arguments fill the path, and how a message
 * names the object.
 */
import { ApiNotFoundError, ApiValidationError, type Connection } from "../client";
import { operationByName } from "../catalog";
import { defineDataSource, type PathArguments } from "./definition";
import { readOne } from "./engine";
import { DataSourceNotDisplayZoneError, DataSourceNotFoundError } from "./errors";

/** `"999"`: ids are quoted in messages so an empty or odd id stays visible. */
const q = (value: string | undefined) => JSON.stringify(value ?? "");

/**
 * Decision (not shown in spec): the subresources `getZone` accepts in `fields` are `account` and
 * `creator`, the two objects the spec's Zone table gives ({id, name, status, image}) and the two
 * Limits 7 uses in its example. The list is closed so a misspelt name fails before it costs a call.
 */
export const ZONE_FIELDS = ["account", "creator"] as const;
/** A subresource `getZone` can ask for through `fields`. */
export type ZoneField = (typeof ZONE_FIELDS)[number];

/**
 * Decision (not shown in spec): the spec says operation 8 accepts `fields` (rule 9) but names no
 * subresource of a creative, so `getCreative` accepts any well-formed name (lowercase letters,
 * digits, `_`) and charges one call for each (spec, Limits 7). What comes back under that name is
 * kept on the result untyped.
 */
export const CREATIVE_FIELDS = "open" as const;

const zoneSource = defineDataSource({
  functionName: "getZone",
  operation: operationByName("getZone"),
  pathArgs: { id: "id" },
  subject: (a) => `zone ${q(a.id)}`,
  fields: [...ZONE_FIELDS],
});

/**
 * spec, rule 5: operation 10 applies to display zones only. The platform's answer for another zone
 * type is not shown (the simulator sends a 400), so on a 400 or 404 the zone itself is read (through
 * the same cache: usually free) and its type decides the message. A missing zone is named as such.
 */
async function explainPlacementFailure(error: unknown, args: PathArguments, connection: Connection): Promise<Error | undefined> {
  if (!(error instanceof ApiValidationError || error instanceof ApiNotFoundError)) return undefined;
  if (error instanceof ApiValidationError && error.status === undefined) return undefined; // refused locally
  let zone: { type?: string };
  try {
    zone = await readOne<{ type?: string }>(zoneSource, { id: args.zoneId }, connection);
  } catch (zoneError) {
    if (zoneError instanceof DataSourceNotFoundError) {
      return new DataSourceNotFoundError("getZonePlacement", zoneError.subject, zoneError.detail, { cause: error });
    }
    return undefined;
  }
  if (zone.type !== "display") {
    return new DataSourceNotDisplayZoneError("getZonePlacement", args.zoneId, zone.type, { cause: error });
  }
  return undefined;
}

/** Every data source, by SDK function name. */
export const DATA_SOURCES = {
  getContainerModal: defineDataSource({
    functionName: "getContainerModal",
    operation: operationByName("getContainerModal"),
    pathArgs: { containerId: "container_id", id: "id" },
    subject: (a) => `modal ${q(a.id)} of container ${q(a.containerId)}`,
  }),
  getContainerPrompts: defineDataSource({
    functionName: "getContainerPrompts",
    operation: operationByName("listContainerPrompts"),
    pathArgs: { containerId: "id" },
    subject: (a) => `the prompts of container ${q(a.containerId)}`,
  }),
  getIntegration: defineDataSource({
    functionName: "getIntegration",
    operation: operationByName("getIntegration"),
    pathArgs: { id: "id" },
    subject: (a) => `integration ${q(a.id)}`,
  }),
  getCreative: defineDataSource({
    functionName: "getCreative",
    operation: operationByName("getCreative"),
    pathArgs: { id: "id" },
    subject: (a) => `creative ${q(a.id)}`,
    fields: CREATIVE_FIELDS,
  }),
  getPushTask: defineDataSource({
    functionName: "getPushTask",
    operation: operationByName("getPushTask"),
    pathArgs: { id: "id" },
    subject: (a) => `push task ${q(a.id)}`,
  }),
  getZonePlacement: defineDataSource({
    functionName: "getZonePlacement",
    operation: operationByName("getZonePlacement"),
    pathArgs: { zoneId: "id", id: "placement_id" },
    subject: (a) => `placement ${q(a.id)} of zone ${q(a.zoneId)}`,
    explainFailure: explainPlacementFailure,
  }),
  getProfileProperty: defineDataSource({
    functionName: "getProfileProperty",
    operation: operationByName("getProfileProperty"),
    pathArgs: { id: "id" },
    subject: (a) => `profile property ${q(a.id)}`,
  }),
  getSearchAlgorithm: defineDataSource({
    functionName: "getSearchAlgorithm",
    operation: operationByName("getSearchAlgorithm"),
    pathArgs: { id: "id" },
    subject: (a) => `search algorithm ${q(a.id)}`,
  }),
  getZone: zoneSource,
  getMacros: defineDataSource({
    functionName: "getMacros",
    operation: operationByName("listMacros"),
    pathArgs: {},
    subject: () => "the macro list",
  }),
  getExternalDemands: defineDataSource({
    functionName: "getExternalDemands",
    operation: operationByName("listExternalDemands"),
    pathArgs: {},
    subject: () => "the external demand list",
  }),
  getMessagingProvider: defineDataSource({
    functionName: "getMessagingProvider",
    operation: operationByName("getMessagingProvider"),
    pathArgs: { id: "id" },
    subject: (a) => `messaging provider ${q(a.id)}`,
  }),
  getCountries: defineDataSource({
    functionName: "getCountries",
    operation: operationByName("listCountries"),
    pathArgs: {},
    subject: () => "the country list",
  }),
  getSegments: defineDataSource({
    functionName: "getSegments",
    operation: operationByName("listSegments"),
    pathArgs: {},
    subject: () => "the segment list",
  }),
  getCampaignGroup: defineDataSource({
    functionName: "getCampaignGroup",
    operation: operationByName("getCampaignGroup"),
    pathArgs: { id: "id" },
    subject: (a) => `campaign group ${q(a.id)}`,
  }),
  getContainerGroup: defineDataSource({
    functionName: "getContainerGroup",
    operation: operationByName("getContainerGroup"),
    pathArgs: { containerId: "id", id: "gid" },
    subject: (a) => `group ${q(a.id)} of container ${q(a.containerId)}`,
  }),
} as const;

/** Name of a data source (`"getZone"`, ...). */
export type DataSourceName = keyof typeof DATA_SOURCES;
