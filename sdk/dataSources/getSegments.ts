/** `getSegments` / `getSegmentsOutput`: the account's audience segments (spec, operation 18). */
import * as pulumi from "@pulumi/pulumi";
import type { Segment as SegmentSchema } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeList, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { TargetingRule } from "./shared";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getSegments`; all optional. */
export interface GetSegmentsArgs extends AccountArgument {
  /** Query parameters, sent as given: operation 18 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getSegmentsOutput`: as `GetSegmentsArgs`, each may be an `Input`. */
export interface GetSegmentsOutputArgs extends AccountArgument {
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** Who a segment matches; each rule's `op` is `eq` or `neq` (values seen). */
export interface SegmentTargeting {
  /** Countries. */
  countries?: TargetingRule;
  /** Languages. */
  languages?: TargetingRule;
  /** Operating systems. */
  os?: TargetingRule;
  /** Browsers. */
  browsers?: TargetingRule;
  /** Apps. */
  apps?: TargetingRule;
  /** Users. */
  users?: TargetingRule;
  /** Groups. */
  groups?: TargetingRule;
  /** Regions. */
  regions?: TargetingRule;
  /** Remote users. */
  remoteUsers?: TargetingRule;
  /** Age of the subscription. */
  subscribedAge?: {
    /** From (integer). */
    from?: number;
    /** To (integer). */
    to?: number;
  };
  /** Rules keyed by user-data name; the names are data and stay exactly as the platform sends them. */
  userData?: Record<string, TargetingRule>;
}

/** An audience segment (spec, "Segment"). Every field but `id` may be absent. */
export interface Segment {
  /** Segment id. */
  id: string;
  /** Name. */
  name?: string;
  /** Status, e.g. `inactive`. */
  status?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Who it matches. */
  targeting?: SegmentTargeting;
}

/** The account's segments. */
export interface GetSegmentsResult {
  /** Number of segments the platform reports (sent as a string by the platform for this list; a number here). */
  total: number;
  /** The segments. */
  items: Segment[];
}

/** Compile-time proof that `Segment` is exactly what the segment schema yields. */
type _SegmentMatchesSchema = AssertTrue<SameShape<Segment, SdkShape<typeof SegmentSchema>>>;

/**
 * Lists the account's segments. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 *
 * @example
 * const active = (await getSegments()).items.filter((s) => s.status === "active");
 */
export function getSegments(args?: GetSegmentsArgs, opts?: pulumi.InvokeOptions): Promise<GetSegmentsResult> {
  void opts;
  return invokeList<Segment>(DATA_SOURCES.getSegments, args);
}

/**
 * `Output` form of `getSegments`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getSegmentsOutput(args?: GetSegmentsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetSegmentsResult> {
  return outputForm((a: GetSegmentsArgs) => getSegments(a), args, opts);
}
