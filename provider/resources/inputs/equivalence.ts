/** When two input values mean the same thing: a plan differing only in spelling must not replace or PATCH. */
import { decimalsEqual } from "./decimal";

export type Equivalence = (a: unknown, b: unknown) => boolean;

/** `null` and `undefined` both mean "not set" (state written by older versions may hold either). */
export function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** Structural: key order does not matter, absent keys equal `undefined`/`null` ones, array order matters. */
export const deepEquivalent: Equivalence = (a, b) => {
  if (isAbsent(a) || isAbsent(b)) return isAbsent(a) && isAbsent(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEquivalent(v, b[i]));
  }
  if (typeof a === "object" && typeof b === "object") {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].every((k) => deepEquivalent(ra[k], rb[k]));
  }
  return a === b;
};

/** A number or decimal string: `1.5`, `"1.5"` and `"1.50"` are equal. */
export const decimalEquivalent: Equivalence = (a, b) => (isAbsent(a) || isAbsent(b) ? isAbsent(a) && isAbsent(b) : decimalsEqual(a, b));

/** A list whose order carries no meaning (campaign ids of a group): equal as sets. */
export const setEquivalent: Equivalence = (a, b) => {
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEquivalent(a, b);
  const sa = new Set(a.map((v) => JSON.stringify(v)));
  const sb = new Set(b.map((v) => JSON.stringify(v)));
  return sa.size === sb.size && [...sa].every((v) => sb.has(v));
};

/** Hex colours: `#AABBCC` and `#aabbcc` are the same colour. */
export const caseInsensitiveEquivalent: Equivalence = (a, b) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : deepEquivalent(a, b);
