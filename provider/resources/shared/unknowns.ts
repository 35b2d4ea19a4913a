/**
 * Values the engine does not know yet. During a preview an input computed from another resource's
 * output reaches the dynamic provider as the sentinel string `pulumi.runtime.unknownValue`
 * (`04da6b54-...`); such values must pass `check` unvalidated and show as a possible change in `diff`.
 */
import * as pulumi from "@pulumi/pulumi";

/** True when `value` is the engine's unknown sentinel. */
export function isUnknown(value: unknown): boolean {
  return value === pulumi.runtime.unknownValue;
}

/** True when `value` is unknown or holds an unknown anywhere inside (array element, object field). */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
