/**
 * Classifies a failure without a usable response (undici or Node error) into an `ApiNetworkError`,
 * deciding the one fact the retry policy needs: could the request have reached the server?
 */
import { ApiNetworkError, type TimeoutKind } from "./errors";
import type { ErrorContext } from "./httpErrors";

/** Codes of failures before a byte of the request is sent: refused, unroutable, unresolved, connect timeout. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

const TIMEOUT_BY_CODE: Readonly<Record<string, TimeoutKind>> = {
  UND_ERR_CONNECT_TIMEOUT: "connect",
  UND_ERR_HEADERS_TIMEOUT: "headers",
  UND_ERR_BODY_TIMEOUT: "body",
};

const DESCRIPTION: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed while sending",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
  UND_ERR_HEADERS_TIMEOUT: "timed out waiting for response headers",
  UND_ERR_BODY_TIMEOUT: "timed out receiving the response body",
};

/** The first `code` along the error and its causes (undici wraps Node's socket errors). */
function failureCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Where the failure happened, as far as the client could tell. */
export interface NetworkFailureFacts {
  /** The whole-request timeout (AbortSignal) fired. */
  readonly requestTimedOut: boolean;
  /** Response headers had arrived: the request certainly reached the server. */
  readonly responseStarted: boolean;
  readonly requestTimeoutMs?: number;
}

/** An `ApiNetworkError` for `error`; the original is kept, scrubbed, as `cause`. */
export function errorForNetworkFailure(error: unknown, facts: NetworkFailureFacts, context: ErrorContext): ApiNetworkError {
  const code = failureCode(error);
  const timeout: TimeoutKind | undefined = facts.requestTimedOut ? "request" : code ? TIMEOUT_BY_CODE[code] : undefined;
  const notSent = !facts.responseStarted && !facts.requestTimedOut && code !== undefined && NOT_SENT_CODES.has(code);
  const what = facts.requestTimedOut
    ? `request timed out after ${facts.requestTimeoutMs ?? "?"} ms`
    : ((code && DESCRIPTION[code]) ?? (error instanceof Error ? error.message : "network failure"));
  const summary = `${what}${code && !facts.requestTimedOut ? ` (${code})` : ""}`;
  return new ApiNetworkError(summary, {
    ...context,
    mayHaveReachedServer: !notSent,
    ...(code !== undefined ? { causeCode: code } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    cause: error,
  });
}
