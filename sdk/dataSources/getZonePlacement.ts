/** `getZonePlacement` / `getZonePlacementOutput`: one placement of a display zone (spec, operation 10). */
import * as pulumi from "@pulumi/pulumi";
import type { ZonePlacement } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getZonePlacement`. */
export interface GetZonePlacementArgs extends AccountArgument {
  /** Id of the zone; it must be a zone of type `display` (spec, rule 5). */
  zoneId: string;
  /** Placement id, a position name such as `"top-banner"`. */
  id: string;
  /** Query parameters, sent as given: operation 10 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getZonePlacementOutput`: as `GetZonePlacementArgs`, each may be an `Input`. */
export interface GetZonePlacementOutputArgs extends AccountArgument {
  /** Id of the display zone. */
  zoneId: pulumi.Input<string>;
  /** Placement id (a position name). */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A zone placement (spec, "Zone placement"). Every field but `id` may be absent. */
export interface GetZonePlacementResult {
  /** Placement id, a position name. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Zone id. */
  zoneId?: string;
  /** Tracking id. */
  trackId?: string;
  /** Embed markup. */
  tag?: string;
  /** Name. */
  name?: string;
  /** Description. */
  description?: string;
  /** Layouts: rows of layout names. */
  layouts?: string[][];
  /** Unit sizes, `<width>x<height>`. */
  unitSize?: string[];
  /** Configuration. */
  conf?: {
    /** Wrapper. */
    wrap?: string;
    /** JavaScript code execution (integer). */
    jsCodeExec?: number;
  };
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetZonePlacementResult` is exactly what the placement schema yields. */
type _GetZonePlacementResultMatchesSchema = AssertTrue<SameShape<GetZonePlacementResult, SdkShape<typeof ZonePlacement>>>;

/**
 * Reads one placement of a display zone. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotDisplayZoneError when the zone is not of type `display` (spec, rule 5).
 * @throws DataSourceNotFoundError when the zone or the placement does not exist.
 *
 * @example
 * const banner = await getZonePlacement({ zoneId: "1001", id: "top-banner" });
 */
export function getZonePlacement(args: GetZonePlacementArgs, opts?: pulumi.InvokeOptions): Promise<GetZonePlacementResult> {
  void opts;
  return invokeOne<GetZonePlacementResult>(DATA_SOURCES.getZonePlacement, args);
}

/**
 * `Output` form of `getZonePlacement`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getZonePlacementOutput(
  args: GetZonePlacementOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetZonePlacementResult> {
  return outputForm((a: GetZonePlacementArgs) => getZonePlacement(a), args, opts);
}
