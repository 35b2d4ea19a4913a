/**
 * Reading an answer: its body up to a size cap, and a 2xx parsed by the operation's response schema
 * into the attempt's outcome (a result, or a failure the retry policy judges).
 */
import type { z } from "zod";
import type { Dispatcher } from "undici";
import { MAX_PATH_PARAM_LENGTH, type OperationSpec } from "../catalog";
import type { ResponseHeaders } from "../limiter";
import { parseJson } from "../wire";
import type { CallResult } from "./contract";
import { type ApiError, ApiResponseError, type ValidationIssue } from "./errors";
import type { ErrorContext } from "./httpErrors";
import type { AttemptFailure } from "./retryPolicy";

export type Attempt =
  | { readonly kind: "success"; readonly result: CallResult }
  | {
      readonly kind: "failure";
      readonly failure: AttemptFailure;
      /** The error to throw when the call stops here; `reason`: the retry policy's words. */
      readonly error: (reason: string) => ApiError;
    };

/** A schema's issues at dotted paths (`items.0.id`, `""` for the value itself), the first as `summary`. */
export function schemaIssues(error: z.ZodError): { issues: ValidationIssue[]; first?: ValidationIssue; summary: string } {
  const issues = error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  const first = issues[0];
  return { issues, ...(first && { first }), summary: first ? `${first.path || "(body)"}: ${first.message}` : "invalid" };
}

/**
 * The top-level `id` of a create's success body that failed its schema, when usable as an id (spec,
 * Conventions: strings; a safe integer as its decimal string, as `WireId` reads it). Nothing else is
 * guessed at, and an id that could not be adopted (overlong, `.`, `..`, control characters) is dropped.
 */
function bestEffortId(json: unknown): string | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const id: unknown = (json as Record<string, unknown>).id;
  // An integer beyond 2^53 arrives from `parseJson` as a bigint, every digit kept.
  const text = typeof id === "string" ? id : typeof id === "bigint" || Number.isSafeInteger(id) ? String(id) : undefined;
  if (text === undefined || text.trim() === "" || text === "." || text === ".." || text.length > MAX_PATH_PARAM_LENGTH) return undefined;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text) ? undefined : text;
}

function flattenHeaders(headers: ResponseHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Reads the body up to `limit` bytes; a larger body is abandoned, not buffered. */
export async function readBody(
  response: Dispatcher.ResponseData,
  limit: number,
  status: number,
  context: ErrorContext,
): Promise<{ kind: "text"; text: string } | { kind: "tooLarge"; error: ApiError }> {
  const tooLarge = (size: string) => {
    // Abandon the body: the socket is closed rather than drained. The abort error it emits is ours.
    response.body.once("error", () => undefined);
    response.body.destroy();
    return {
      kind: "tooLarge" as const,
      error: new ApiResponseError(`response body ${size} exceeds the ${limit}-byte limit; not read`, { ...context, status }),
    };
  };
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return tooLarge(`of ${declared} bytes`);
  // A declared length within the cap is read whole: undici stops at the declared length, and
  // reading in one step costs fewer turns of the event loop than iterating the chunks.
  if (Number.isFinite(declared)) return { kind: "text", text: await response.body.text() };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return tooLarge(`of more than ${limit} bytes`);
    chunks.push(buffer);
  }
  return { kind: "text", text: Buffer.concat(chunks).toString("utf8") };
}

/** A 2xx: parse with the operation's schema (tolerant reader); 204 or no schema → undefined. */
export function success(op: OperationSpec, status: number, headers: ResponseHeaders, bodyText: string, context: ErrorContext): Attempt {
  const result = (body: unknown): Attempt => ({
    kind: "success",
    result: { status, body, headers: flattenHeaders(headers) },
  });
  if (status === 204 || !op.response) return result(undefined);
  let json: unknown;
  try {
    json = parseJson(bodyText);
  } catch {
    // Unparseable JSON is damage in transit or a failing server: idempotent operations may retry.
    const error = new ApiResponseError("response body is not valid JSON", { ...context, status });
    return { kind: "failure", failure: { kind: "malformed" }, error: () => error };
  }
  const parsed = op.response.safeParse(json);
  if (parsed.success) return result(parsed.data);
  const { issues, first, summary } = schemaIssues(parsed.error);
  const createdId = op.method === "POST" ? bestEffortId(json) : undefined;
  const error = new ApiResponseError(`response body does not match the ${op.name} schema: ${summary}`, {
    ...context,
    status,
    ...(first ? { field: first.path } : {}),
    issues,
    ...(createdId !== undefined ? { createdId } : {}),
  });
  return { kind: "failure", failure: { kind: "unusable" }, error: () => error };
}
