/**
 * Error bodies of the simulator (spec, Errors: "Error bodies are JSON").
 *
 * spec, Errors: a 400 carries `code`, `title`, `message` and `trace_id` (UUID); a 500 carries `code`,
 * `title` and `trace_id`, and some 500s carry `message` and no `trace_id`.
 */
import { randomUUID } from "node:crypto";

/** The JSON body of every error response. */
export interface ErrorBody {
  code: number;
  title: string;
  message?: string;
  trace_id?: string;
}

/**
 * Decision (not shown in spec): statuses other than 400, 429 and 500 (401, 403, 404, 405, 413) and the 429
 * body use the 400 shape `{code, title, message, trace_id}`; 429's body is "not given", so clients
 * must rely on its status and `Retry-After` only.
 */
const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
};

/** `{code, title, message, trace_id}` for `status`. */
export function errorBody(status: number, message: string): ErrorBody {
  return { code: status, title: TITLES[status] ?? "Error", message, trace_id: randomUUID() };
}

/**
 * spec, Errors: the two 500 shapes. `withTrace` gives `{code, title, trace_id}`; otherwise
 * `{code, title, message}` without `trace_id`.
 */
export function serverErrorBody(withTrace: boolean): ErrorBody {
  return withTrace
    ? { code: 500, title: TITLES[500], trace_id: randomUUID() }
    : { code: 500, title: TITLES[500], message: "An unexpected error occurred, please try again later" };
}

/** spec, Errors: the 400 message reads that the request, or its body, is not valid. */
export function invalidBody(detail: string): ErrorBody {
  return errorBody(400, `The request body is not valid: ${detail}`);
}

/** spec, Errors: the 400 message for a request that is not valid apart from its body. */
export function invalidRequest(detail: string): ErrorBody {
  return errorBody(400, `The request is not valid: ${detail}`);
}
