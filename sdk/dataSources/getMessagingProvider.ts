/**
 * `getMessagingProvider` / `getMessagingProviderOutput`: one messaging provider (spec, "Provider",
 * operation 16). Named "messaging provider" so it is not confused with a Pulumi provider.
 */
import * as pulumi from "@pulumi/pulumi";
import type { MessagingProvider } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getMessagingProvider`. Operation 16 takes no query parameters (spec, rule 9). */
export interface GetMessagingProviderArgs extends AccountArgument {
  /** Provider id, e.g. `"1601"`. */
  id: string;
}

/** Arguments of `getMessagingProviderOutput`. */
export interface GetMessagingProviderOutputArgs extends AccountArgument {
  /** Provider id. */
  id: pulumi.Input<string>;
}

/** One setting a messaging provider asks for. */
export interface MessagingProviderSetting {
  /** Title. */
  title?: string;
  /** Name. */
  name?: string;
  /** Type. */
  type?: string;
  /** Whether it must be given. */
  required?: boolean;
  /** Whether it is deprecated (spec, Versioning). */
  deprecated?: boolean;
}

/** A messaging provider (spec, "Provider"). Every field but `id` may be absent. */
export interface GetMessagingProviderResult {
  /** Provider id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Title. */
  title?: string;
  /** Name. */
  name?: string;
  /** Type, e.g. `sms`. */
  type?: string;
  /** Logo URL. */
  logo?: string;
  /** Settings. */
  settings?: MessagingProviderSetting[];
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetMessagingProviderResult` is exactly what the schema yields. */
type _GetMessagingProviderResultMatchesSchema = AssertTrue<SameShape<GetMessagingProviderResult, SdkShape<typeof MessagingProvider>>>;

/**
 * Reads one messaging provider. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no provider has this id.
 *
 * @example
 * const sms = await getMessagingProvider({ id: "1601" });
 */
export function getMessagingProvider(args: GetMessagingProviderArgs, opts?: pulumi.InvokeOptions): Promise<GetMessagingProviderResult> {
  void opts;
  return invokeOne<GetMessagingProviderResult>(DATA_SOURCES.getMessagingProvider, args);
}

/**
 * `Output` form of `getMessagingProvider`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getMessagingProviderOutput(
  args: GetMessagingProviderOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetMessagingProviderResult> {
  return outputForm((a: GetMessagingProviderArgs) => getMessagingProvider(a), args, opts);
}
