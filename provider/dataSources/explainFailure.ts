/**
 * Turns the client's errors (kept as `cause`) into data-source errors naming the SDK function, the
 * object and the request: the field that did not parse, the host and port that failed, and how to fix
 * a connection setting at fault (`settingRemedy.ts`).
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
  readonly origin?: string;
  readonly origins?: SettingOrigins;
}

export function requestLine(request: ReadRequest): string {
  return `GET ${request.path}`;
}

/**
 * The first field of a malformed response as the caller sees it: for the client's `items.0.targeting`,
 * `targeting` of a single-record read, `items[0].targeting` of a list.
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

/** The client's reason and trace id, without its request (ours names it). */
function clientReason(error: ApiError): string {
  return renderMessage({ reason: error.parts.reason, ...(error.parts.traceId ? { traceId: error.parts.traceId } : {}) });
}

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

/** The definition's explanation of a failed read when it has one, else `translateFailure`. */
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
