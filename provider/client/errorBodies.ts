/**
 * Wire schema of the platform's error bodies (spec, Errors), read tolerantly: every field optional,
 * extra fields kept, `code` as a number or a numeric string.
 *
 * - 400: `code` (400), `title`, `message`, `trace_id` (UUID).
 * - 500: `code` (500), `title`, `trace_id`; some 500s carry `message` and no `trace_id`.
 * - other statuses: not shown in the spec; the same fields are read when present.
 */
import { z } from "zod";

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
