/** `getProfileProperty` / `getProfilePropertyOutput`: one profile property (spec, operation 11). */
import * as pulumi from "@pulumi/pulumi";
import type { ProfileProperty } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getProfileProperty`. */
export interface GetProfilePropertyArgs extends AccountArgument {
  /** Profile property id, e.g. `"1201"`. */
  id: string;
  /** Query parameters, sent as given: operation 11 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getProfilePropertyOutput`: as `GetProfilePropertyArgs`, each may be an `Input`. */
export interface GetProfilePropertyOutputArgs extends AccountArgument {
  /** Profile property id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A profile property (spec, "Profile property"). Every field but `id` may be absent. */
export interface GetProfilePropertyResult {
  /** Property id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Target. */
  target?: string;
  /** Label. */
  label?: string;
  /** Data type, e.g. `text`. */
  dataType?: string;
  /** Example value. */
  example?: string;
  /** Description. */
  description?: string;
  /** Names the property is imported under. */
  importAliases?: string[];
  /** Name the property is exported under. */
  exportAlias?: string;
  /** Personal information (integer flag). */
  piData?: number;
  /** System property (integer flag). */
  system?: number;
  /** Importable (integer flag). */
  importable?: number;
  /** Exportable (integer flag). */
  exportable?: number;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetProfilePropertyResult` is exactly what the schema yields. */
type _GetProfilePropertyResultMatchesSchema = AssertTrue<SameShape<GetProfilePropertyResult, SdkShape<typeof ProfileProperty>>>;

/**
 * Reads one profile property. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no profile property has this id.
 *
 * @example
 * const firstName = await getProfileProperty({ id: "1201" });
 */
export function getProfileProperty(args: GetProfilePropertyArgs, opts?: pulumi.InvokeOptions): Promise<GetProfilePropertyResult> {
  void opts;
  return invokeOne<GetProfilePropertyResult>(DATA_SOURCES.getProfileProperty, args);
}

/**
 * `Output` form of `getProfileProperty`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getProfilePropertyOutput(
  args: GetProfilePropertyOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetProfilePropertyResult> {
  return outputForm((a: GetProfilePropertyArgs) => getProfileProperty(a), args, opts);
}
