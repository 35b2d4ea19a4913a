/**
 * A schema that checks a parsed JSON body with another schema and hands the body on as it is.
 *
 * A zod schema's output drops every `__proto__` key (zod skips them on purpose: assigning one
 * would replace the output's prototype), so a reader that must keep every field maps the body as
 * parsed (`toSdk` walks the schema over it, taking each leaf's output from the schema) and uses the
 * schema only to check it. The issues are the schema's own, at the same paths.
 */
import { z } from "zod";
import { setOwn } from "./json";

/**
 * `value` with each `bigint` (an integer beyond 2^53 from `parseJson`) replaced by the safe integer
 * of the same sign nearest to it. A check only needs to know it is an integer; what it becomes is
 * `toSdk`'s business (an id keeps every digit, a number field gets the nearest number).
 */
function withSafeIntegers(value: unknown): unknown {
  if (typeof value === "bigint") return value < 0n ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  if (Array.isArray(value)) return value.map(withSafeIntegers);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) setOwn(out, key, withSafeIntegers(v));
    return out;
  }
  return value;
}

/** Accepts what `schema` accepts, reports its issues, and outputs the input unchanged. */
export function checkedJson(schema: z.ZodType): z.ZodType<unknown, unknown> {
  return z.unknown().superRefine((value, ctx) => {
    const result = schema.safeParse(withSafeIntegers(value));
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  });
}

/**
 * `op` with its 2xx body checked by its response schema and handed on as parsed (`checkedJson`), for
 * a reader that maps it with `toSdk` and must not lose a `__proto__` key or an integer's digits.
 */
export function answeredAsParsed<O extends { readonly response?: z.ZodType }>(
  op: O,
): Omit<O, "response"> & { readonly response?: z.ZodType<unknown, unknown> } {
  return Object.freeze({ ...op, response: op.response && checkedJson(op.response) });
}
