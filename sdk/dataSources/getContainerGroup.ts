/** `getContainerGroup` / `getContainerGroupOutput`: one group of a container (spec, operation 20). */
import * as pulumi from "@pulumi/pulumi";
import type { ContainerGroup } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getContainerGroup`. */
export interface GetContainerGroupArgs extends AccountArgument {
  /** Id of the container, e.g. `"100"`. */
  containerId: string;
  /** Group id, e.g. `"4201"`. */
  id: string;
  /** Query parameters, sent as given: operation 20 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getContainerGroupOutput`: as `GetContainerGroupArgs`, each may be an `Input`. */
export interface GetContainerGroupOutputArgs extends AccountArgument {
  /** Id of the container. */
  containerId: pulumi.Input<string>;
  /** Group id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A container group (spec, "Container group"). Every field but `id` may be absent. */
export interface GetContainerGroupResult {
  /** Group id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Name. */
  name?: string;
  /** Colour (hex). */
  color?: string;
  /** Number of items in the group (integer). */
  numOfItems?: number;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetContainerGroupResult` is exactly what the schema yields. */
type _GetContainerGroupResultMatchesSchema = AssertTrue<SameShape<GetContainerGroupResult, SdkShape<typeof ContainerGroup>>>;

/**
 * Reads one group of a container. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when the container has no group with this id.
 *
 * @example
 * const onboarding = await getContainerGroup({ containerId: "100", id: "4201" });
 */
export function getContainerGroup(args: GetContainerGroupArgs, opts?: pulumi.InvokeOptions): Promise<GetContainerGroupResult> {
  void opts;
  return invokeOne<GetContainerGroupResult>(DATA_SOURCES.getContainerGroup, args);
}

/**
 * `Output` form of `getContainerGroup`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getContainerGroupOutput(
  args: GetContainerGroupOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetContainerGroupResult> {
  return outputForm((a: GetContainerGroupArgs) => getContainerGroup(a), args, opts);
}
