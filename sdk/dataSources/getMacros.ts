/** `getMacros` / `getMacrosOutput`: the account's macros (spec, operation 14). */
import * as pulumi from "@pulumi/pulumi";
import type { Macro as MacroSchema } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeList, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getMacros`; all optional. */
export interface GetMacrosArgs extends AccountArgument {
  /** Query parameters, sent as given: operation 14 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getMacrosOutput`: as `GetMacrosArgs`, each may be an `Input`. */
export interface GetMacrosOutputArgs extends AccountArgument {
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** One record of a macro: a value chosen by field values. */
export interface MacroRecord {
  /** Record id; a nested record may come without one. */
  id?: string;
  /** Field name -> value; the field names are data and stay exactly as the platform sends them. */
  fields?: Record<string, string>;
  /** Value of the macro for this record. */
  value?: string;
}

/** A macro (spec, "Macro"). Every field but `id` may be absent. */
export interface Macro {
  /** Macro id. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Name. */
  name?: string;
  /** Description. */
  description?: string;
  /** Deprecated (integer flag; spec, Versioning). */
  deprecated?: number;
  /** Type, e.g. `dynamic`. */
  type?: string;
  /** Default value. */
  value?: string;
  /** Names of the fields its records are keyed by. */
  fields?: string[];
  /** Records. */
  records?: MacroRecord[];
  /** Size (integer). */
  size?: number;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** The account's macros. */
export interface GetMacrosResult {
  /** Number of macros the platform reports. */
  total: number;
  /** The macros. */
  items: Macro[];
}

/** Compile-time proof that `Macro` is exactly what the macro schema yields. */
type _MacroMatchesSchema = AssertTrue<SameShape<Macro, SdkShape<typeof MacroSchema>>>;

/**
 * Lists the account's macros. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 *
 * @example
 * const city = (await getMacros()).items.find((m) => m.name === "city");
 */
export function getMacros(args?: GetMacrosArgs, opts?: pulumi.InvokeOptions): Promise<GetMacrosResult> {
  void opts;
  return invokeList<Macro>(DATA_SOURCES.getMacros, args);
}

/**
 * `Output` form of `getMacros`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getMacrosOutput(args?: GetMacrosOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetMacrosResult> {
  return outputForm((a: GetMacrosArgs) => getMacros(a), args, opts);
}
