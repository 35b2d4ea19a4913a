/**
 * The data sources' error: one class of the package's family, its `code` saying what failed (the
 * client's code where the reason is the same). Every message starts with the SDK function called
 * (`getZone: ...`), as an `Output`'s stack trace rarely points at the call. Each code was a class of
 * its own before; those names stay, as `name` and as aliases `instanceof` takes, so programs that
 * catch them keep working.
 */
import { AdPlatformError, type ErrorCode, type MessageParts } from "../errors";
import type { ConnectionSetting } from "./settingRemedy";

/** Each code a data source fails with, and the name its errors have always had. */
const NAMES = {
  ADP_ERR_REQUEST_INVALID: "DataSourceArgumentError",
  ADP_ERR_CONFIG: "DataSourceCredentialsError",
  ADP_ERR_NOT_FOUND: "DataSourceNotFoundError",
  ADP_ERR_NOT_DISPLAY_ZONE: "DataSourceNotDisplayZoneError",
  ADP_ERR_RESPONSE: "DataSourceResponseError",
  ADP_ERR_REQUEST_FAILED: "DataSourceRequestError",
} as const satisfies Partial<Record<ErrorCode, string>>;

/** Machine-readable reason of a `DataSourceError`, stable across releases. */
export type DataSourceErrorCode = Extract<ErrorCode, keyof typeof NAMES>;

export interface DataSourceErrorOptions {
  /** What failed; `ADP_ERR_REQUEST_FAILED` unless given. */
  readonly code?: DataSourceErrorCode;
  readonly cause?: unknown;
  /** The connection setting to fix, when the failure points at one (the message then ends with how). */
  readonly setting?: ConnectionSetting;
  /** `ADP_ERR_REQUEST_INVALID`: one line per problem, each starting with the argument's path (`fields[1]: ...`). */
  readonly problems?: readonly string[];
  /** `ADP_ERR_NOT_FOUND`: what was looked for, e.g. `zone "999"`. */
  readonly subject?: string;
  /** `ADP_ERR_NOT_FOUND`: how the absence showed, e.g. `GET /v2/adex/zones/999 returned 404`. */
  readonly detail?: string;
  /** `ADP_ERR_NOT_DISPLAY_ZONE`: the zone the placement was asked of. */
  readonly zoneId?: string;
  /** `ADP_ERR_NOT_DISPLAY_ZONE`: the zone's type (`rtb`, ...), undefined when it did not say. */
  readonly zoneType?: string | undefined;
}

/** The error every data source throws. `cause` keeps the client's `ApiError` when there is one. */
export class DataSourceError extends AdPlatformError {
  /** The code's former class (`DataSourceNotFoundError`, ...). */
  override readonly name: string;
  declare readonly code: DataSourceErrorCode;
  /** The SDK function that failed, e.g. `getZone`. */
  readonly functionName: string;
  // The fields of `DataSourceErrorOptions`, own properties only when given (an inspected error stays short).
  declare readonly setting?: ConnectionSetting;
  declare readonly problems?: readonly string[];
  declare readonly subject?: string;
  declare readonly detail?: string;
  declare readonly zoneId?: string;
  declare readonly zoneType?: string | undefined;

  /** `reason`: the message after `<functionName>: `, or its parts (the subject is the function). */
  constructor(functionName: string, reason: string | Omit<MessageParts, "subject">, options: DataSourceErrorOptions = {}) {
    const { code = "ADP_ERR_REQUEST_FAILED", cause, ...fields } = options;
    super(code, { ...(typeof reason === "string" ? { reason } : reason), subject: functionName }, { cause });
    this.name = NAMES[code];
    this.functionName = functionName;
    for (const [key, value] of Object.entries(fields)) Object.defineProperty(this, key, { value, enumerable: true });
  }
}

/** A `DataSourceError` of code `C`, with the fields it always sets. */
type OfCode<C extends DataSourceErrorCode, Fields = unknown> = DataSourceError & {
  readonly code: C;
  readonly name: (typeof NAMES)[C];
} & Fields;

/** What a former class's constructor took after the function name. */
type Message = [reason: string | Omit<MessageParts, "subject">, options?: Omit<DataSourceErrorOptions, "code">];

/** A former class's name: `new` builds the error of its code as the class did, `instanceof` takes the errors of that code. */
type CodeAlias<E, A extends unknown[]> = (new (functionName: string, ...args: A) => E) & {
  [Symbol.hasInstance](value: unknown): value is E;
};

function codeAlias<E extends DataSourceError, A extends unknown[]>(code: E["code"], message: (...args: A) => Message): CodeAlias<E, A> {
  // A function, not a class: `new` returns the `DataSourceError` it makes; `toThrow(Class)` takes it.
  const alias = function (functionName: string, ...args: A): DataSourceError {
    const [reason, options] = message(...args);
    return new DataSourceError(functionName, reason, { ...options, code });
  };
  Object.defineProperty(alias, "name", { value: NAMES[code] });
  Object.defineProperty(alias, Symbol.hasInstance, { value: (value: unknown) => value instanceof DataSourceError && value.code === code });
  return alias as unknown as CodeAlias<E, A>;
}

const asGiven = (...message: Message) => message;

export type DataSourceArgumentError = OfCode<"ADP_ERR_REQUEST_INVALID", { readonly problems: readonly string[] }>;
export const DataSourceArgumentError = codeAlias<DataSourceArgumentError, [problems: readonly string[]]>(
  "ADP_ERR_REQUEST_INVALID",
  (problems) => [`invalid arguments: ${problems.join("; ")}`, { problems }],
);
export type DataSourceCredentialsError = OfCode<"ADP_ERR_CONFIG">;
export const DataSourceCredentialsError = codeAlias<DataSourceCredentialsError, Message>("ADP_ERR_CONFIG", asGiven);
export type DataSourceNotFoundError = OfCode<"ADP_ERR_NOT_FOUND", { readonly subject: string; readonly detail: string }>;
export const DataSourceNotFoundError = codeAlias<DataSourceNotFoundError, [subject: string, detail: string, options?: { cause?: unknown }]>(
  "ADP_ERR_NOT_FOUND",
  (subject, detail, options) => [`${subject} not found (${detail})`, { ...options, subject, detail }],
);
export type DataSourceNotDisplayZoneError = OfCode<
  "ADP_ERR_NOT_DISPLAY_ZONE",
  { readonly zoneId: string; readonly zoneType: string | undefined }
>;
export const DataSourceNotDisplayZoneError = codeAlias<
  DataSourceNotDisplayZoneError,
  [zoneId: string, zoneType: string | undefined, options?: { cause?: unknown }]
>("ADP_ERR_NOT_DISPLAY_ZONE", (zoneId, zoneType, options) => [
  `zone "${zoneId}" is ${zoneType === undefined ? "of no stated type" : `of type "${zoneType}"`}, ` +
    `and placements exist only on zones of type "display" (spec, rule 5)`,
  { ...options, zoneId, zoneType },
]);
export type DataSourceResponseError = OfCode<"ADP_ERR_RESPONSE">;
export const DataSourceResponseError = codeAlias<DataSourceResponseError, Message>("ADP_ERR_RESPONSE", asGiven);
export type DataSourceRequestError = OfCode<"ADP_ERR_REQUEST_FAILED">;
export const DataSourceRequestError = codeAlias<DataSourceRequestError, Message>("ADP_ERR_REQUEST_FAILED", asGiven);
