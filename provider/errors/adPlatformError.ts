/**
 * The base of every error this package throws on purpose (after undici's `lib/core/errors.js`): a
 * stable `name`, a `code` (`ADP_ERR_<WHAT>`, like Node's `ERR_*`; one idea has one code in every
 * layer) and typed fields. A subclass exists only where a caller needs fields of its own; callers
 * branch on `instanceof` or `code`, never on text. `renderMessage` is the one place that writes what
 * a user reads; a layer wrapping another's error adds parts instead of re-reading its text.
 */
import { inspect, type InspectOptions } from "node:util";
import { describeError } from "./inspection";

/** Machine-readable code of an `AdPlatformError`, stable across releases. */
export type ErrorCode =
  /** An HTTP status no other code covers (e.g. 409). */
  | "ADP_ERR_HTTP"
  /** The platform refused the request as invalid (400). */
  | "ADP_ERR_VALIDATION"
  /** The request or a data source's arguments are invalid; nothing was sent. */
  | "ADP_ERR_REQUEST_INVALID"
  /** The platform refused the token (401, 403). */
  | "ADP_ERR_AUTH"
  /** The object does not exist (404, or a read that came back with no record). */
  | "ADP_ERR_NOT_FOUND"
  /** Still rate limited after every attempt the retry policy allows (429). */
  | "ADP_ERR_RATE_LIMIT"
  /** The platform failed (5xx). */
  | "ADP_ERR_SERVER"
  /** The connection failed, was reset or timed out. */
  | "ADP_ERR_NETWORK"
  /** The response did not parse, or was too large. */
  | "ADP_ERR_RESPONSE"
  /** A setting is missing or unusable (no base URL or token, a share, grace or mode out of range); nothing was sent. */
  | "ADP_ERR_CONFIG"
  /** spec, rule 5: a placement was asked of a zone that is not a display zone. */
  | "ADP_ERR_NOT_DISPLAY_ZONE"
  /** Any other failure of a data source's request. */
  | "ADP_ERR_REQUEST_FAILED"
  /** A resource operation failed; `cause` keeps the client's error with its own code. */
  | "ADP_ERR_RESOURCE_OPERATION"
  /** A change would leave an object on the platform, unapproved, while `leftBehind` is `refuse`; nothing was sent. */
  | "ADP_ERR_LEFT_BEHIND_REFUSED"
  /** Asked for what the package does not have: a resource type, function, kind, operation or import, a `@pulumi/pulumi` protocol. */
  | "ADP_ERR_UNSUPPORTED"
  /** A directory for shared state (`limitsDir`, `journalDir`) cannot be used (not private to this user, a stale lock); nothing was written. */
  | "ADP_ERR_UNSAFE_DIRECTORY"
  /** The Redis at `limitsUrl` could not be used: it did not answer, or its limits kept changing under every decision. */
  | "ADP_ERR_STORE_UNUSABLE"
  /** The create journal holds a newer release's entry for the resource; nothing was sent. */
  | "ADP_ERR_JOURNAL_NEWER_ENTRY"
  /** The Pulumi engine that asked for a create ended before it was sent; nothing was sent. */
  | "ADP_ERR_ENGINE_GONE"
  /** `adplatform-import-file` refused its arguments, a CSV or a row; nothing was written. */
  | "ADP_ERR_IMPORT_REFUSED"
  /** A definition the package is built from (the catalog, a data source) is malformed: a bug in the package. */
  | "ADP_ERR_DEFINITION";

/** The parts of a message a user reads; `renderMessage` joins them. */
export interface MessageParts {
  /** Who failed: `getZone`, `BidStrategy "night"`. */
  readonly subject?: string;
  /** What was being done: `GET /v2/adex/zones/9`. */
  readonly action?: string;
  /** Why: the status and the platform's `message`, or a local reason. */
  readonly reason: string;
  /** The platform's `trace_id` (spec, Errors): what its support asks for. */
  readonly traceId?: string;
  /** What to do about it, on a line of its own. */
  readonly remedy?: string;
}

/** `subject: action failed: reason (trace_id ...)`, then the remedy on its own line. */
export function renderMessage(parts: MessageParts): string {
  const subject = parts.subject ? `${parts.subject}: ` : "";
  const action = parts.action ? `${parts.action} failed: ` : "";
  const trace = parts.traceId ? ` (trace_id ${parts.traceId})` : "";
  const remedy = parts.remedy ? `\n${parts.remedy}` : "";
  return `${subject}${action}${parts.reason}${trace}${remedy}`;
}

/** The parts of any thrown value: an `AdPlatformError`'s own, else its message as the reason. */
export function messageParts(error: unknown): MessageParts {
  return error instanceof AdPlatformError ? error.parts : { reason: error instanceof Error ? error.message : String(error) };
}

/** `error`'s parts under one more subject (`BidStrategy "night": getZone: ...`). */
export function underSubject(subject: string, error: unknown): MessageParts {
  const parts = messageParts(error);
  return { ...parts, subject: parts.subject ? `${subject}: ${parts.subject}` : subject };
}

function causeSummary(cause: unknown): unknown {
  if (!(cause instanceof Error)) return cause;
  const { code } = cause as Error & { code?: unknown };
  return { name: cause.name, ...(code !== undefined ? { code } : {}), message: cause.message };
}

/** True when `error` is one of the family's, with `code` when given. */
export function isAdPlatformError(error: unknown, code?: ErrorCode): error is AdPlatformError {
  return error instanceof AdPlatformError && (code === undefined || error.code === code);
}

/** Base of every error the package throws on purpose, and the error of every code without a subclass. */
export class AdPlatformError extends Error {
  override readonly name: string = "AdPlatformError";
  readonly code: ErrorCode;
  /** What the message was rendered from; not enumerable, so inspection and JSON show the message once. */
  declare readonly parts: MessageParts;

  /** `parts`: the whole message (the reason alone), or its parts. */
  constructor(code: ErrorCode, parts: MessageParts | string, options?: { readonly cause?: unknown }) {
    const given = typeof parts === "string" ? { reason: parts } : parts;
    super(renderMessage(given), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    Object.defineProperty(this, "parts", { value: given, enumerable: false });
  }

  /** Plain data for logs and JSON: every typed field, the cause as name/code/message, no stack. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const [key, value] of Object.entries(this)) if (!(key in out)) out[key] = value;
    if (this.cause !== undefined) out.cause = causeSummary(this.cause);
    return out;
  }

  /** Written out by `describeError` (see `./inspection.ts` for why). */
  [inspect.custom](_depth: number, options: InspectOptions): string {
    return describeError(this, options);
  }
}
