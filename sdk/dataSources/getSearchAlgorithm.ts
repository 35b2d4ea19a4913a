/** `getSearchAlgorithm` / `getSearchAlgorithmOutput`: one search algorithm (spec, operation 12). */
import * as pulumi from "@pulumi/pulumi";
import type { SearchAlgorithm } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getSearchAlgorithm`. */
export interface GetSearchAlgorithmArgs extends AccountArgument {
  /** Search algorithm id, e.g. `"1301"`. */
  id: string;
  /**
   * Query parameters, sent as given. The spec says operation 12 accepts some and names `name` as
   * searchable and `name`, `create_time`, `update_time` as sortable (rule 7), but not the parameter
   * names, so they are not checked.
   */
  query?: Record<string, string>;
}

/** Arguments of `getSearchAlgorithmOutput`: as `GetSearchAlgorithmArgs`, each may be an `Input`. */
export interface GetSearchAlgorithmOutputArgs extends AccountArgument {
  /** Search algorithm id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A search algorithm (spec, "Search algorithm"). Every field but `id` may be absent. */
export interface GetSearchAlgorithmResult {
  /** Algorithm id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Name. */
  name?: string;
  /** Description. */
  description?: string;
  /** Type, e.g. `custom`. */
  type?: string;
  /** Free-form string map; its keys are data and stay exactly as the platform sends them. */
  metadata?: Record<string, string>;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetSearchAlgorithmResult` is exactly what the schema yields. */
type _GetSearchAlgorithmResultMatchesSchema = AssertTrue<SameShape<GetSearchAlgorithmResult, SdkShape<typeof SearchAlgorithm>>>;

/**
 * Reads one search algorithm. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no search algorithm has this id.
 *
 * @example
 * const algo = await getSearchAlgorithm({ id: "1301" });
 */
export function getSearchAlgorithm(args: GetSearchAlgorithmArgs, opts?: pulumi.InvokeOptions): Promise<GetSearchAlgorithmResult> {
  void opts;
  return invokeOne<GetSearchAlgorithmResult>(DATA_SOURCES.getSearchAlgorithm, args);
}

/**
 * `Output` form of `getSearchAlgorithm`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getSearchAlgorithmOutput(
  args: GetSearchAlgorithmOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetSearchAlgorithmResult> {
  return outputForm((a: GetSearchAlgorithmArgs) => getSearchAlgorithm(a), args, opts);
}
