/** `getCreative` / `getCreativeOutput`: one creative (spec, operation 8). */
import * as pulumi from "@pulumi/pulumi";
import type { Creative } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/**
 * A subresource name for `getCreative`'s `fields`: lowercase letters, digits and `_`. The spec says
 * operation 8 takes `fields` but names no subresource of a creative, so any well-formed name is
 * accepted (see the Decision on `CREATIVE_FIELDS`).
 */
export type CreativeField = string;

/** Arguments of `getCreative`. */
export interface GetCreativeArgs extends AccountArgument {
  /** Creative id, e.g. `"901"`. */
  id: string;
  /**
   * Subresources to embed (spec, rule 9). Each one counts as one more call against the account's
   * rate limit (spec, Limits 7). The spec names none for creatives; what the platform returns under
   * a name is kept on the result at run time, untyped.
   */
  fields?: CreativeField[];
  /** Other query parameters, sent as given: operation 8 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getCreativeOutput`: as `GetCreativeArgs`, each may be an `Input`. */
export interface GetCreativeOutputArgs extends AccountArgument {
  /** Creative id. */
  id: pulumi.Input<string>;
  /** Subresources to embed (each costs one more call, spec Limits 7). */
  fields?: pulumi.Input<pulumi.Input<CreativeField>[]>;
  /** Other query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** A localised creative field: one language and its text. */
export interface CreativeLocalisedText {
  /** Language code, e.g. `en`. */
  key?: string;
  /** Text (or, for `imageSize`, `<width>x<height>`; for `image` and `banner`, a URL). */
  value?: string;
}

/** A creative (spec, "Creative"). Every field but `id` may be absent. */
export interface GetCreativeResult {
  /** Creative id. */
  id: string;
  /** Name. */
  name?: string;
  /** Status, e.g. `active`. */
  status?: string;
  /** Type, e.g. `dynamic-native`. */
  type?: string;
  /** Campaign id; an integer, as the spec's field table says. */
  campaignId?: number;
  /** Landing page URL. */
  landingUrl?: string;
  /** Link target, e.g. `_top`. */
  target?: string;
  /** Tracking pixel URLs; they may hold macro placeholders such as `{campaign_id}`. */
  trackingPixels?: string[];
  /** Advertiser domain. */
  advertiserDomain?: string;
  /** Likes (integer). */
  likes?: number;
  /** Downloads (integer). */
  downloads?: number;
  /** Price. */
  price?: number;
  /** Sale price. */
  salePrice?: number;
  /** Phone. */
  phone?: string;
  /** Address. */
  address?: string;
  /** HTML5 markup. */
  html5?: string;
  /** Third-party markup. */
  thirdPartyCode?: string;
  /** Call-to-action text. */
  ctatext?: string;
  /** Display URL. */
  displayUrl?: string;
  /** Postback (integer). */
  postback?: number;
  /** App bundle id. */
  bundleId?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Title, localised. */
  title?: CreativeLocalisedText;
  /** Image URL, localised. */
  image?: CreativeLocalisedText;
  /** Image size `<width>x<height>`, localised. */
  imageSize?: CreativeLocalisedText;
  /** Sponsor line, localised. */
  sponsored?: CreativeLocalisedText;
  /** Description, localised. */
  description?: CreativeLocalisedText;
  /** Second description, localised (wire name `description_2`). */
  description2?: CreativeLocalisedText;
  /** Banner, localised. */
  banner?: CreativeLocalisedText;
}

/** Compile-time proof that `GetCreativeResult` is exactly what the creative schema yields. */
type _GetCreativeResultMatchesSchema = AssertTrue<SameShape<GetCreativeResult, SdkShape<typeof Creative>>>;

/**
 * Reads one creative. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no creative has this id.
 *
 * @example
 * const creative = await getCreative({ id: "901" });
 */
export function getCreative(args: GetCreativeArgs, opts?: pulumi.InvokeOptions): Promise<GetCreativeResult> {
  void opts;
  return invokeOne<GetCreativeResult>(DATA_SOURCES.getCreative, args);
}

/**
 * `Output` form of `getCreative`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getCreativeOutput(args: GetCreativeOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetCreativeResult> {
  return outputForm((a: GetCreativeArgs) => getCreative(a), args, opts);
}
