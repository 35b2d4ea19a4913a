/**
 * Values the engine does not know yet. During a preview an input computed from another resource's
 * output reaches the provider as a sentinel string in the property map; such values must pass
 * `check` unvalidated and show as a possible change in `diff`.
 *
 * The sentinel is the engine's wire format (every face receives the property map as the engine
 * sent it), so it is spelled here rather than imported from `@pulumi/pulumi`, where it is
 * `pulumi.runtime.unknownValue`; tests/provider/resources/inputs/checkInputs.test.ts pins the two
 * together.
 */

/** The engine's "unknown during preview" sentinel string. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is the engine's unknown sentinel. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/** True when `value` is unknown or holds an unknown anywhere inside (array element, object field). */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
