/**
 * An id naming a platform object. Percent-encoded, only an empty id, `.`, `..` and one too long cannot be
 * sent; `buildPath` refuses them when sending, and this makes that a `check` failure naming the property.
 */
import { MAX_PATH_PARAM_LENGTH, RequestId } from "../../catalog";

export const PathId = RequestId.min(1, "must not be empty")
  .max(MAX_PATH_PARAM_LENGTH, `must be at most ${MAX_PATH_PARAM_LENGTH} characters`)
  .refine((id) => id !== "." && id !== "..", { message: 'must not be "." or ".." (URL normalisation would change the request path)' });
