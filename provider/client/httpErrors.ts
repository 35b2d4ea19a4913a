/**
 * The error for a response with a non-success status (spec, Errors): the status picks the class,
 * the body gives `title`, `message` and `trace_id` when it has them.
 *
 * Error bodies are read tolerantly: every field optional, extra fields kept, `code` as a number or a
 * numeric string.
 * - 400: `code` (400), `title`, `message`, `trace_id` (UUID).
 * - 500: `code` (500), `title`, `trace_id`; some 500s carry `message` and no `trace_id`.
 * - other statuses: not shown in the spec; the same fields are read when present.
 */
import { z } from "zod";
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
import type { RetryAfter } from "../limiter";

/** Any error body the platform sends. */
// `.catch(undefined)`: one odd field (a numeric title) must not hide the others.
export const ErrorBody = z.looseObject({
  code: z.union([z.number(), z.string()]).optional().catch(undefined),
  title: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  trace_id: z.string().optional().catch(undefined),
});

/** Parsed error body (wire names). */
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The fields of an error body the error family keeps, or `{}` when the body is absent or not JSON. */
export function readErrorBody(text: string): { title?: string; message?: string; traceId?: string } {
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = ErrorBody.safeParse(json);
  if (!parsed.success) return {};
  const { title, message, trace_id } = parsed.data;
  return {
    ...(title ? { title } : {}),
    ...(message ? { message } : {}),
    ...(trace_id ? { traceId: trace_id } : {}),
  };
}

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
