/**
 * `ApiError` and one subclass per way a call fails that a caller branches on. Each states its `name`
 * and `code` (public interface; a bundler may rename classes). Every text an error keeps is scrubbed
 * with the secrets passed at construction, which are not stored.
 */
import { STATUS_CODES } from "node:http";
import { AdPlatformError, type ErrorCode } from "../errors";
import { redactText, sanitizeCause } from "../infrastructure";
import type { OperationSpec } from "../catalog";

/** The catalog operation: its name and its number in the spec's Endpoints table. */
export type OperationRef = Pick<OperationSpec, "name" | "number">;

/** Where a failed request was going; all optional for errors raised before any request exists. */
export interface RequestContext {
  readonly operation?: OperationRef;
  readonly method?: string;
  /** Request path with query, relative to the base URL's origin; never holds credentials. */
  readonly path?: string;
}

export interface ApiErrorInit extends RequestContext {
  readonly status?: number;
  readonly title?: string;
  readonly serverMessage?: string;
  readonly traceId?: string;
  readonly attempts?: number;
  readonly cause?: unknown;
  /** Texts to scrub from everything the error keeps; used once, never stored. */
  readonly secrets?: readonly string[];
}

/** `createBidStrategy (POST /v2/adex/bid-strategies)`, or undefined without an operation. */
function describeRequest(context: RequestContext): string | undefined {
  const { operation, method, path } = context;
  const target = [method, path].filter(Boolean).join(" ");
  if (operation) return target ? `${operation.name} (${target})` : operation.name;
  return target || undefined;
}

/** `400 Bad Request`. */
function describeStatus(init: ApiErrorInit): string {
  if (init.status === undefined) return "";
  const title = init.title ?? STATUS_CODES[init.status] ?? "";
  return [String(init.status), title].filter(Boolean).join(" ");
}

/** Base of every error the client throws; thrown as is (`ADP_ERR_HTTP`) for statuses no subclass covers (409). */
export class ApiError extends AdPlatformError {
  override readonly name: string = "ApiError";
  declare readonly status?: number;
  /** `title` of the error body, else the HTTP reason phrase. */
  declare readonly title?: string;
  /** `message` of the error body, verbatim (scrubbed). */
  declare readonly serverMessage?: string;
  /** `trace_id` of the error body (spec, Errors): quote it to the platform's support. */
  declare readonly traceId?: string;
  declare readonly operation?: OperationRef;
  declare readonly method?: string;
  declare readonly path?: string;
  /** Attempts made (1 when not retried). */
  declare readonly attempts?: number;

  /** `summary`: what went wrong, without the request prefix (added from `init`). */
  constructor(summary: string, init: ApiErrorInit = {}) {
    const secrets = init.secrets ?? [];
    const scrub = (text: string | undefined) => (text === undefined ? undefined : redactText(text, secrets));
    const { operation } = init;
    // Only defined fields become own properties, so inspect output stays short.
    const fields = {
      status: init.status,
      title: scrub(init.title),
      serverMessage: scrub(init.serverMessage),
      traceId: scrub(init.traceId),
      operation: operation && { name: operation.name, number: operation.number },
      method: init.method,
      path: scrub(init.path),
      attempts: init.attempts,
    };
    const action = describeRequest(fields);
    super(
      "ADP_ERR_HTTP",
      {
        ...(action ? { action: redactText(action, secrets) } : {}),
        reason: redactText(summary, secrets),
        ...(fields.traceId ? { traceId: fields.traceId } : {}),
      },
      { cause: sanitizeCause(init.cause, secrets) },
    );
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: true });
    }
  }
}

export type HttpErrorInit = ApiErrorInit & { readonly status: number };

function httpSummary(init: ApiErrorInit): string {
  const status = describeStatus(init);
  return init.serverMessage ? `${status}: ${init.serverMessage}` : status;
}

/** A status with no subclass of its own (e.g. 409, 422). */
export function genericHttpError(init: HttpErrorInit): ApiError {
  return new ApiError(httpSummary(init), init);
}

/** The platform rejected the request as invalid (400; spec, Errors). */
export class ApiValidationError extends ApiError {
  override readonly name: string = "ApiValidationError";
  override readonly code: ErrorCode = "ADP_ERR_VALIDATION";
  /** When known (always for local validation). */
  readonly issues: readonly ValidationIssue[];
  constructor(init: ApiErrorInit & { readonly issues?: readonly ValidationIssue[] }, summary?: string) {
    super(summary ?? httpSummary(init), init);
    this.issues = init.issues ?? [];
  }
}

/** One problem with a value, at a dotted property path (`targeting.countries.items.0`). */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Refused locally, nothing sent: the body does not match the request schema, a path parameter is
 * missing, or it could never pass the rate limit. An `ApiValidationError` without a status.
 */
export class ApiRequestValidationError extends ApiValidationError {
  override readonly name: string = "ApiRequestValidationError";
  override readonly code: ErrorCode = "ADP_ERR_REQUEST_INVALID";
  constructor(
    summary: string,
    init: RequestContext & { readonly issues?: readonly ValidationIssue[]; readonly secrets?: readonly string[] },
  ) {
    super(init, `invalid request, not sent: ${summary}`);
  }
}

/** The token is missing, wrong or lacks access (401 or 403). */
export class ApiAuthError extends ApiError {
  override readonly name: string = "ApiAuthError";
  override readonly code: ErrorCode = "ADP_ERR_AUTH";
  constructor(init: HttpErrorInit) {
    super(httpSummary(init), init);
  }
}

/** The path names nothing (404). */
export class ApiNotFoundError extends ApiError {
  override readonly name: string = "ApiNotFoundError";
  override readonly code: ErrorCode = "ADP_ERR_NOT_FOUND";
  constructor(init: HttpErrorInit) {
    super(httpSummary(init), init);
  }
}

/** Still 429 after every attempt the retry policy allows (spec, Limits 4 and 6). */
export class ApiRateLimitError extends ApiError {
  override readonly name: string = "ApiRateLimitError";
  override readonly code: ErrorCode = "ADP_ERR_RATE_LIMIT";
  /** The last 429's `Retry-After`, ms. */
  declare readonly retryAfterMs?: number;
  /** The last 429 was `Retry-After: -1`: too many in flight (spec, Limits 6). */
  readonly concurrency: boolean;
  constructor(init: HttpErrorInit & { readonly retryAfterMs?: number; readonly concurrency?: boolean; readonly reason?: string }) {
    const reason = init.reason ?? "rate limit still exceeded";
    super(`${httpSummary(init)}: ${reason}`, init);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.concurrency = init.concurrency ?? false;
  }
}

/** The platform failed (5xx). */
export class ApiServerError extends ApiError {
  override readonly name: string = "ApiServerError";
  override readonly code: ErrorCode = "ADP_ERR_SERVER";
  constructor(init: HttpErrorInit) {
    super(httpSummary(init), init);
  }
}

export type TimeoutKind = "connect" | "headers" | "body" | "request";

/** The connection failed, was reset or timed out; no usable response. */
export class ApiNetworkError extends ApiError {
  override readonly name: string = "ApiNetworkError";
  override readonly code: ErrorCode = "ADP_ERR_NETWORK";
  /** False only when the request certainly did not reach the server (refused, connect timeout, DNS): a POST is retried only then. */
  readonly mayHaveReachedServer: boolean;
  /** Node's or undici's code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  declare readonly causeCode?: string;
  declare readonly timeout?: TimeoutKind;
  constructor(
    summary: string,
    init: ApiErrorInit & { readonly mayHaveReachedServer: boolean; readonly causeCode?: string; readonly timeout?: TimeoutKind },
  ) {
    super(summary, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    if (init.causeCode !== undefined) this.causeCode = init.causeCode;
    if (init.timeout !== undefined) this.timeout = init.timeout;
  }
}

/** A response body that is too large, not JSON, or does not match the operation's schema. */
export class ApiResponseError extends ApiError {
  override readonly name: string = "ApiResponseError";
  override readonly code: ErrorCode = "ADP_ERR_RESPONSE";
  /** Dotted path of the first field that did not parse (`items.0.id`); undefined when the body as a whole failed. */
  declare readonly field?: string;
  readonly issues: readonly ValidationIssue[];
  /**
   * A create only: the `id` its success body carried though the body did not match the schema, so the
   * caller can name the object (and offer to adopt it) instead of reporting an unknown orphan.
   */
  declare readonly createdId?: string;
  constructor(
    summary: string,
    init: HttpErrorInit & { readonly field?: string; readonly issues?: readonly ValidationIssue[]; readonly createdId?: string },
  ) {
    super(`${describeStatus(init)}: ${summary}`, init);
    if (init.field !== undefined) this.field = init.field;
    this.issues = init.issues ?? [];
    if (init.createdId !== undefined) {
      Object.defineProperty(this, "createdId", { value: redactText(init.createdId, init.secrets ?? []), enumerable: true });
    }
  }
}

/** A setting is missing or unusable (the client's connection, the share of the limits, a resource setting); nothing was sent. */
export class ApiConfigError extends ApiError {
  override readonly name: string = "ApiConfigError";
  override readonly code: ErrorCode = "ADP_ERR_CONFIG";
  /** E.g. `token`, `baseUrl`, `rateLimitShare`. */
  readonly setting: string;
  constructor(setting: string, message: string, init: ApiErrorInit = {}) {
    super(message, init);
    this.setting = setting;
  }
}
