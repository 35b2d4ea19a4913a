/**
 * An id input that the provider puts into a request path (`bidModifierId`, `abTestId`,
 * `variationId`, a campaign group's `adoptId`). Path parameters are percent-encoded, so `/`, `?`,
 * `#` and spaces stay inside their one segment; only `.` and `..` cannot be encoded (URL
 * normalisation would turn them into another path), and the catalog's `buildPath` refuses them, and
 * ids longer than `MAX_PATH_PARAM_LENGTH`, when sending. Refusing them here makes that a `check`
 * failure naming the property, before any request, rather than a failed create.
 */
import { MAX_PATH_PARAM_LENGTH, RequestId } from "../../catalog";

/** `RequestId` that is not `.` or `..` and fits a path segment (`MAX_PATH_PARAM_LENGTH`). */
export const PathId = RequestId.max(MAX_PATH_PARAM_LENGTH, `must be at most ${MAX_PATH_PARAM_LENGTH} characters`).refine(
  (id) => id !== "." && id !== "..",
  { message: 'must not be "." or ".." (URL normalisation would change the request path)' },
);
