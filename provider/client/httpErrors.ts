/**
 * The error for a non-success status (spec, Errors): the status picks the class, the body gives
 * `title`, `message`, `trace_id`, read tolerantly (the spec shows 500s without `message` and some
 * without `trace_id`, and no body of other statuses than 400 and 500).
 */
import { z } from "zod";
import {
  ApiAuthError,
  type ApiError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiServerError,
  ApiValidationError,
  genericHttpError,
  type RequestContext,
} from "./errors";
import type { AttemptFailure } from "./retryPolicy";

// `.catch(undefined)`: one odd field (a numeric title) must not hide the others.
const ErrorBody = z.looseObject({
  code: z.union([z.number(), z.string()]).optional().catch(undefined),
  title: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  trace_id: z.string().optional().catch(undefined),
});

/** The error body's fields, none when the body is absent or not JSON. */
function readErrorBody(text: string): z.infer<typeof ErrorBody> {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** What is known of the failed response (`bodyText` may be empty or not JSON). */
export type FailedResponse = Extract<AttemptFailure, { kind: "status" }> & { readonly bodyText: string };

/** Context shared by every error of a call; `secrets` are scrubbed from every text the error keeps. */
export interface ErrorContext extends RequestContext {
  readonly attempts?: number;
  readonly secrets?: readonly string[];
}

/** The `ApiError` subclass for `response`; `reason`: why the call stopped, for 429s (the retry policy's words). */
export function errorForResponse(response: FailedResponse, context: ErrorContext, reason?: string): ApiError {
  const { title, message, trace_id } = readErrorBody(response.bodyText);
  const { status, retryAfter } = response;
  const init = {
    ...context,
    status,
    ...(title ? { title } : {}),
    ...(message ? { serverMessage: message } : {}),
    ...(trace_id ? { traceId: trace_id } : {}),
  };
  if (status === 400) return new ApiValidationError(init);
  if (status === 401 || status === 403) return new ApiAuthError(init);
  if (status === 404) return new ApiNotFoundError(init);
  if (status === 429) {
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
