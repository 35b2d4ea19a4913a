/**
 * Values unknown during a preview reach the provider as a sentinel string; they pass `check` unvalidated
 * and are a possible change in `diff`. The sentinel is the engine's wire format, spelled here rather than
 * imported from `@pulumi/pulumi` (`pulumi.runtime.unknownValue`; checkInputs.test.ts pins the two).
 */

export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/** True when `value` is unknown or holds an unknown anywhere inside. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
