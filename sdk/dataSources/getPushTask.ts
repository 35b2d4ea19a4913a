/** `getPushTask` / `getPushTaskOutput`: one push task (spec, operation 9). */
import * as pulumi from "@pulumi/pulumi";
import type { PushTask } from "../../provider/catalog";
import { DATA_SOURCES } from "../../provider/dataSources";
import type { AccountArgument } from "./accountArgument";
import { invokeOne, outputForm, type DataSourceOutputOptions } from "./invoke";
import type { TargetingRule } from "./shared";
import type { AssertTrue, SameShape, SdkShape } from "./shapeCheck";

/** Arguments of `getPushTask`. */
export interface GetPushTaskArgs extends AccountArgument {
  /** Push task id, e.g. `"1101"`. */
  id: string;
  /** Query parameters, sent as given: operation 9 accepts some but the spec does not name them (rule 9). */
  query?: Record<string, string>;
}

/** Arguments of `getPushTaskOutput`: as `GetPushTaskArgs`, each may be an `Input`. */
export interface GetPushTaskOutputArgs extends AccountArgument {
  /** Push task id. */
  id: pulumi.Input<string>;
  /** Query parameters, sent as given (names not shown in spec). */
  query?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/** Who a push task targets. */
export interface PushTaskTargeting {
  /** Countries. */
  countries?: TargetingRule;
  /** Apps. */
  apps?: TargetingRule;
  /** Remote users. */
  remoteUsers?: TargetingRule;
  /** Rules keyed by user-data name; the names are data and stay exactly as the platform sends them. */
  userData?: Record<string, TargetingRule>;
}

/** The ad-exchange part of a push task. */
export interface PushTaskAdex {
  /** Zone id. */
  zoneId?: string;
  /** Account id, or null. */
  accountId?: string | null;
  /** Campaign ids. */
  campaignId?: string[];
  /** Group id, or null. */
  groupId?: string | null;
  /** Default campaign id, or null. */
  defaultCampaignId?: string | null;
  /** Number of messages (a string on the wire). */
  numberOfMessages?: string;
  /** Repeat on click (a string on the wire). */
  repeatOnClick?: string;
}

/** A push task (spec, "Push task"). Every field but `id` may be absent. */
export interface GetPushTaskResult {
  /** Push task id. */
  id: string;
  /** Name. */
  name?: string;
  /** Status, e.g. `1`. */
  status?: string;
  /** Start, `YYYY-MM-DD HH:MM:SS`. */
  startTime?: string;
  /** End, or null. */
  endTime?: string | null;
  /** Next run. */
  nextExecutionTime?: string;
  /** Last run, or null. */
  lastExecutionTime?: string | null;
  /** Created. */
  createTime?: string;
  /** Frequency; nullable, its other types are not shown in the spec, so kept as sent. */
  frequency?: unknown;
  /** User time zone; nullable, other types not shown, kept as sent. */
  userTimeZone?: unknown;
  /** Quiet time; nullable, other types not shown, kept as sent. */
  quietTime?: unknown;
  /** Message; nullable, other types not shown, kept as sent. */
  message?: unknown;
  /** Time to live. */
  ttl?: string;
  /** Who it targets. */
  targeting?: PushTaskTargeting;
  /** Ad-exchange settings. */
  adex?: PushTaskAdex;
  /** Creator id. */
  creatorId?: string;
  /** Creator name. */
  creatorName?: string;
}

/** Compile-time proof that `GetPushTaskResult` is exactly what the push task schema yields. */
type _GetPushTaskResultMatchesSchema = AssertTrue<SameShape<GetPushTaskResult, SdkShape<typeof PushTask>>>;

/**
 * Reads one push task. Identical reads in one program run are sent once.
 *
 * @param opts accepted for the shape of Pulumi data sources; changes nothing (not an engine invoke).
 * @throws DataSourceNotFoundError when no push task has this id.
 *
 * @example
 * const digest = await getPushTask({ id: "1101" });
 */
export function getPushTask(args: GetPushTaskArgs, opts?: pulumi.InvokeOptions): Promise<GetPushTaskResult> {
  void opts;
  return invokeOne<GetPushTaskResult>(DATA_SOURCES.getPushTask, args);
}

/**
 * `Output` form of `getPushTask`: takes `Input`s, reads once they are known, keeps secretness.
 *
 * @param opts `dependsOn` delays the read until those resources exist; other options change nothing.
 */
export function getPushTaskOutput(args: GetPushTaskOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetPushTaskResult> {
  return outputForm((a: GetPushTaskArgs) => getPushTask(a), args, opts);
}
