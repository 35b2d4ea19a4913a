/**
 * Errors a resource operation reports to the engine. The dynamic-provider plugin shows only the
 * error's message, so every message names the resource, then carries the client's parts
 * (operation, status, the API's `message` and `trace_id`: spec, Errors).
 */
import { ApiNetworkError, ApiResponseError, ApiServerError } from "../../client";
import { AdPlatformError, type MessageParts, messageParts, renderMessage, underSubject } from "../../errors";

/**
 * A failed resource operation. `cause`, when a call failed, keeps the client's error with its typed
 * fields and its own code. The code is spelled as the client's and the data sources' are
 * (`ADP_ERR_<WHAT>`).
 */
export class ResourceOperationError extends AdPlatformError {
  override readonly name = "ResourceOperationError";
  /** `message`: the whole message, or its parts. */
  constructor(message: string | MessageParts, options?: { cause?: unknown }) {
    super("ADP_ERR_RESOURCE_OPERATION", message, options);
  }
}

/** `<subject>: <what the client said>`; non-API errors keep their message. */
export function resourceError(subject: string, error: unknown): ResourceOperationError {
  return new ResourceOperationError(underSubject(subject, error), { cause: error });
}

/**
 * True when a failed POST may have created the object: the request may have reached the server
 * (network failure after sending), the server failed midway (5xx), or it answered success with a
 * body that could not be read. Anything else (refused locally, not configured, 4xx, 429) created
 * nothing.
 */
export function mayHaveCreated(error: unknown): boolean {
  if (error instanceof ApiNetworkError) return error.mayHaveReachedServer;
  return error instanceof ApiServerError || error instanceof ApiResponseError;
}

/** What the user can do after an ambiguous create: find the object, then adopt it or retry. */
export interface AdoptHint {
  /** `bid strategy`, `campaign group`. */
  readonly noun: string;
  /** The declared name to look for on the platform. */
  readonly name: string;
}

/**
 * The error of a POST that failed ambiguously: says that an object may now exist that Pulumi does
 * not know of, and how to adopt it (`adoptId`) so a retry does not create a duplicate. Names the
 * object's id when the platform's answer carried one (`ApiResponseError.createdId`), else the
 * declared name to look for.
 */
export function ambiguousCreateError(subject: string, error: unknown, hint: AdoptHint): ResourceOperationError {
  const detail = renderMessage(messageParts(error));
  const reason =
    `the create request may have reached the platform, so a ${hint.noun} may now exist ` + `that Pulumi does not know of (${detail}).`;
  // A success body that failed the schema may still have named the object it created (the client
  // keeps that id, best effort): name it, so the user need not search for it.
  const createdId = error instanceof ApiResponseError ? error.createdId : undefined;
  const remedy =
    createdId !== undefined
      ? `The platform may have created ${hint.noun} ${createdId} (its answer named that id); set ` +
        `\`adoptId: ${JSON.stringify(createdId)}\` on this resource and run again to take it over, so no duplicate is created.`
      : `Look for a ${hint.noun} named ${JSON.stringify(hint.name)} on the platform: if it exists, set ` +
        `\`adoptId: "<its id>"\` on this resource and run again, so no duplicate is created; if it does not, run again.`;
  return new ResourceOperationError({ subject, reason, remedy }, { cause: error });
}
