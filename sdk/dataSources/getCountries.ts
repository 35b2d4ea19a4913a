/** `getCountries` / `getCountriesOutput`: the country reference list (spec, operation 17). */
import * as pulumi from "@pulumi/pulumi";
import type { Country as CountrySchema } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeList, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getCountries`; all optional. */
export interface GetCountriesArgs extends AccountArgument {
  /** Query parameters, sent as given: operation 17 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getCountriesOutput`: as `GetCountriesArgs`, each may be an `Input`. */
export interface GetCountriesOutputArgs extends AccountArgument {
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A country (spec, "Country"). Every field but `id` may be absent. */
export interface Country {
  /** Country id; equals `code`. */
  id: string;
  /** Two-letter code, e.g. `DE`. */
  code?: string;
  /** Three-letter code, e.g. `DEU`. */
  code3?: string;
  /** Name. */
  name?: string;
}

/** The country reference list. */
export interface GetCountriesResult {
  /** Number of countries the platform reports. */
  total: number;
  /** The countries. */
  items: Country[];
}

/** Compile-time proof that `Country` is exactly what the country schema yields. */
type _CountryMatchesSchema = AssertTrue<SameShape<Country, SdkShape<typeof CountrySchema>>>;

/**
 * Lists every country. Identical reads in one program run are sent once: call it as often as is
 * convenient, 100 concurrent calls make one request.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 *
 * @example
 * const codes = (await getCountries()).items.map((c) => c.code);
 */
export function getCountries(args?: GetCountriesArgs, opts?: pulumi.InvokeOptions): Promise<GetCountriesResult> {
  void opts;
  return invokeList<Country>(DATA_SOURCES.getCountries, args);
}

/**
 * `Output` form of `getCountries`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getCountriesOutput(args?: GetCountriesOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetCountriesResult> {
  return outputForm((a: GetCountriesArgs) => getCountries(a), args, opts);
}
