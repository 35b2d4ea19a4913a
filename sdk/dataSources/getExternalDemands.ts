/** `getExternalDemands` / `getExternalDemandsOutput`: the account's external demand partners (spec, operation 15). */
import * as pulumi from "@pulumi/pulumi";
import type { ExternalDemand as ExternalDemandSchema } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeList, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getExternalDemands`; all optional. */
export interface GetExternalDemandsArgs extends AccountArgument {
  /**
   * Query parameters, sent as given. The spec names `name` as searchable, `id`, `name`,
   * `bid_regulator`, `create_time`, `update_time` as sortable and `id`, `name`, `partner_id`,
   * `status`, `create_time`, `update_time` as filterable (rule 8), but not the parameter names, so
   * they are not checked.
   */
  query?: Record<string, string>;
}

/** Arguments of `getExternalDemandsOutput`: as `GetExternalDemandsArgs`, each may be an `Input`. */
export interface GetExternalDemandsOutputArgs extends AccountArgument {
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** One setting of an external demand. */
export interface ExternalDemandSetting {
  /** Label. */
  label?: string;
  /** Type. */
  type?: string;
  /** Required, as a string flag (`"0"` / `"1"`). */
  required?: string;
  /** Allowed values; nullable, its other type is not shown in the spec, so kept as sent. */
  possibleValues?: unknown;
  /** Value; its type is not shown in the spec, so kept as sent. */
  value?: unknown;
}

/** An external demand partner (spec, "External demand"). Every field but `id` may be absent. */
export interface ExternalDemand {
  /** External demand id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Partner id. */
  partnerId?: string;
  /** Name. */
  name?: string;
  /** Settings. */
  settings?: ExternalDemandSetting[];
  /** Bid regulator (integer). */
  bidRegulator?: number;
  /** Status, e.g. `active`. */
  status?: string;
  /** Sync status (string flag). */
  syncStatus?: string;
  /** IPv6 support (string flag). */
  ipv6Support?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Queries per second by region code; the codes are data and stay exactly as the platform sends them. */
  qps?: Record<string, number>;
}

/** The account's external demand partners. */
export interface GetExternalDemandsResult {
  /** Number of external demands the platform reports. */
  total: number;
  /** The external demands. */
  items: ExternalDemand[];
}

/** Compile-time proof that `ExternalDemand` is exactly what the schema yields. */
type _ExternalDemandMatchesSchema = AssertTrue<SameShape<ExternalDemand, SdkShape<typeof ExternalDemandSchema>>>;

/**
 * Lists the account's external demand partners. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 *
 * @example
 * const { items } = await getExternalDemands();
 */
export function getExternalDemands(args?: GetExternalDemandsArgs, opts?: pulumi.InvokeOptions): Promise<GetExternalDemandsResult> {
  void opts;
  return invokeList<ExternalDemand>(DATA_SOURCES.getExternalDemands, args);
}

/**
 * `Output` form of `getExternalDemands`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getExternalDemandsOutput(
  args?: GetExternalDemandsOutputArgs,
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetExternalDemandsResult> {
  return outputForm((a: GetExternalDemandsArgs) => getExternalDemands(a), args, opts);
}
