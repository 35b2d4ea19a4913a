/**
 * Turns the client's errors into data-source errors that name the SDK function, the object and the
 * request: an unknown id names the operation and the id, a malformed response names the field that
 * did not parse, a network failure names the host and port, and a failure caused by a connection
 * setting ends with a line saying how to fix it (`settingRemedy.ts`). The client's error is kept as `cause`.
 */
import { ApiError, ApiNetworkError, ApiNotFoundError, ApiResponseError, type Connection } from "../client";
import { messageParts, renderMessage } from "../errors";
import { MISSING_FIELD } from "../catalog";
import type { DataSource } from "./dataSource";
import type { ReadRequest } from "./arguments";
import { DataSourceError, DataSourceNotFoundError, DataSourceRequestError, DataSourceResponseError } from "./errors";
import { hostAndPort, remedyFor, settingAtFault, type SettingOrigins } from "./settingRemedy";

/** What a failure's message may name besides the request: where it went, and where the settings came from. */
export interface FailureContext {
  /** `scheme://host[:port]` the request went to (the resolved connection's `origin`). */
  readonly origin?: string;
  /** Where the base URL and token in use came from. */
  readonly origins?: SettingOrigins;
}

/** `GET /v2/adex/zones/999` */
export function requestLine(request: ReadRequest): string {
  return `GET ${request.path}`;
}

/**
 * The first field of a malformed response, as the caller sees it: the client reports the envelope
 * path (`items.0.targeting.countries.items`); a single-record read names the record's own field
 * (`targeting.countries.items`), a list read the element (`items[3].name`).
 */
function malformedField(source: DataSource, error: ApiResponseError): string | undefined {
  const field = error.field ?? error.issues[0]?.path;
  if (field === undefined || field === "") return undefined;
  const inItem = /^items\.(\d+)(?:\.(.*))?$/.exec(field);
  if (!inItem) return field;
  const [, index, rest] = inItem;
  if (source.shape === "one") return rest ?? "(record)";
  return `items[${index}]${rest ? `.${rest}` : ""}`;
}

/** The client's reason and trace id, without its request (the data source's message names it). */
function clientReason(error: ApiError): string {
  return renderMessage({ reason: error.parts.reason, ...(error.parts.traceId ? { traceId: error.parts.traceId } : {}) });
}

/**
 * A request error for a failure of the client: the client's reason, the host and port when the
 * connection failed, and the remedy line when a connection setting is at fault.
 */
function requestFailure(source: DataSource, line: string, error: ApiError, context: FailureContext): DataSourceRequestError {
  const where = error instanceof ApiNetworkError && context.origin !== undefined ? ` at ${hostAndPort(context.origin)}` : "";
  const setting = settingAtFault(error);
  const { reason, traceId } = error.parts;
  return new DataSourceRequestError(
    source.functionName,
    {
      action: line,
      reason: `${reason}${where}`,
      ...(traceId ? { traceId } : {}),
      ...(setting !== undefined ? { remedy: remedyFor(setting, context.origins?.[setting]) } : {}),
    },
    { cause: error, ...(setting !== undefined ? { setting } : {}) },
  );
}

/** The default translation of a failed read. */
export function translateFailure(source: DataSource, request: ReadRequest, error: unknown, context: FailureContext = {}): Error {
  const line = requestLine(request);
  if (error instanceof DataSourceError) return error;
  if (error instanceof ApiNotFoundError) {
    return new DataSourceNotFoundError(source.functionName, source.subject(request.args), `${line} returned ${error.status ?? 404}`, {
      cause: error,
    });
  }
  if (error instanceof ApiResponseError) {
    const field = malformedField(source, error);
    const why = error.issues[0]?.message;
    const what = !field
      ? `the response did not parse: ${clientReason(error)}`
      : why === MISSING_FIELD
        ? `field "${field}" is missing from the response`
        : `field "${field}" of the response did not parse${why ? `: ${why}` : ""}`;
    return new DataSourceResponseError(source.functionName, `malformed response to ${line}: ${what}`, { cause: error });
  }
  if (error instanceof ApiError) return requestFailure(source, line, error, context);
  return new DataSourceRequestError(source.functionName, { action: line, reason: messageParts(error).reason }, { cause: error });
}

/** The error to throw for a failed read: the definition's explanation when it has one, else `translate`. */
export async function explainFailure(
  source: DataSource,
  request: ReadRequest,
  connection: Connection,
  error: unknown,
  origins?: SettingOrigins,
): Promise<Error> {
  if (source.explainFailure && !(error instanceof DataSourceError)) {
    const better = await source.explainFailure(error, request.args, connection).catch(() => undefined);
    if (better) return better;
  }
  return translateFailure(source, request, error, { origin: connection.origin, ...(origins ? { origins } : {}) });
}
