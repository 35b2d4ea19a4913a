/** `getZone` / `getZoneOutput`: one zone (spec, operation 13). */
import * as pulumi from "@pulumi/pulumi";
import type { Zone } from "../../provider/catalog";
import { DATA_SOURCES, type ZoneField } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

export type { ZoneField };

/** Arguments of `getZone`. */
export interface GetZoneArgs extends AccountArgument {
  /** Zone id, e.g. `"1001"`. */
  id: string;
  /**
   * Subresources to embed (spec, rule 9): `account` and/or `creator`, returned as objects
   * `{id, name, status, image}`. Each one counts as one more call against the account's rate limit
   * (spec, Limits 7: two fields cost 3 calls).
   */
  fields?: ZoneField[];
  /**
   * Other query parameters, sent as given. The spec says operation 13 accepts query parameters but
   * does not name them (rule 9), so they are not checked; use `fields` for subresources.
   */
  query?: Record<string, string>;
}

/** Arguments of `getZoneOutput`: as `GetZoneArgs`, each may be an `Input`. */
export interface GetZoneOutputArgs extends AccountArgument {
  /** Zone id, e.g. `"1001"`. */
  id: pulumi.Input<string>;
  /** Subresources to embed: `account` and/or `creator` (each costs one more call, spec Limits 7). */
  fields?: pulumi.Input<pulumi.Input<ZoneField>[]>;
  /** Other query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** An account or creator embedded in a zone. */
export interface ZoneParty {
  /** Id. */
  id?: string;
  /** Display name. */
  name?: string;
  /** Status, e.g. `active`. */
  status?: string;
  /** Image URL. */
  image?: string;
}

/** A zone targeting dimension with items and list ids: `countries`, `regions`, `subids`, `ip`, `pages`. */
export interface ZoneListTargeting {
  /** Values; for `ip`, IPv4 or IPv6 addresses or CIDR ranges. */
  items?: string[];
  /** Ids of saved lists. */
  lists?: string[];
  /** `in` or `nin` (values seen). */
  op?: string;
}

/** Zone `categories` targeting: each item is a path of category strings. */
export interface ZoneCategoryTargeting {
  /** Category paths. */
  items?: string[][];
  /** Ids of saved lists. */
  lists?: string[];
  /** `in` or `nin` (values seen). */
  op?: string;
}

/** A zone targeting dimension with plain items: `tags`, `containers`, `deviceTypes`, `time`, ... */
export interface ZoneSimpleTargeting {
  /** Values; for `time`, schedule expressions in bracket form. */
  items?: string[];
  /** `in` or `nin` (values seen). */
  op?: string;
}

/** Zone `os` / `browsers` targeting. */
export interface ZoneVersionedTargeting {
  /** One entry per operating system or browser. */
  items?: {
    /** Operating system or browser id. */
    id?: string;
    /** `in` or `nin` (values seen). */
    op?: string;
    /** Versions it applies to. */
    versions?: string[];
  }[];
}

/** Zone targeting (spec, "Zone targeting keys"). */
export interface ZoneTargeting {
  /** Countries. */
  countries?: ZoneListTargeting;
  /** Regions. */
  regions?: ZoneListTargeting;
  /** Sub-ids. */
  subids?: ZoneListTargeting;
  /** IP addresses or CIDR ranges, IPv4 or IPv6. */
  ip?: ZoneListTargeting;
  /** Pages. */
  pages?: ZoneListTargeting;
  /** Categories. */
  categories?: ZoneCategoryTargeting;
  /** Tags. */
  tags?: ZoneSimpleTargeting;
  /** Containers. */
  containers?: ZoneSimpleTargeting;
  /** Device types. */
  deviceTypes?: ZoneSimpleTargeting;
  /** Device manufacturers. */
  deviceManufacturers?: ZoneSimpleTargeting;
  /** Connection types. */
  connections?: ZoneSimpleTargeting;
  /** Schedule, as bracket-form expressions. */
  time?: ZoneSimpleTargeting;
  /** Languages. */
  languages?: ZoneSimpleTargeting;
  /** Operating systems and versions. */
  os?: ZoneVersionedTargeting;
  /** Browsers and versions. */
  browsers?: ZoneVersionedTargeting;
  /** Device tracking (integer flag). */
  deviceTracking?: number;
  /** Only users with user data (integer flag). */
  hasUserData?: number;
}

/** A zone (spec, "Zone"). Every field but `id` may be absent. */
export interface GetZoneResult {
  /** Zone id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Account id. */
  accountId?: string;
  /** Creator id. */
  creatorId?: string;
  /** Tracking id. */
  trackId?: string;
  /** Tag. */
  tag?: string;
  /** Name. */
  name?: string;
  /** Description. */
  description?: string;
  /** The account, when asked for with `fields: ["account"]`. */
  account?: ZoneParty;
  /** The creator, when asked for with `fields: ["creator"]`. */
  creator?: ZoneParty;
  /** Status, e.g. `active`. */
  status?: string;
  /** Zone type: `rtb`, `widget`, `push` or `display`. Placements exist only on `display` zones (spec, rule 5). */
  type?: string;
  /** Pricing model, e.g. `cpc`. */
  pricingModel?: string;
  /** Campaign priority, e.g. `compete`. */
  campaignPriority?: string;
  /** Campaign search algorithm, e.g. `round-robin`. */
  campaignSearchAlgo?: string;
  /** Distribution (integer). */
  distribution?: number;
  /** Algorithm distribution. */
  algoDistribution?: {
    /** Algorithm id (integer). */
    id?: number;
    /** Rate (integer). */
    rate?: number;
    /** Status. */
    status?: string;
  };
  /** Search algorithm exploration rate (integer). */
  searchAlgoExplRate?: number;
  /** External exploration rate (integer). */
  externalExplRate?: number;
  /** Response timeout (integer). */
  responseTimeout?: number;
  /** Revenue share (integer). */
  revenueShare?: number;
  /** CPV viewability (integer). */
  cpvViewability?: number;
  /** Bid floor. */
  bidFloor?: number;
  /** Bid omit (integer flag). */
  bidOmit?: number;
  /** Sub-id hashing. */
  subidHash?: {
    /** Hash key. */
    key?: string;
    /** Enabled (integer flag). */
    enabled?: number;
  };
  /** User cache (integer flag); only on zones of type `push` (spec, rule 6). */
  userCache?: number;
  /** Widget ids; only on zones of type `widget` (spec, rule 6). */
  widgets?: string[];
  /** Targeting. */
  targeting?: ZoneTargeting;
  /** Traffic filters. */
  filters?: {
    /** Policy, e.g. `block`. */
    policy?: string;
    /** IP match (integer). */
    ipMatch?: number;
    /** Maximum click delay (integer). */
    maxClickDelay?: number;
    /** Minimum click delay (integer). */
    minClickDelay?: number;
  };
  /** Seat. */
  seat?: {
    /** Seat type, e.g. `account`. */
    type?: string;
    /** Comma-separated ids. */
    items?: string;
    /** Priority (integer). */
    priority?: number;
  };
  /** Counters (integers). */
  stats?: {
    /** Requests. */
    request?: number;
    /** Fills. */
    fill?: number;
    /** Impressions. */
    impression?: number;
    /** Clicks. */
    click?: number;
    /** Spam clicks. */
    spamClick?: number;
    /** Conversions. */
    conversion?: number;
  };
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetZoneResult` is exactly what the zone schema yields. */
type _GetZoneResultMatchesSchema = AssertTrue<SameShape<GetZoneResult, SdkShape<typeof Zone>>>;

/**
 * Reads one zone. Identical reads in one program run are sent once.
 *
 * @param args the zone id, optional `fields` (`account`, `creator`) and pass-through `query`.
 * @param opts accepted for the shape of Pulumi data sources; it changes nothing here, since data
 *   sources are plain reads in the program process, not engine invokes.
 * @throws DataSourceNotFoundError when no zone has this id.
 *
 * @example
 * const zone = await getZone({ id: "1001", fields: ["account"] });
 */
export function getZone(args: GetZoneArgs, opts?: pulumi.InvokeOptions): Promise<GetZoneResult> {
  void opts;
  return invokeOne<GetZoneResult>(DATA_SOURCES.getZone, args);
}

/**
 * `Output` form of `getZone`: takes `Input`s, reads once they are known, and keeps their secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 *
 * @example
 * const zone = getZoneOutput({ id: config.require("zoneId") });
 * export const zoneName = zone.name;
 */
export function getZoneOutput(args: GetZoneOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetZoneResult> {
  return outputForm((a: GetZoneArgs) => getZone(a), args, opts);
}
