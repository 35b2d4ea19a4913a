/**
 * A schema that checks a parsed JSON body with another and hands the body on as it is: zod's output
 * drops every `__proto__` key, so a reader that must keep every field maps the body as parsed
 * (`toSdk`) and uses the schema only to check it, with the schema's own issues and paths.
 */
import { z } from "zod";
import { mapOwn } from "./json";

/** Each `bigint` as the nearest safe integer: a check needs only to know it is an integer. */
function withSafeIntegers(value: unknown): unknown {
  if (typeof value === "bigint") return value < 0n ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  if (Array.isArray(value)) return value.map(withSafeIntegers);
  return value !== null && typeof value === "object" ? mapOwn(value, withSafeIntegers) : value;
}

/** Accepts what `schema` accepts, reports its issues, and outputs the input unchanged. */
export function checkedJson(schema: z.ZodType): z.ZodType<unknown, unknown> {
  return z.unknown().superRefine((value, ctx) => {
    const result = schema.safeParse(withSafeIntegers(value));
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  });
}

/** `op` with its 2xx body checked by its response schema and handed on as parsed, for a reader that maps it with `toSdk`. */
export function answeredAsParsed<O extends { readonly response?: z.ZodType }>(
  op: O,
): Omit<O, "response"> & { readonly response?: z.ZodType<unknown, unknown> } {
  return Object.freeze({ ...op, response: op.response && checkedJson(op.response) });
}
