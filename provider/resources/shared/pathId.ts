/**
 * An id input that the provider puts into a request path (`bidModifierId`, `abTestId`,
 * `variationId`, a campaign group's `adoptId`). Path parameters are percent-encoded, so `/`, `?`, `#` and spaces stay
 * inside their one segment; only `.` and `..` cannot be encoded (URL normalisation would turn them
 * into another path), and the catalog's `buildPath` refuses them when sending. Refusing them here
 * makes that a `check` failure naming the property, before any request, rather than a failed create.
 */
import { RequestId } from "../../catalog";

/** `RequestId` that is not `.` or `..`. */
export const PathId = RequestId.refine((id) => id !== "." && id !== "..", {
  message: 'must not be "." or ".." (URL normalisation would change the request path)',
});
