/**
 * TypeScript type text for the generated SDK files. The resource classes (`resourceSdk.ts`) read a
 * field's type from the native schema's walk, so that both faces type it alike; the data sources'
 * results (`dataSourceSdk.ts`) walk the catalog's zod schemas, which keep what the schema language
 * drops (`| null`, the SDK's names of shared types). Both spell the types they meet here.
 */

/** A scalar of the schema language or of zod. */
export type Scalar = "string" | "number" | "integer" | "boolean";

/** The TypeScript type of a scalar (an integer is a `number`). */
export function scalarType(scalar: Scalar): string {
  return scalar === "integer" ? "number" : scalar;
}

/** An array of `element`, parenthesised when the element is a union or intersection. */
export function arrayType(element: string): string {
  return /[|&]/.test(element) ? `(${element})[]` : `${element}[]`;
}

/** A map from string keys to `value`. */
export function recordType(value: string): string {
  return `Record<string, ${value}>`;
}

/** The union of `members`, each once, in the order met. */
export function unionType(members: readonly string[]): string {
  return [...new Set(members)].join(" | ");
}
