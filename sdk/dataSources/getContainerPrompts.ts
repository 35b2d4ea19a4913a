/** `getContainerPrompts` / `getContainerPromptsOutput`: the push prompts of a container (spec, operation 6). */
import * as pulumi from "@pulumi/pulumi";
import type { ContainerPrompt as ContainerPromptSchema } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { ContainerItem } from "./containerTypes";
import type { AccountArgument } from "./accountArgument";
import { invokeList, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getContainerPrompts`. */
export interface GetContainerPromptsArgs extends AccountArgument {
  /** Container id, e.g. `"100"`. */
  containerId: string;
  /**
   * Query parameters, sent as given: the spec says operation 6 accepts some (paging or filtering,
   * presumably) but does not name them (rule 9).
   */
  query?: Record<string, string>;
}

/** Arguments of `getContainerPromptsOutput`: as `GetContainerPromptsArgs`, each may be an `Input`. */
export interface GetContainerPromptsOutputArgs extends AccountArgument {
  /** Container id. */
  containerId: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * A container push prompt (spec, "Container push prompt"): shaped like a modal, with a `uuid` and
 * without `group`, `frequency`, `impressionLimit` or `endTime`.
 */
export interface ContainerPrompt extends ContainerItem {
  /** UUID of the prompt. */
  uuid?: string;
}

/** The prompts of a container. */
export interface GetContainerPromptsResult {
  /** Number of prompts the platform reports. */
  total: number;
  /** The prompts. */
  items: ContainerPrompt[];
}

/** Compile-time proof that `ContainerPrompt` is exactly what the prompt schema yields. */
type _ContainerPromptMatchesSchema = AssertTrue<SameShape<ContainerPrompt, SdkShape<typeof ContainerPromptSchema>>>;

/**
 * Lists the push prompts of a container. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 *
 * @example
 * const { items } = await getContainerPrompts({ containerId: "100" });
 */
export function getContainerPrompts(args: GetContainerPromptsArgs, opts?: pulumi.InvokeOptions): Promise<GetContainerPromptsResult> {
  void opts;
  return invokeList<ContainerPrompt>(DATA_SOURCES.getContainerPrompts, args);
}

/**
 * `Output` form of `getContainerPrompts`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getContainerPromptsOutput(
  args: GetContainerPromptsOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetContainerPromptsResult> {
  return outputForm((a: GetContainerPromptsArgs) => getContainerPrompts(a), args, opts);
}
