/**
 * An id input naming a platform object. Path parameters are percent-encoded, so only an empty id, `.`,
 * `..` (URL normalisation would change the path) and one too long cannot be sent; the catalog's
 * `buildPath` refuses them when sending, and this makes that a `check` failure naming the property.
 */
import { MAX_PATH_PARAM_LENGTH, RequestId } from "../../catalog";

export const PathId = RequestId.min(1, "must not be empty")
  .max(MAX_PATH_PARAM_LENGTH, `must be at most ${MAX_PATH_PARAM_LENGTH} characters`)
  .refine((id) => id !== "." && id !== "..", { message: 'must not be "." or ".." (URL normalisation would change the request path)' });
