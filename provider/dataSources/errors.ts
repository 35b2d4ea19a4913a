/**
 * Errors of the data sources (docs/ARCHITECTURE.md, "Code conventions": one base, subclasses with a
 * stable `name` and `code`, extra data in typed fields). Every message starts with the SDK function
 * the program called (`getZone: ...`), because a Pulumi program may call dozens of data sources and
 * the stack trace of an `Output` rarely points at the call.
 */

/** Machine-readable reason of a `DataSourceError`. */
export type DataSourceErrorCode =
  | "invalid_arguments"
  | "missing_credentials"
  | "not_found"
  | "not_display_zone"
  | "malformed_response"
  | "request_failed";

/** Base of every error a data source throws. `cause` keeps the client's `ApiError` when there is one. */
export class DataSourceError extends Error {
  override readonly name: string = "DataSourceError";
  /** Machine-readable reason. */
  readonly code: DataSourceErrorCode;
  /** The SDK function that failed, e.g. `getZone`. */
  readonly functionName: string;

  constructor(functionName: string, code: DataSourceErrorCode, message: string, options?: { cause?: unknown }) {
    super(`${functionName}: ${message}`, options);
    this.functionName = functionName;
    this.code = code;
  }
}

/** The arguments failed validation; nothing was sent. */
export class DataSourceArgumentError extends DataSourceError {
  override readonly name = "DataSourceArgumentError";
  /** One line per problem, each starting with the argument's path (`fields[1]: ...`). */
  readonly problems: readonly string[];

  constructor(functionName: string, problems: readonly string[]) {
    super(functionName, "invalid_arguments", `invalid arguments: ${problems.join("; ")}`);
    this.problems = problems;
  }
}

/** No API credentials were found in any of the places the message lists. */
export class DataSourceCredentialsError extends DataSourceError {
  override readonly name = "DataSourceCredentialsError";

  constructor(functionName: string, message: string) {
    super(functionName, "missing_credentials", message);
  }
}

/** The platform answered 404, or a single-record read came back with no record. */
export class DataSourceNotFoundError extends DataSourceError {
  override readonly name = "DataSourceNotFoundError";
  /** What was looked for, e.g. `zone "999"`. */
  readonly subject: string;
  /** How the absence showed, e.g. `GET /v2/adex/zones/999 returned 404`. */
  readonly detail: string;

  constructor(functionName: string, subject: string, detail: string, options?: { cause?: unknown }) {
    super(functionName, "not_found", `${subject} not found (${detail})`, options);
    this.subject = subject;
    this.detail = detail;
  }
}

/** spec, rule 5: operation 10 applies to display zones only; the zone named is of another type. */
export class DataSourceNotDisplayZoneError extends DataSourceError {
  override readonly name = "DataSourceNotDisplayZoneError";
  /** The zone the placement was asked of. */
  readonly zoneId: string;
  /** The zone's actual type (`rtb`, `widget`, `push`, ...), or undefined when the zone did not say. */
  readonly zoneType: string | undefined;

  constructor(functionName: string, zoneId: string, zoneType: string | undefined, options?: { cause?: unknown }) {
    super(
      functionName,
      "not_display_zone",
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

  constructor(functionName: string, message: string, options?: { cause?: unknown }) {
    super(functionName, "malformed_response", message, options);
  }
}

/** Any other failure of the request (server error, rate limit not recovered, network). */
export class DataSourceRequestError extends DataSourceError {
  override readonly name = "DataSourceRequestError";

  constructor(functionName: string, message: string, options?: { cause?: unknown }) {
    super(functionName, "request_failed", message, options);
  }
}
