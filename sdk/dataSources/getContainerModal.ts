/** `getContainerModal` / `getContainerModalOutput`: one modal of a container (spec, operation 5). */
import * as pulumi from "@pulumi/pulumi";
import type { ContainerModal } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { ContainerItem } from "./containerTypes";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getContainerModal`. */
export interface GetContainerModalArgs extends AccountArgument {
  /** Id of the container holding the modal, e.g. `"100"`. */
  containerId: string;
  /** Modal id, e.g. `"4001"`. */
  id: string;
  /** Query parameters, sent as given: the spec says operation 5 accepts some but does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getContainerModalOutput`: as `GetContainerModalArgs`, each may be an `Input`. */
export interface GetContainerModalOutputArgs extends AccountArgument {
  /** Id of the container holding the modal. */
  containerId: pulumi.Input<string>;
  /** Modal id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** How often a modal may show (spec, "Frequency"). */
export interface ContainerModalFrequency {
  /** Times per session (integer). */
  perSession?: number;
  /** Times per day (integer). */
  perDay?: number;
  /** Times per week (integer). */
  perWeek?: number;
  /** Once per period (integer). */
  oncePerPeriod?: number;
  /** Cooldown between showings (integer). */
  showCooldown?: number;
  /** Show every time, ignoring the limits. */
  alwaysShow?: boolean;
  /** Stop once the visitor interacted. */
  stopAfterInteraction?: boolean;
}

/** A container modal (spec, "Container modal"): the shared container fields plus the modal's own. */
export interface GetContainerModalResult extends ContainerItem {
  /** Container group id. */
  group?: string;
  /** How often it may show. */
  frequency?: ContainerModalFrequency;
  /** Impression limit (integer). */
  impressionLimit?: number;
  /** End, `YYYY-MM-DD HH:MM:SS`. */
  endTime?: string;
}

/** Compile-time proof that `GetContainerModalResult` is exactly what the modal schema yields. */
type _GetContainerModalResultMatchesSchema = AssertTrue<SameShape<GetContainerModalResult, SdkShape<typeof ContainerModal>>>;

/**
 * Reads one modal of a container. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when the container has no modal with this id.
 *
 * @example
 * const modal = await getContainerModal({ containerId: "100", id: "4001" });
 */
export function getContainerModal(args: GetContainerModalArgs, opts?: pulumi.InvokeOptions): Promise<GetContainerModalResult> {
  void opts;
  return invokeOne<GetContainerModalResult>(DATA_SOURCES.getContainerModal, args);
}

/**
 * `Output` form of `getContainerModal`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getContainerModalOutput(
  args: GetContainerModalOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetContainerModalResult> {
  return outputForm((a: GetContainerModalArgs) => getContainerModal(a), args, opts);
}
