/** `getCampaignGroup` / `getCampaignGroupOutput`: one campaign group, view shape (spec, operation 19). */
import * as pulumi from "@pulumi/pulumi";
import type { CampaignGroup } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getCampaignGroup`. */
export interface GetCampaignGroupArgs extends AccountArgument {
  /** Campaign group id, e.g. `"701"`. */
  id: string;
  /** Query parameters, sent as given: operation 19 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getCampaignGroupOutput`: as `GetCampaignGroupArgs`, each may be an `Input`. */
export interface GetCampaignGroupOutputArgs extends AccountArgument {
  /** Campaign group id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A campaign group as the view returns it (spec, "Campaign group"). Every field but `id` may be absent. */
export interface GetCampaignGroupResult {
  /** Group id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Name. */
  name?: string;
  /** Colour, `#rrggbb`. */
  color?: string;
  /** Campaign ids. The spec says the view does not return them; present only if the platform sends them anyway. */
  items?: string[];
  /** Number of campaigns in the group (integer). */
  size?: number;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetCampaignGroupResult` is exactly what the schema yields. */
type _GetCampaignGroupResultMatchesSchema = AssertTrue<SameShape<GetCampaignGroupResult, SdkShape<typeof CampaignGroup>>>;

/**
 * Reads one campaign group. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no campaign group has this id.
 *
 * @example
 * const summer = await getCampaignGroup({ id: "701" });
 */
export function getCampaignGroup(args: GetCampaignGroupArgs, opts?: pulumi.InvokeOptions): Promise<GetCampaignGroupResult> {
  void opts;
  return invokeOne<GetCampaignGroupResult>(DATA_SOURCES.getCampaignGroup, args);
}

/**
 * `Output` form of `getCampaignGroup`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getCampaignGroupOutput(
  args: GetCampaignGroupOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetCampaignGroupResult> {
  return outputForm((a: GetCampaignGroupArgs) => getCampaignGroup(a), args, opts);
}
