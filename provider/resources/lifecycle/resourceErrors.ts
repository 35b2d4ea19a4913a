/**
 * Errors a resource operation reports. The dynamic plugin shows only the message, so each names the
 * resource, then the client's parts (operation, status, the API's `message` and `trace_id`: spec, Errors).
 */
import { ApiNetworkError, ApiResponseError, ApiServerError } from "../../client";
import { AdPlatformError, type MessageParts, messageParts, renderMessage, underSubject } from "../../errors";

/** A failed resource operation; `cause` keeps the client's error with its typed fields and code. */
export class ResourceOperationError extends AdPlatformError {
  override readonly name = "ResourceOperationError";
  constructor(message: string | MessageParts, options?: { cause?: unknown }) {
    super("ADP_ERR_RESOURCE_OPERATION", message, options);
  }
}

/** `<subject>: <what the client said>`; non-API errors keep their message. */
export function resourceError(subject: string, error: unknown): ResourceOperationError {
  return new ResourceOperationError(underSubject(subject, error), { cause: error });
}

/** True when a failed POST may have created the object: sent then lost, a 5xx, or an unreadable success body. */
export function mayHaveCreated(error: unknown): boolean {
  if (error instanceof ApiNetworkError) return error.mayHaveReachedServer;
  return error instanceof ApiServerError || error instanceof ApiResponseError;
}

/** The error of a POST that failed ambiguously with no record kept: how to adopt what it may have made. */
export function ambiguousCreateError(subject: string, error: unknown, hint: { noun: string; name: string }): ResourceOperationError {
  const detail = renderMessage(messageParts(error));
  const reason =
    `the create request may have reached the platform, so a ${hint.noun} may now exist ` + `that Pulumi does not know of (${detail}).`;
  // A success body that failed the schema may still have named the object (kept by the client, best effort).
  const createdId = error instanceof ApiResponseError ? error.createdId : undefined;
  const remedy =
    createdId !== undefined
      ? `The platform may have created ${hint.noun} ${createdId} (its answer named that id); set ` +
        `\`adoptId: ${JSON.stringify(createdId)}\` on this resource and run again to take it over, so no duplicate is created.`
      : `Look for a ${hint.noun} named ${JSON.stringify(hint.name)} on the platform: if it exists, set ` +
        `\`adoptId: "<its id>"\` on this resource and run again, so no duplicate is created; if it does not, run again.`;
  return new ResourceOperationError({ subject, reason, remedy }, { cause: error });
}
