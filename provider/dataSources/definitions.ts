/**
 * The 16 data sources as data, one row per GET operation (5-20), read by the one engine in `engine.ts`;
 * the result is the operation's record schema. The SDK's `sdk/dataSources/get*.ts` and the native
 * schema's functions are generated from this table.
 */
import { ApiNotFoundError, ApiValidationError, type Connection } from "../client";
import { operationByName, type OperationName } from "../catalog";
import { defineDataSource, type DataSource, type DataSourceDefinition, type PathArguments } from "./dataSource";
import { readOne } from "./engine";
import { DataSourceNotDisplayZoneError, DataSourceNotFoundError } from "./errors";

/** `"999"`: ids are quoted in messages so an empty or odd id stays visible. */
const q = (value: string | undefined) => JSON.stringify(value ?? "");

/**
 * Decision (not shown in spec): `getZone` accepts the two objects the spec's Zone table gives, which
 * Limits 7 uses in its example; the list is closed so a misspelt name fails before it costs a call.
 */
export const ZONE_FIELDS = ["account", "creator"] as const;
export type ZoneField = (typeof ZONE_FIELDS)[number];

/**
 * Decision (not shown in spec): operation 8 accepts `fields` (rule 9) but the spec names no
 * subresource of a creative, so any well-formed name is accepted, one call each (Limits 7).
 */
export const CREATIVE_FIELDS = "open" as const;

/** The read cache (`readCache.ts`), true of every data source. */
const ONCE = "Identical reads in one program run are sent once.";

/**
 * spec, rule 5: operation 10 applies to display zones only. The answer for another type is not shown
 * (the simulator sends a 400), so on a 400 or 404 the zone is read (usually from the cache) and its
 * type decides the message.
 */
async function explainPlacementFailure(error: unknown, args: PathArguments, connection: Connection): Promise<Error | undefined> {
  if (!(error instanceof ApiValidationError || error instanceof ApiNotFoundError)) return undefined;
  if (error instanceof ApiValidationError && error.status === undefined) return undefined; // refused locally
  let zone: { type?: string };
  try {
    zone = await readOne<{ type?: string }>(DATA_SOURCES.getZone, { id: args.zoneId }, connection);
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

/** The rows of a read of one object by its `id`: `byId("zone", "1001")` (a list's differ). */
function byId(noun: string, example: string) {
  return {
    description: `Reads one ${noun}. ${ONCE}`,
    throws: [`DataSourceNotFoundError when no ${noun} has this id.`],
    args: { id: { param: "id", description: `${noun[0]!.toUpperCase()}${noun.slice(1)} id, e.g. \`"${example}"\`.` } },
    subject: (a: PathArguments) => `${noun} ${q(a.id)}`,
  };
}

type Row = Omit<DataSourceDefinition, "functionName" | "operation">;

/** Defines each row, its key being its `functionName`, its operation the catalog's of that name (a list's `getXs` reads `listXs`). */
function defineAll<K extends string>(rows: Record<K, Row>): Readonly<Record<K, DataSource>> {
  const sources = Object.entries<Row>(rows).map(([functionName, row]) => {
    const operation = operationByName((row.list ? functionName.replace(/^get/, "list") : functionName) as OperationName);
    return [functionName, defineDataSource({ functionName, operation, ...row })];
  });
  return Object.fromEntries(sources) as Record<K, DataSource>;
}

/** Every data source, by SDK function name. */
export const DATA_SOURCES = defineAll({
  getContainerModal: {
    description: `Reads one modal of a container. ${ONCE}`,
    example: 'const modal = await getContainerModal({ containerId: "100", id: "4001" });',
    throws: ["DataSourceNotFoundError when the container has no modal with this id."],
    args: {
      containerId: { param: "container_id", description: 'Id of the container holding the modal, e.g. `"100"`.' },
      id: { param: "id", description: 'Modal id, e.g. `"4001"`.' },
    },
    subject: (a) => `modal ${q(a.id)} of container ${q(a.containerId)}`,
  },
  getContainerPrompts: {
    description: `Lists the push prompts of a container. ${ONCE}`,
    example: 'const { items } = await getContainerPrompts({ containerId: "100" });',
    args: { containerId: { param: "id", description: 'Container id, e.g. `"100"`.' } },
    list: { total: "Number of prompts the platform reports.", items: "The prompts." },
    subject: (a) => `the prompts of container ${q(a.containerId)}`,
  },
  getIntegration: {
    ...byId("integration", "801"),
    description: `Reads one event-system integration. ${ONCE}`,
    example: 'const mailer = await getIntegration({ id: "801" });',
  },
  getCreative: {
    ...byId("creative", "901"),
    example: 'const creative = await getCreative({ id: "901" });',
    fields: {
      names: CREATIVE_FIELDS,
      description:
        "Subresources to embed, by name (lowercase letters, digits and `_`). Each one counts as one more call against the account's rate limit. What the platform returns under a name is kept on the result, untyped.",
    },
  },
  getPushTask: {
    ...byId("push task", "1101"),
    example: 'const digest = await getPushTask({ id: "1101" });',
  },
  getZonePlacement: {
    description: `Reads one placement of a display zone. ${ONCE}`,
    example: 'const banner = await getZonePlacement({ zoneId: "1001", id: "top-banner" });',
    // spec, rule 5: placements exist only on display zones.
    throws: [
      "DataSourceNotDisplayZoneError when the zone is not of type `display`.",
      "DataSourceNotFoundError when the zone or the placement does not exist.",
    ],
    args: {
      zoneId: { param: "id", description: "Id of the zone; it must be a zone of type `display`." },
      id: { param: "placement_id", description: 'Placement id, a position name such as `"top-banner"`.' },
    },
    subject: (a) => `placement ${q(a.id)} of zone ${q(a.zoneId)}`,
    explainFailure: explainPlacementFailure,
  },
  getProfileProperty: {
    ...byId("profile property", "1201"),
    example: 'const firstName = await getProfileProperty({ id: "1201" });',
  },
  getSearchAlgorithm: {
    ...byId("search algorithm", "1301"),
    example: 'const algo = await getSearchAlgorithm({ id: "1301" });',
    // spec, rule 7 names what is searchable and sortable, but not the parameters.
    query:
      "Query parameters, passed to the platform as given: their names are not checked. The platform searches by `name` and sorts by `name`, `create_time` or `update_time`.",
  },
  getZone: {
    ...byId("zone", "1001"),
    example: 'const zone = await getZone({ id: "1001", fields: ["account"] });',
    fields: {
      names: [...ZONE_FIELDS],
      description:
        "Subresources to embed: `account` and/or `creator`, returned as objects `{id, name, status, image}`. Each one counts as one more call against the account's rate limit.",
    },
  },
  getMacros: {
    description: `Lists the account's macros. ${ONCE}`,
    example: 'const city = (await getMacros()).items.find((m) => m.name === "city");',
    args: {},
    list: { total: "Number of macros the platform reports.", items: "The macros." },
    subject: () => "the macro list",
  },
  getExternalDemands: {
    description: `Lists the account's external demand partners. ${ONCE}`,
    example: "const { items } = await getExternalDemands();",
    args: {},
    // spec, rule 8 names what is searchable, sortable and filterable, but not the parameters.
    query:
      "Query parameters, passed to the platform as given: their names are not checked. The platform searches by `name`, sorts by `id`, `name`, `bid_regulator`, `create_time` or `update_time`, and filters by `id`, `name`, `partner_id`, `status`, `create_time` or `update_time`.",
    list: { total: "Number of external demands the platform reports.", items: "The external demands." },
    subject: () => "the external demand list",
  },
  getMessagingProvider: {
    ...byId("provider", "1601"),
    description: `Reads one messaging provider (named so to tell it from a Pulumi provider). ${ONCE}`,
    example: 'const sms = await getMessagingProvider({ id: "1601" });',
    subject: (a) => `messaging provider ${q(a.id)}`,
  },
  getCountries: {
    description:
      "Lists every country. Identical reads in one program run are sent once: call it as often as is convenient, 100 concurrent calls make one request.",
    example: "const codes = (await getCountries()).items.map((c) => c.code);",
    args: {},
    list: { total: "Number of countries the platform reports.", items: "The countries." },
    subject: () => "the country list",
  },
  getSegments: {
    description: `Lists the account's audience segments. ${ONCE}`,
    example: 'const active = (await getSegments()).items.filter((s) => s.status === "active");',
    args: {},
    // spec, Conventions: the one list whose `total` is sent as a string.
    list: {
      total: "Number of segments the platform reports (sent as a string by the platform for this list; a number here).",
      items: "The segments.",
    },
    subject: () => "the segment list",
  },
  getCampaignGroup: {
    ...byId("campaign group", "701"),
    description: `Reads one campaign group, as the platform's view returns it. ${ONCE}`,
    example: 'const summer = await getCampaignGroup({ id: "701" });',
  },
  getContainerGroup: {
    description: `Reads one group of a container. ${ONCE}`,
    example: 'const onboarding = await getContainerGroup({ containerId: "100", id: "4201" });',
    throws: ["DataSourceNotFoundError when the container has no group with this id."],
    args: {
      containerId: { param: "id", description: 'Id of the container, e.g. `"100"`.' },
      id: { param: "gid", description: 'Group id, e.g. `"4201"`.' },
    },
    subject: (a) => `group ${q(a.id)} of container ${q(a.containerId)}`,
  },
});

/** Name of a data source (`"getZone"`, ...). */
export type DataSourceName = keyof typeof DATA_SOURCES;
