/** `getIntegration` / `getIntegrationOutput`: one event-system integration (spec, operation 7). */
import * as pulumi from "@pulumi/pulumi";
import type { Integration } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getIntegration`. Operation 7 takes no query parameters (spec, rule 9). */
export interface GetIntegrationArgs extends AccountArgument {
  /** Integration id, e.g. `"801"`. */
  id: string;
}

/** Arguments of `getIntegrationOutput`. */
export interface GetIntegrationOutputArgs extends AccountArgument {
  /** Integration id. */
  id: pulumi.Input<string>;
}

/** An event an integration defines (data only: spec, Events). */
export interface IntegrationEvent {
  /** Event id; a nested record may come without one. */
  id?: string;
  /** Id of the integration. */
  integrationId?: string;
  /** Name. */
  name?: string;
  /** Item the event is about. */
  item?: string;
  /** Description. */
  description?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** One property of an integration action. */
export interface IntegrationActionProperty {
  /** Key. */
  key?: string;
  /** Type. */
  type?: string;
  /** Description. */
  description?: string;
  /** Whether it must be given. */
  required?: boolean;
}

/** An action an integration offers. */
export interface IntegrationAction {
  /** Action id; a nested record may come without one. */
  id?: string;
  /** Id of the integration. */
  integrationId?: string;
  /** Name. */
  name?: string;
  /** Item the action is about. */
  item?: string;
  /** Engine, e.g. `email`. */
  engine?: string;
  /** Properties keyed by property label; the labels are data and stay exactly as the platform sends them. */
  properties?: Record<string, IntegrationActionProperty>;
  /** Description. */
  description?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** An event-system integration (spec, "Integration"). Every field but `id` may be absent. */
export interface GetIntegrationResult {
  /** Integration id. */
  id: string;
  /** Name. */
  name?: string;
  /** Description. */
  description?: string;
  /** Logo URL. */
  logo?: string;
  /** Homepage URL. */
  homepage?: string;
  /** The integration's own version string (spec, Versioning). */
  version?: string;
  /** Audience, e.g. `public`. */
  audience?: string;
  /** Event definitions. */
  events?: IntegrationEvent[];
  /** Actions. */
  actions?: IntegrationAction[];
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** Compile-time proof that `GetIntegrationResult` is exactly what the integration schema yields. */
type _GetIntegrationResultMatchesSchema = AssertTrue<SameShape<GetIntegrationResult, SdkShape<typeof Integration>>>;

/**
 * Reads one integration. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no integration has this id.
 *
 * @example
 * const mailer = await getIntegration({ id: "801" });
 */
export function getIntegration(args: GetIntegrationArgs, opts?: pulumi.InvokeOptions): Promise<GetIntegrationResult> {
  void opts;
  return invokeOne<GetIntegrationResult>(DATA_SOURCES.getIntegration, args);
}

/**
 * `Output` form of `getIntegration`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getIntegrationOutput(args: GetIntegrationOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetIntegrationResult> {
  return outputForm((a: GetIntegrationArgs) => getIntegration(a), args, opts);
}
