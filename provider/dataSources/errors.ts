/**
 * Errors of the data sources, in the package's one family (`provider/errors`): the classes a
 * program catches a failed read by. Every message starts with the SDK function the program called
 * (`getZone: ...`), because a Pulumi program may call dozens of data sources and the stack trace of
 * an `Output` rarely points at the call. Where a data source fails for the same reason as a client
 * call, the code is the client's: a missing record is `ADP_ERR_NOT_FOUND` whether the program
 * catches the data source's error or reads its `cause`.
 */
import { AdPlatformError, type ErrorCode, type MessageParts } from "../errors";
import type { ConnectionSetting } from "./settingRemedy";

/** Machine-readable reason of a `DataSourceError`, stable across releases. */
export type DataSourceErrorCode = Extract<
  ErrorCode,
  | "ADP_ERR_REQUEST_INVALID"
  | "ADP_ERR_CONFIG"
  | "ADP_ERR_NOT_FOUND"
  | "ADP_ERR_NOT_DISPLAY_ZONE"
  | "ADP_ERR_RESPONSE"
  | "ADP_ERR_REQUEST_FAILED"
>;

/** Options of a `DataSourceError`: the client's error it stems from, and the setting at fault. */
export interface DataSourceErrorOptions {
  readonly cause?: unknown;
  /** The connection setting to fix (`settingRemedy.ts`), when the failure points at one. */
  readonly setting?: ConnectionSetting;
}

/** Base of every error a data source throws. `cause` keeps the client's `ApiError` when there is one. */
export abstract class DataSourceError extends AdPlatformError {
  override readonly name: string = "DataSourceError";
  /** Machine-readable reason. */
  abstract override readonly code: DataSourceErrorCode;
  /** The SDK function that failed, e.g. `getZone`. */
  readonly functionName: string;
  /**
   * The connection setting to fix, when the failure points at one: `token` when the platform
   * refused it, `baseUrl` when the client refused it or its host could not be reached. The message
   * then ends with a line saying where the value came from and how to change it.
   */
  declare readonly setting?: ConnectionSetting;

  /** `reason`: the message after `<functionName>: `, or its parts (the subject is the function). */
  constructor(functionName: string, reason: string | Omit<MessageParts, "subject">, options?: DataSourceErrorOptions) {
    super({ ...(typeof reason === "string" ? { reason } : reason), subject: functionName }, options);
    this.functionName = functionName;
    // Only when there is one, so an inspected error stays short.
    if (options?.setting !== undefined) Object.defineProperty(this, "setting", { value: options.setting, enumerable: true });
  }
}

/** The arguments failed validation; nothing was sent. */
export class DataSourceArgumentError extends DataSourceError {
  override readonly name = "DataSourceArgumentError";
  readonly code = "ADP_ERR_REQUEST_INVALID";
  /** One line per problem, each starting with the argument's path (`fields[1]: ...`). */
  readonly problems: readonly string[];

  constructor(functionName: string, problems: readonly string[]) {
    super(functionName, `invalid arguments: ${problems.join("; ")}`);
    this.problems = problems;
  }
}

/** No API credentials were found in any of the places the message lists. */
export class DataSourceCredentialsError extends DataSourceError {
  override readonly name = "DataSourceCredentialsError";
  readonly code = "ADP_ERR_CONFIG";

  constructor(functionName: string, message: string) {
    super(functionName, message);
  }
}

/** The platform answered 404, or a single-record read came back with no record. */
export class DataSourceNotFoundError extends DataSourceError {
  override readonly name = "DataSourceNotFoundError";
  readonly code = "ADP_ERR_NOT_FOUND";
  /** What was looked for, e.g. `zone "999"`. */
  readonly subject: string;
  /** How the absence showed, e.g. `GET /v2/adex/zones/999 returned 404`. */
  readonly detail: string;

  constructor(functionName: string, subject: string, detail: string, options?: { cause?: unknown }) {
    super(functionName, `${subject} not found (${detail})`, options);
    this.subject = subject;
    this.detail = detail;
  }
}

/** spec, rule 5: operation 10 applies to display zones only; the zone named is of another type. */
export class DataSourceNotDisplayZoneError extends DataSourceError {
  override readonly name = "DataSourceNotDisplayZoneError";
  readonly code = "ADP_ERR_NOT_DISPLAY_ZONE";
  /** The zone the placement was asked of. */
  readonly zoneId: string;
  /** The zone's actual type (`rtb`, `widget`, `push`, ...), or undefined when the zone did not say. */
  readonly zoneType: string | undefined;

  constructor(functionName: string, zoneId: string, zoneType: string | undefined, options?: { cause?: unknown }) {
    super(
      functionName,
      `zone "${zoneId}" is ${zoneType === undefined ? "of no stated type" : `of type "${zoneType}"`}, ` +
        `and placements exist only on zones of type "display" (spec, rule 5)`,
      options,
    );
    this.zoneId = zoneId;
    this.zoneType = zoneType;
  }
}

/** The response did not match the resource's shape; the message names the field. */
export class DataSourceResponseError extends DataSourceError {
  override readonly name = "DataSourceResponseError";
  readonly code = "ADP_ERR_RESPONSE";
}

/** Any other failure of the request (server error, rate limit not recovered, network). */
export class DataSourceRequestError extends DataSourceError {
  override readonly name = "DataSourceRequestError";
  readonly code = "ADP_ERR_REQUEST_FAILED";
}
