/**
 * An id input that names a platform object (`bidModifierId`, `abTestId`, `variationId`, an
 * `adoptId`). Path parameters are percent-encoded, so `/`, `?`, `#`, spaces and surrounding
 * whitespace stay inside their one segment; only an empty id (no segment), `.` and `..` (URL
 * normalisation would turn them into another path) cannot be sent, and the catalog's `buildPath`
 * refuses them, and ids longer than `MAX_PATH_PARAM_LENGTH`, when sending. Refusing them here makes
 * that a `check` failure naming the property, before any request, rather than a failed create.
 */
import { MAX_PATH_PARAM_LENGTH, RequestId } from "../../catalog";

/** `RequestId` that is not empty, `.` or `..` and fits a path segment (`MAX_PATH_PARAM_LENGTH`). */
export const PathId = RequestId.min(1, "must not be empty")
  .max(MAX_PATH_PARAM_LENGTH, `must be at most ${MAX_PATH_PARAM_LENGTH} characters`)
  .refine((id) => id !== "." && id !== "..", { message: 'must not be "." or ".." (URL normalisation would change the request path)' });
