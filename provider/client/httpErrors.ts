/**
 * The error for a response with a non-success status (spec, Errors): the status picks the class,
 * the body gives `title`, `message` and `trace_id` when it has them.
 */
import {
  ApiAuthError,
  type ApiError,
  type ApiErrorInit,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiServerError,
  ApiValidationError,
  genericHttpError,
  type RequestContext,
} from "./errors";
import { readErrorBody } from "./errorBodies";
import type { RetryAfter } from "./rateLimitHeaders";

/** What is known of the failed response. */
export interface FailedResponse {
  readonly status: number;
  /** Raw body text (may be empty or not JSON). */
  readonly bodyText: string;
  readonly retryAfter?: RetryAfter;
}

/** Context shared by every error of a call. */
export interface ErrorContext extends RequestContext {
  readonly attempts?: number;
  /** Scrubbed from every text the error keeps. */
  readonly secrets?: readonly string[];
}

/**
 * The `ApiError` subclass for `response`.
 *
 * @param reason why the call stopped, for 429s (e.g. "the retry budget of 600000 ms from the first send ran out ...").
 */
export function errorForResponse(response: FailedResponse, context: ErrorContext, reason?: string): ApiError {
  const body = readErrorBody(response.bodyText);
  const init = {
    ...context,
    status: response.status,
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.message !== undefined ? { serverMessage: body.message } : {}),
    ...(body.traceId !== undefined ? { traceId: body.traceId } : {}),
  } satisfies ApiErrorInit & { status: number };
  const { status } = response;
  if (status === 400) return new ApiValidationError(init);
  if (status === 401 || status === 403) return new ApiAuthError(init);
  if (status === 404) return new ApiNotFoundError(init);
  if (status === 429) {
    const retryAfter = response.retryAfter;
    return new ApiRateLimitError({
      ...init,
      ...(retryAfter?.kind === "delay" ? { retryAfterMs: retryAfter.ms } : {}),
      concurrency: retryAfter?.kind === "concurrency",
      ...(reason ? { reason } : {}),
    });
  }
  if (status >= 500) return new ApiServerError(init);
  return genericHttpError(init);
}
